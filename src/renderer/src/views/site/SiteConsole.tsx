import { useSession } from '../../store/session';
import { useEffect, useState } from 'react';
import { call, getBridge } from '../../bridge';
import type { ConsoleSnapshotView, ConsoleView } from '../../../../shared/features/site-services';
import { ago, PlatformCell, PrintersCell, VoidedToday } from './ConsoleCells';
import { siteAttentionNone } from './console-attention';
import './console.css';
import { clockOrWhen } from '../../lib/when';

/**
 * A station that stopped sends nothing, so online/offline turns on time passing: the page ages
 * the heartbeats it has on its own clock (set to the store's).
 */
const AGE_TICK_MS = 1_000;
/**
 * A running station's check-in that changed nothing else (every 2 s) sends no NOTIFY, so the
 * page reads the site again this often when nothing else made it: well within the 10 s after
 * which a station shows offline, so a station that is running never does.
 */
const REREAD_MS = 4_000;

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;

/** Labels per hour today, as bars (plain SVG). */
function HourChart({ rows }: { rows: ConsoleSnapshotView['labelsPerHour'] }) {
  const now = new Date().getHours();
  const byHour = new Map<number, number>();
  for (const r of rows) byHour.set(r.hour, (byHour.get(r.hour) ?? 0) + r.labels);
  const first = Math.min(now, ...byHour.keys(), Math.max(0, now - 9));
  const hours = Array.from({ length: now - first + 1 }, (_, i) => first + i);
  const max = Math.max(1, ...hours.map((h) => byHour.get(h) ?? 0));
  const w = 44;
  const height = 160;
  return (
    <svg
      className="hour-chart"
      viewBox={`0 0 ${hours.length * w} ${height + 40}`}
      width={hours.length * w}
      height={height + 40}
      role="img"
      aria-label="Labels per hour today"
      data-testid="hour-chart"
    >
      {hours.map((h, i) => {
        const n = byHour.get(h) ?? 0;
        const bar = (n / max) * height;
        return (
          <g key={h} transform={`translate(${i * w}, 0)`}>
            <rect
              x={6}
              y={height - bar + 18}
              width={w - 12}
              height={bar}
              className={h === now ? 'bar now' : 'bar'}
            />
            <text x={w / 2} y={height - bar + 14} textAnchor="middle" className="bar-value">
              {n}
            </text>
            <text x={w / 2} y={height + 36} textAnchor="middle" className="bar-hour">
              {String(h).padStart(2, '0')}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function totals<K extends string>(
  rows: ConsoleSnapshotView['labelsPerHour'],
  key: (r: ConsoleSnapshotView['labelsPerHour'][number]) => K,
) {
  const hour = new Date().getHours();
  const out = new Map<K, { today: number; thisHour: number }>();
  for (const r of rows) {
    const t = out.get(key(r)) ?? { today: 0, thisHour: 0 };
    t.today += r.labels;
    if (r.hour === hour) t.thisHour += r.labels;
    out.set(key(r), t);
  }
  return [...out.entries()].sort((a, b) => b[1].today - a[1].today);
}

/** Labels this hour and today, one row per station or packer. */
function LabelTotals(props: {
  title: string;
  testId: string;
  who: string;
  rows: [string, { thisHour: number; today: number }][];
}) {
  return (
    <div className="panel">
      <h2>{props.title}</h2>
      <table className="table" data-testid={props.testId}>
        <thead>
          <tr>
            <th>{props.who}</th>
            <th className="num">This hour</th>
            <th className="num">Today</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map(([name, t]) => (
            <tr key={name}>
              <td>{name}</td>
              <td className="num">{t.thisHour}</td>
              <td className="num">{t.today}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The shift-lead console: the whole site on one screen, live. It reloads when a station
 * commits or its heartbeat changes (site-changed, the store's NOTIFY), and every few seconds
 * without one (REREAD_MS); between reloads it ages the heartbeats on its own clock. While the
 * store does not answer, the station hands over the site as it last read it (kept there, not
 * here, so a console first opened during an outage shows it too): marked as last read, aging
 * to offline.
 */
export function SiteConsole() {
  const [view, setView] = useState<ConsoleView | null>(null);
  // A console (npm run web -- --console) packs nothing: in an outage it is only "this station".
  const consoleOnly = useSession((s) => s.session?.consoleOnly === true);
  const [now, setNow] = useState(() => Date.now());
  /** The store's clock minus this page's, at the last read (null: not known yet). */
  const [skew, setSkew] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    let pending: ReturnType<typeof setTimeout> | null = null;
    // One read at a time: a change that arrives during a read asks for one more after it,
    // so an older answer never replaces a newer one.
    let reading = false;
    let again = false;
    let readAt = 0;
    const load = (): void => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      readAt = Date.now();
      void call('console.snapshot', {}).then((r) => {
        reading = false;
        if (!live) return;
        if (r.ok) {
          const { snapshot, readAt } = r.value;
          setView(r.value);
          setNow(Date.now());
          // A site read now sets the page's clock to the store's; one read earlier (the store
          // away) keeps the clock set before, or the store's against the station's then.
          if (snapshot && r.value.reachable) setSkew(Date.parse(snapshot.at) - Date.now());
          else if (snapshot && readAt)
            setSkew((known) => known ?? Date.parse(snapshot.at) - Date.parse(readAt));
        }
        if (again) {
          again = false;
          load();
        }
      });
    };
    // Several stations committing at once: one reload for the burst.
    const soon = () => {
      if (pending) return;
      pending = setTimeout(() => {
        pending = null;
        load();
      }, 50);
    };
    load();
    const off = getBridge().on('site-changed', soon);
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() - readAt >= REREAD_MS) load();
    }, AGE_TICK_MS);
    return () => {
      live = false;
      off();
      clearInterval(timer);
      if (pending) clearTimeout(pending);
    };
  }, []);
  if (!view) return <p className="placeholder">Loading the site…</p>;
  // The store away: the site as the station last read it, said to be that.
  const stale = !view.reachable && view.snapshot && view.readAt ? view.readAt : null;
  const snap = view.snapshot;
  const storeNow = now + (skew ?? 0);
  // This station is running (it serves this page), whatever the store last heard of it: in an
  // outage it is said as packing on its own (or, under the offline rule "refuse", as buying no
  // label until the store answers), never as offline.
  const me = view.thisStationId;
  const online = (s: { stationId: string; online: boolean; lastSeenAt: string }) =>
    s.stationId === me ||
    (s.online && storeNow - Date.parse(s.lastSeenAt) <= (snap?.onlineWithinMs ?? 0));
  // Retired stations too: their labels today still count, under their name.
  const names = new Map(Object.entries(snap?.stationNames ?? {}));
  return (
    <div className="site-console" data-testid="site-console">
      {view.note ? (
        <p className={view.noStore ? 'placeholder' : 'banner'} data-testid="console-note">
          {view.note}
          {stale
            ? ` Below: the site as last read at ${clockOrWhen(stale)}; it may have changed since.`
            : ''}
        </p>
      ) : null}
      {snap ? (
        <>
          <section className="console-stations">
            <h2>Stations</h2>
            <table className="table" data-testid="console-stations">
              <thead>
                <tr>
                  <th>Station</th>
                  <th>Last heartbeat</th>
                  <th>Version</th>
                  <th>Packing</th>
                  <th>Platform</th>
                  <th>Printer</th>
                  <th className="num">Queue</th>
                  <th className="num">Print jobs</th>
                  <th className="num">Attention</th>
                  <th className="num">To sync</th>
                </tr>
              </thead>
              <tbody>
                {snap.stations.map((s) => (
                  <tr key={s.stationId} className={online(s) ? '' : 'offline'}>
                    <td>
                      <span className={online(s) ? 'dot ok' : 'dot bad'} /> <b>{s.stationName}</b>{' '}
                      {s.stationId === me ? (
                        <span className="muted">
                          {stale && !consoleOnly
                            ? `(this station, ${view.thisStationAway ?? 'packing on its own'}) `
                            : '(this station) '}
                        </span>
                      ) : null}
                      {online(s) ? (
                        ''
                      ) : (
                        // The store cannot tell a station turned off from one it refuses: the
                        // station's own header says which.
                        <span
                          className="warn"
                          title="Not heard from: turned off, cut off from the network, or its site login refused (that station's header says which)"
                        >
                          offline
                        </span>
                      )}
                    </td>
                    <td>{ago(s.lastSeenAt, storeNow)}</td>
                    <td>{s.appVersion ?? '—'}</td>
                    <td>
                      {s.signedInUser === null ? (
                        '—'
                      ) : online(s) ? (
                        s.signedInUser
                      ) : (
                        // Its station stopped telling: who was packing then, not now.
                        <span className="muted">{s.signedInUser} (last known)</span>
                      )}
                    </td>
                    <PlatformCell station={s} online={online(s)} now={storeNow} />
                    <PrintersCell station={s} online={online(s)} now={storeNow} />
                    <td className="num">{s.queuedShipments}</td>
                    <td className="num">{s.queuedPrintJobs}</td>
                    <td className={s.needsAttention ? 'num warn' : 'num'}>{s.needsAttention}</td>
                    <td className="num">{s.outboxDepth}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section className="console-grid">
            <div className="panel">
              <h2>Labels per hour today</h2>
              <HourChart rows={snap.labelsPerHour} />
            </div>
            <div className="panel">
              <h2>Needs attention (site)</h2>
              {view.attention.length === 0 ? (
                <p className="placeholder" data-testid="console-attention-none">
                  {siteAttentionNone(snap.stations, me)}
                </p>
              ) : (
                <ul className="console-attention" data-testid="console-attention">
                  {view.attention.map((a) => (
                    <li key={a.id}>
                      {a.message} <span className="muted">{ago(a.since, storeNow)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <LabelTotals
              title="Labels today by station"
              testId="console-by-station"
              who="Station"
              rows={totals(snap.labelsPerHour, (r) => r.stationId).map(([id, t]) => [
                names.get(id) ?? id,
                t,
              ])}
            />
            <LabelTotals
              title="Labels today by packer"
              testId="console-by-packer"
              who="Packer"
              rows={totals(snap.labelsPerHour, (r) => r.packer || '(not signed in)')}
            />
            <div className="panel">
              <h2>Cost today</h2>
              <table className="table" data-testid="console-cost">
                <thead>
                  <tr>
                    <th>Brand</th>
                    <th>Carrier</th>
                    <th className="num">Labels</th>
                    <th className="num">Cost</th>
                  </tr>
                </thead>
                <tbody>
                  {snap.costToday.map((c) => (
                    <tr key={`${c.tenantId}:${c.carrier}:${c.currency}`}>
                      <td>{view.brands[c.tenantId] ?? c.tenantId}</td>
                      <td>{c.carrier}</td>
                      <td className="num">{c.labels}</td>
                      <td className="num">{money(c.cents, c.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <VoidedToday rows={snap.costToday} />
            </div>
            <div className="panel">
              <h2>Tracking</h2>
              {snap.trackerPolling.length === 0 ? (
                <p className="placeholder">No station has polled the trackers yet.</p>
              ) : (
                <ul className="console-polling" data-testid="console-polling">
                  {snap.trackerPolling.map((t) => (
                    <li key={t.tenantId}>
                      {view.brands[t.tenantId] ?? t.tenantId}: polled by{' '}
                      <b>{t.stationId ? (names.get(t.stationId) ?? t.stationId) : 'no station'}</b>
                      {t.lastPollAt ? (
                        <span className="muted">, last asked {ago(t.lastPollAt, storeNow)}</span>
                      ) : null}
                      {t.lastError ? <span className="warn"> — {t.lastError}</span> : null}
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <div className="panel">
              <h2>Carrier connections not AUTHORIZED</h2>
              {snap.carriersNotAuthorized.length === 0 ? (
                <p className="placeholder">Every carrier connection is authorized.</p>
              ) : (
                <table className="table" data-testid="console-carriers">
                  <tbody>
                    {snap.carriersNotAuthorized.map((c) => (
                      <tr key={`${c.tenantId}:${c.carrierAccountId}`}>
                        <td>{view.brands[c.tenantId] ?? c.tenantId}</td>
                        <td>{c.carrier}</td>
                        <td className="warn">{c.authorizationStatus}</td>
                        <td className="muted">seen by {names.get(c.stationId) ?? c.stationId}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </div>
          </section>
        </>
      ) : null}
    </div>
  );
}
