import type { ConsoleSnapshotView } from '../../../../shared/features/site-services';
import { clockOrWhen } from '../../lib/when';

type ConsoleStation = ConsoleSnapshotView['stations'][number];

/** How old a heartbeat is, in words ("12 s ago", "3 min ago", a time, or a day and time). */
export function ago(iso: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  // A station gone quiet for days shows the day too, not only a time that looks like today's.
  return clockOrWhen(iso, new Date(now));
}

/** A station's platform state as the console says it (its header's words, shorter). */
const PLATFORM_WORDS: Record<string, { text: string; tone: 'ok' | 'warn' | 'bad' }> = {
  online: { text: 'online', tone: 'ok' },
  failing: { text: 'not answering', tone: 'warn' },
  offline: { text: 'offline', tone: 'bad' },
  'rates-failing': { text: 'rates failing', tone: 'bad' },
  'labels-failing': { text: 'labels failing', tone: 'bad' },
  'token-failing': { text: 'token requests failing', tone: 'bad' },
  refused: { text: 'API key refused', tone: 'bad' },
  'no-secret': { text: 'no client secret', tone: 'bad' },
  unknown: { text: 'not asked yet', tone: 'warn' },
};

/**
 * Whether the station can reach the Shipping Platform, as it last said (site migration 5): a
 * station whose API key is refused buys nothing, however healthy the rest of its row looks.
 */
export function PlatformCell(props: { station: ConsoleStation; online: boolean; now: number }) {
  const { platform } = props.station;
  if (!platform)
    return (
      <td
        className="muted"
        title="Not published: a station of an older version, or a site store not migrated to schema 5 yet"
      >
        —
      </td>
    );
  const words = PLATFORM_WORDS[platform.state] ?? { text: platform.state, tone: 'warn' };
  return (
    <td data-testid="console-platform">
      {props.online ? (
        <span
          className={
            words.tone === 'ok' ? 'chip on' : words.tone === 'bad' ? 'chip bad' : 'chip warn'
          }
          title={platform.detail ?? undefined}
        >
          {words.text}
        </span>
      ) : (
        <span
          className="chip"
          title={`As its station last said, ${ago(props.station.lastSeenAt, props.now)}`}
        >
          {words.text} (last known)
        </span>
      )}
    </td>
  );
}

/** The station's label printers: their state, or the last word of a station gone quiet. */
export function PrintersCell(props: { station: ConsoleStation; online: boolean; now: number }) {
  const { station: s, online } = props;
  return (
    <td>
      {s.printers.length
        ? s.printers.map((p) =>
            online ? (
              <span
                key={p.id}
                className={p.state === 'ready' ? 'chip on' : 'chip bad'}
                title={p.detail ?? undefined}
              >
                {p.name}: {p.state}
              </span>
            ) : (
              // The station stopped telling: its printer's word is as old as its last
              // heartbeat, not "ready" now.
              <span
                key={p.id}
                className="chip"
                title={`As its station last said, ${ago(s.lastSeenAt, props.now)}`}
              >
                {p.name}: {p.state} (last known)
              </span>
            ),
          )
        : '—'}
    </td>
  );
}

/**
 * Below Cost today: the labels of the day marked voided at the carrier (site migration 6), which
 * the table leaves out: how many, and what they had cost, per currency.
 */
export function VoidedToday(props: { rows: ConsoleSnapshotView['costToday'] }) {
  const per = new Map<string, { labels: number; cents: number }>();
  for (const r of props.rows) {
    if (!r.voided) continue;
    const t = per.get(r.currency) ?? { labels: 0, cents: 0 };
    t.labels += r.voided;
    t.cents += r.voidedCents;
    per.set(r.currency, t);
  }
  if (per.size === 0) return null;
  const said = [...per].map(
    ([currency, t]) =>
      `${t.labels} label${t.labels === 1 ? '' : 's'}, ${(t.cents / 100).toFixed(2)} ${currency}`,
  );
  return (
    <p className="muted" data-testid="console-voided">
      Voided at the carrier today, not counted above: {said.join('; ')}.
    </p>
  );
}
