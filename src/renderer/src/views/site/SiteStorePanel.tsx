import { useEffect, useState } from 'react';
import { call, getBridge } from '../../bridge';
import { useStation } from '../../store';
import { clockOrWhen, when } from '../../lib/when';
import type { SiteStatusView } from '../../../../shared/views';
import './site-store.css';

/**
 * How far behind a station is, as a time: the oldest change it has not sent yet was made then.
 * A time stays right on screen without the page asking again (a "12 s" would go stale).
 */
function behindSince(lagMs: number, askedAt: number): string {
  if (lagMs <= 0) return 'none';
  return `since ${clockOrWhen(askedAt - lagMs)}`;
}

function Field(props: {
  label: string;
  value: string;
  placeholder?: string;
  type?: 'password';
  onChange(value: string): void;
}) {
  return (
    <label>
      {props.label}
      <input
        type={props.type}
        value={props.value}
        placeholder={props.placeholder}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}

/**
 * Settings → Site store: where it is, who this station is on the site, how far behind each
 * station is, and what is wrong in words. The password goes to the keychain and never comes back.
 */
export function SiteStorePanel() {
  const notify = useStation((s) => s.notify);
  const refreshStatus = useStation((s) => s.refreshStatus);
  const [site, setSite] = useState<(SiteStatusView & { at: number }) | null>(null);
  const [editing, setEditing] = useState(false);
  const [url, setUrl] = useState('');
  const [stationId, setStationId] = useState('');
  const [stationName, setStationName] = useState('');
  const [password, setPassword] = useState('');

  // Asked when something on the site moved, never on a timer: another station committed
  // (site-changed), this station's link changed state (the header's site line), or the page's
  // connection to the host came back (events may have been missed meanwhile).
  const siteLine = useStation((s) => JSON.stringify(s.status?.site ?? null));
  const hostConnected = useStation((s) => s.hostConnected);
  // Where a typed password goes on this host ("held in memory for this run only" on the web
  // host without a keychain), said on the field itself.
  const secretStorage = useStation((s) => s.status?.secretStorage ?? null);
  const [asked, setAsked] = useState(0);
  useEffect(() => getBridge().on('site-changed', () => setAsked((n) => n + 1)), []);
  useEffect(() => {
    let live = true;
    const at = Date.now();
    void call('site.status', {}).then((r) => {
      if (live && r.ok) setSite({ ...r.value, at });
    });
    return () => {
      live = false;
    };
  }, [siteLine, hostConnected, asked]);

  async function save() {
    const r = await call('site.configure', {
      siteStore: { url, stationId, stationName },
      ...(password ? { password } : {}),
    });
    // Kept while the form is open and refused (a shift lead's badge asked for, a typo in the
    // address): Save again sends it without typing it twice. Gone once saved or cancelled.
    if (!r.ok) return notify('error', r.error.message);
    setPassword('');
    setSite({ ...r.value, at: Date.now() });
    setEditing(false);
    // Saved, but the store could not be read: said now, so a typo in the host or port is seen
    // while the form is still in mind, not later in the header.
    if (r.value.saveWarning) notify('error', `Site store saved, but: ${r.value.saveWarning}`);
    else notify('ok', 'Site store saved.');
    await refreshStatus();
  }

  return (
    <div className="panel site-store-panel" data-testid="site-store-panel">
      <h2>Site store</h2>
      {site?.configured ? (
        <>
          <p>
            {site.where} as <b>{site.stationName}</b> ({site.stationId}) · password{' '}
            <span data-testid="site-password-from">
              {site.hasPassword
                ? site.passwordFrom
                  ? site.passwordFrom.startsWith('from ')
                    ? site.passwordFrom
                    : `stored, ${site.passwordFrom}`
                  : 'stored'
                : 'missing'}
            </span>{' '}
            · offline purchases {site.offlinePurchase === 'allow' ? 'allowed' : 'refused'}
          </p>
          <p data-testid="site-store-state">
            {site.header?.text ?? 'not connected'}
            {site.lastSyncedAt ? ` · last change sent ${clockOrWhen(site.lastSyncedAt)}` : ''}
          </p>
          {site.header?.problem ? (
            <p className="error" role="alert" data-testid="site-store-problem">
              {site.header.problem}
            </p>
          ) : null}
          {site.schemaNote ? (
            <p className="warn" data-testid="site-schema-note">
              {site.schemaNote}
            </p>
          ) : null}
          {site.profileNote ? (
            <p className="warn" data-testid="site-profile-note">
              {site.profileNote}
            </p>
          ) : null}
          {site.stations.length ? (
            <table className="grid">
              <thead>
                <tr>
                  <th>Station</th>
                  <th className="num">Waiting</th>
                  <th>Lag</th>
                  <th className="num">Queued</th>
                  <th className="num">Print jobs</th>
                  <th className="num">Attention</th>
                  <th>Last seen</th>
                </tr>
              </thead>
              <tbody>
                {site.stations.map((s) => (
                  <tr key={s.stationId}>
                    <td>
                      {s.stationName} ({s.stationId})
                      {s.otherProfile ? (
                        <span className="warn" title="Another profile: see the note above">
                          {' '}
                          · profile {s.otherProfile}
                        </span>
                      ) : null}
                    </td>
                    <td className="num">{s.depth}</td>
                    <td>{behindSince(s.lagMs, site.at)}</td>
                    <td className="num">{s.queuedShipments}</td>
                    <td className="num">{s.queuedPrintJobs}</td>
                    <td className="num">{s.needsAttention}</td>
                    <td>{when(s.lastSeenAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </>
      ) : (
        <p className="muted">
          This station works on its own. A site store (PostgreSQL) shares history, claims and needs
          attention with every station of the site.
        </p>
      )}
      {editing ? (
        <form
          className="site-store-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <Field
            label="Database address"
            value={url}
            placeholder="postgres://shipping_station@db.site.local:5432/shipping_site"
            onChange={setUrl}
          />
          <Field
            label="Station id"
            value={stationId}
            placeholder="chi-04"
            onChange={setStationId}
          />
          <Field
            label="Station name"
            value={stationName}
            placeholder="Station 4"
            onChange={setStationName}
          />
          <Field
            label={`Password (${secretStorage ?? 'kept in the keychain'})`}
            type="password"
            value={password}
            onChange={setPassword}
          />
          {site?.passwordFrom?.startsWith('from ') ? (
            // Provisioned: the station reads its password from an environment variable, which
            // nothing typed here changes.
            <p className="muted hint" data-testid="site-password-env">
              This station's password now comes {site.passwordFrom}.{' '}
              {secretStorage?.includes('memory')
                ? 'One typed here is used until the station restarts, when the variable is read again: change the variable too (site IT).'
                : `One typed here is kept ${secretStorage ?? 'in the keychain'} and used instead of the variable from then on.`}
            </p>
          ) : null}
          <div className="row">
            <button type="submit">Save site store</button>
            <button
              type="button"
              onClick={() => {
                setPassword('');
                setEditing(false);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button
          onClick={() => {
            setUrl(site?.where ? `postgres://${site.where}` : '');
            setStationId(site?.stationId ?? '');
            setStationName(site?.stationName ?? '');
            setEditing(true);
          }}
        >
          {site?.configured ? 'Change site store…' : 'Connect to a site store…'}
        </button>
      )}
    </div>
  );
}
