import { useEffect, useState, type ReactNode } from 'react';
import { useStation } from '../store';
import { printerStateWords as printerWords } from '../../../shared/printers';
import type { StationStatus } from '../../../shared/views';
import './header-extras.css';
import './header-name.css';
import './compact.css';
import { SessionBadge } from './site/SignIn';
import { clockOrWhen } from '../lib/when';

const LARGE_TEXT_KEY = 'station.largeText';

/** Large text for a station read from a metre away: Alt+L or the Aa button; kept per computer. */
function useLargeText(): [boolean, () => void] {
  const [on, setOn] = useState(() => localStorage.getItem(LARGE_TEXT_KEY) === '1');
  useEffect(() => {
    document.documentElement.classList.toggle('large-text', on);
    localStorage.setItem(LARGE_TEXT_KEY, on ? '1' : '0');
  }, [on]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && !e.ctrlKey && (e.key === 'l' || e.code === 'KeyL')) {
        e.preventDefault();
        setOn((v) => !v);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return [on, () => setOn((v) => !v)];
}

/** Packing's requests that fail at a platform that answers others: which ones, in words. */
const FAILING_WORDS: Partial<Record<NonNullable<StationStatus['connectivity']>, string>> = {
  'rates-failing': 'rates failing',
  'labels-failing': 'labels failing',
  'token-failing': 'token requests failing',
};

const envBadge = {
  'embedded-sandbox': { text: 'SANDBOX · DEMO', cls: 'badge sandbox' },
  sandbox: { text: 'SANDBOX', cls: 'badge sandbox' },
  production: { text: 'PRODUCTION', cls: 'badge production' },
} as const;

export function Header() {
  const status = useStation((s) => s.status);
  const hostConnected = useStation((s) => s.hostConnected);
  const go = useStation((s) => s.go);
  const profile = status?.profile ?? null;
  const badge = profile ? envBadge[profile.environment] : null;
  const printer = status?.printer ?? null;
  const [largeText, toggleLargeText] = useLargeText();
  return (
    <>
      <header className="header">
        <div className="who">
          <strong data-testid="profile-name" title={profile?.name}>
            {profile ? profile.name : 'No profile'}
          </strong>
          <span className="muted">
            {profile
              ? (profile.siteName ?? profile.shippingSiteId ?? 'no site')
              : 'set one up in Settings'}
          </span>
        </div>
        <SessionBadge />
        {badge ? (
          <span className={badge.cls} data-testid="environment-badge">
            {badge.text}
          </span>
        ) : null}
        <button
          className="text-size"
          aria-pressed={largeText}
          aria-label="Large text"
          title="Large text, readable from a metre away (Alt+L)"
          data-testid="large-text"
          onClick={toggleLargeText}
        >
          Aa
        </button>
        <div className="indicators">
          <Indicator
            label={hostConnected ? 'Platform' : 'Station'}
            testId="connectivity"
            state={
              !hostConnected
                ? 'bad'
                : status?.connectivity === 'online'
                  ? 'ok'
                  : status?.connectivity === 'offline' ||
                      status?.connectivity === 'refused' ||
                      status?.connectivity === 'no-secret' ||
                      status?.connectivity?.endsWith('-failing')
                    ? 'bad'
                    : status?.connectivity === 'failing'
                      ? 'warn'
                      : 'unknown'
            }
            text={
              !hostConnected
                ? 'station host lost, reconnecting…'
                : status?.connectivity === 'refused'
                  ? 'API key refused'
                  : status?.connectivity === 'no-secret'
                    ? 'no client secret'
                    : status?.connectivity === 'failing'
                      ? 'not answering'
                      : status?.connectivity
                        ? (FAILING_WORDS[status.connectivity] ?? status.connectivity)
                        : '…'
            }
            title={status?.connectivityDetail ?? undefined}
          />
          {status?.trackingDelayed ? (
            <Indicator
              label="Tracking"
              testId="tracking-delayed"
              state="warn"
              text="delayed"
              title={status.trackingDelayed}
            />
          ) : null}
          <Indicator
            label="Printer"
            testId="printer-status"
            title={printer?.message}
            state={!printer ? 'unknown' : printer.state === 'ready' ? 'ok' : 'bad'}
            text={
              printer ? (
                // The name gives way ("…", whole in the tooltip); the state never does.
                <>
                  <span
                    className="printer-name"
                    style={{ '--name-chars': printer.name.length } as React.CSSProperties}
                  >
                    {printer.name}
                  </span>
                  <span className="printer-state" data-testid="printer-state">
                    {printer.state === 'ready'
                      ? printer.slowMs
                        ? ' ready, slow to answer'
                        : ' ready'
                      : `: ${printerWords[printer.state]}`}
                  </span>
                </>
              ) : (
                'none'
              )
            }
          />
          {status?.site ? (
            <Indicator
              label="Site"
              testId="site-status"
              state={
                status.site.state === 'unreachable'
                  ? 'bad'
                  : status.site.state === 'synced'
                    ? 'ok'
                    : 'unknown'
              }
              text={status.site.text.replace(/^Site: /, '')}
              title={status.site.problem ?? undefined}
            />
          ) : null}
          <button className="counter" onClick={() => go('queue')} data-testid="queue-count">
            Queue <b>{(status?.queue.shipments ?? 0) + (status?.queue.printJobs ?? 0)}</b>
          </button>
          <button
            className={status?.needsAttention ? 'counter alert' : 'counter'}
            onClick={() => go('attention')}
            data-testid="attention-count"
            title={status ? attentionTitle(status) : undefined}
          >
            Needs attention{' '}
            <b>
              {status?.needsAttention ?? 0}
              {status?.siteAttention && !status.siteAttention.current ? '?' : ''}
            </b>
          </button>
        </div>
      </header>
      {status?.expiredAccounts.length ? (
        <div className="banner" role="alert" data-testid="expired-banner">
          {status.expiredAccounts.every((a) => a.status === 'EXPIRED')
            ? 'Carrier connection EXPIRED: '
            : 'Carrier connection not working: '}
          {status.expiredAccounts
            .map(
              (a) => `${a.name} (${a.carrier})${a.status === 'EXPIRED' ? '' : ` is ${a.status}`}`,
            )
            .join(', ')}
          . Rates from
          {status.expiredAccounts.length > 1 ? ' these accounts' : ' this account'} will stop until
          the owner re-authorizes; tell the shift lead.{' '}
          <button className="link" onClick={() => go('carriers')}>
            Carrier accounts (Alt+6)
          </button>
        </div>
      ) : null}
    </>
  );
}

/**
 * What the Needs attention count is made of. With a site store it holds the site's open items
 * (possible double labels, unknown purchases at other stations); while the store is not
 * reachable the "?" and this say that the site's part is the last one read, or not counted.
 */
function attentionTitle(status: StationStatus): string | undefined {
  const site = status.siteAttention;
  if (!site) return undefined;
  const own = `${status.needsAttention - site.count} at this station`;
  const what = 'possible double labels, unknown purchases at other stations';
  if (site.current) return `${own}, ${site.count} site-wide (${what})`;
  const why =
    status.site?.state === 'unreachable'
      ? 'the site store is not reachable'
      : 'the site store has not answered yet';
  if (site.readAt)
    return `${own} and ${site.count} site-wide as last read at ${clockOrWhen(site.readAt)}: ${why} now, so the site's items (${what}) may have changed since.`;
  return `${own}. The site's items (${what}) are not counted: ${why}.`;
}

function Indicator(props: {
  label: string;
  state: 'ok' | 'bad' | 'warn' | 'unknown';
  text: ReactNode;
  testId: string;
  title?: string | undefined;
}) {
  return (
    <span className={`indicator ${props.state}`} data-testid={props.testId} title={props.title}>
      <span className="dot" aria-hidden="true" />
      <span className="label-text">
        {props.label}: {props.text}
      </span>
    </span>
  );
}
