import { useEffect } from 'react';
import { useStation } from '../store';

export function CarriersView() {
  const carriers = useStation((s) => s.carriers);
  const load = useStation((s) => s.loadCarriers);
  useEffect(() => void load(true), [load]);
  return (
    <section className="list-view">
      <h1>
        Carrier accounts <button onClick={() => void load(true)}>Refresh</button>
      </h1>
      <table className="grid" data-testid="carrier-accounts">
        <thead>
          <tr>
            <th>Account</th>
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
