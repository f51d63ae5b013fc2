import { useEffect } from 'react';
import { useStation } from '../store';

/**
 * Every carrier account the profile ships with: a 3PL's own and each brand's, with the state of
 * its connection. Follows the station's own re-reads (carriers-changed, handled in App: an expiry
 * during the shift shows here).
 */
export function CarriersView() {
  const carriers = useStation((s) => s.carriers);
  const load = useStation((s) => s.loadCarriers);
  const profile = useStation((s) => s.status?.profile ?? null);
  useEffect(() => void load(true), [load]);
  const tenants = new Set(carriers.map((c) => c.tenantId));
  const whose = (tenantId: string) =>
    profile?.brands.find((b) => b.tenantId === tenantId)?.name ??
    (tenantId === profile?.tenantId ? (profile.tenantName ?? profile.name) : tenantId);
  return (
    <section className="list-view">
      <h1>
        Carrier accounts <button onClick={() => void load(true)}>Refresh</button>
      </h1>
      <table className="grid" data-testid="carrier-accounts">
        <thead>
          <tr>
            <th>Account</th>
            {tenants.size > 1 ? <th>For</th> : null}
            <th>Carrier</th>
            <th>Ownership</th>
            <th>Connection</th>
            <th>Service levels</th>
          </tr>
        </thead>
        <tbody>
          {carriers.map((c) => (
            <tr key={c.id} className={c.status}>
              <td>
                {c.name}
                {!c.isActive ? <span className="chip">inactive</span> : null}
              </td>
              {tenants.size > 1 ? <td>{whose(c.tenantId)}</td> : null}
              <td>{c.carrier}</td>
              <td>{c.ownershipType}</td>
              <td>
                <span className={`conn ${c.status}`}>{c.status}</span>
                {c.status === 'PENDING' && c.oauthUrl ? (
                  <>
                    {' '}
                    <a href={c.oauthUrl} target="_blank" rel="noreferrer">
                      Open the authorization page
                    </a>
                  </>
                ) : null}
                {c.status === 'EXPIRED' ? (
                  <span className="warn"> rates stop until the owner re-authorizes</span>
                ) : c.status === 'ERROR' ? (
                  <span className="warn">
                    {' '}
                    the carrier reported an error with this connection: no rates until the owner
                    connects it again
                  </span>
                ) : c.status === 'UNAUTHORIZED' ? (
                  <span className="warn">
                    {' '}
                    the carrier withdrew the authorization: no rates until the owner authorizes it
                    again
                  </span>
                ) : c.status === 'PENDING' && !c.oauthUrl ? (
                  <span className="muted"> not authorized yet: no rates from it</span>
                ) : null}
              </td>
              <td className="small">{c.serviceLevels.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
