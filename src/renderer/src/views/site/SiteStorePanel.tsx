import { useEffect, useState } from 'react';
import { call } from '../../bridge';
import { useStation } from '../../store';
import type { SiteStatusView } from '../../../../shared/views';

function age(ms: number): string {
  if (ms <= 0) return 'none';
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.floor(ms / 60_000)} min`;
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
  const [site, setSite] = useState<SiteStatusView | null>(null);
  const [editing, setEditing] = useState(false);
  const [url, setUrl] = useState('');
  const [stationId, setStationId] = useState('');
  const [stationName, setStationName] = useState('');
  const [password, setPassword] = useState('');

  useEffect(() => {
    let live = true;
    const poll = () =>
      void call('site.status', {}).then((r) => {
        if (live && r.ok) setSite(r.value);
      });
    poll();
    const timer = setInterval(poll, 5000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);

  async function save() {
    const r = await call('site.configure', {
      siteStore: { url, stationId, stationName },
      ...(password ? { password } : {}),
    });
    setPassword('');
    if (!r.ok) return notify('error', r.error.message);
    setSite(r.value);
    setEditing(false);
    notify('ok', 'Site store saved.');
    await refreshStatus();
  }

  return (
    <div className="panel" data-testid="site-store-panel">
      <h2>Site store</h2>
      {site?.configured ? (
        <>
          <p>
            {site.where} as <b>{site.stationName}</b> ({site.stationId}) · password{' '}
            {site.hasPassword ? 'stored' : 'missing'} · offline purchases{' '}
            {site.offlinePurchase === 'allow' ? 'allowed' : 'refused'}
          </p>
          <p data-testid="site-store-state">
            {site.header?.text ?? 'not connected'}
            {site.lastSyncedAt
              ? ` · last synced ${new Date(site.lastSyncedAt).toLocaleString()}`
              : ''}
          </p>
          {site.header?.problem ? (
            <p className="error" role="alert" data-testid="site-store-problem">
              {site.header.problem}
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
                    </td>
                    <td className="num">{s.depth}</td>
                    <td>{age(s.lagMs)}</td>
                    <td className="num">{s.queuedShipments}</td>
                    <td className="num">{s.queuedPrintJobs}</td>
                    <td className="num">{s.needsAttention}</td>
                    <td>{new Date(s.lastSeenAt).toLocaleString()}</td>
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
          className="stack"
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
            label="Password (kept in the keychain)"
            type="password"
            value={password}
            onChange={setPassword}
          />
          <div className="row">
            <button type="submit">Save site store</button>
            <button type="button" onClick={() => setEditing(false)}>
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
