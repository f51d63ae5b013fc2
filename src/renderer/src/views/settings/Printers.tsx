import { useState } from 'react';
import { call } from '../../bridge';
import { useStation } from '../../store';
import type { DiscoveredPrinter, PrinterConfig } from '../../../../shared/views';

export function PrintersPanel() {
  const profile = useStation((s) => s.status?.profile ?? null);
  const notify = useStation((s) => s.notify);
  const refreshStatus = useStation((s) => s.refreshStatus);
  const [found, setFound] = useState<DiscoveredPrinter[] | null>(null);
  if (!profile) return null;

  async function save(printers: PrinterConfig[], defaultPrinterId = profile!.defaultPrinterId) {
    const r = await call('profiles.update', { id: profile!.id, printers, defaultPrinterId });
    if (!r.ok) notify('error', r.error.message);
    await refreshStatus();
  }
  async function discover() {
    setFound(null);
    const r = await call('printers.discover', {});
    if (r.ok) setFound(r.value);
    else notify('error', r.error.message);
  }
  async function testPrint(printerId: string) {
    const r = await call('printers.testPrint', { printerId });
    notify(
      r.ok ? 'ok' : 'error',
      r.ok ? `Test label sent to ${r.value.printerName}.` : r.error.message,
    );
  }

  return (
    <>
      <h2>Printers</h2>
      <table className="grid" data-testid="printers">
        <tbody>
          {profile.printers.map((p) => (
            <tr key={p.id}>
              <td>
                <b>{p.name}</b>
                <div className="muted small">
                  {p.kind} · {p.address}
                </div>
              </td>
              <td>
                <select
                  aria-label={`DPI of ${p.name}`}
                  value={p.dpi}
                  onChange={(e) =>
                    void save(
                      profile.printers.map((x) =>
                        x.id === p.id
                          ? { ...x, dpi: Number(e.target.value) as PrinterConfig['dpi'] }
                          : x,
                      ),
                    )
                  }
                >
                  <option value={203}>203 dpi</option>
                  <option value={300}>300 dpi</option>
                  <option value={600}>600 dpi</option>
                </select>
              </td>
              <td className="actions">
                {profile.defaultPrinterId === p.id ? (
                  <span className="chip on">labels</span>
                ) : (
                  <button onClick={() => void save(profile.printers, p.id)}>Use for labels</button>
                )}
                <button onClick={() => void testPrint(p.id)}>Test print</button>
                <button onClick={() => void save(profile.printers.filter((x) => x.id !== p.id))}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button onClick={() => void discover()}>Discover printers</button>
      {found ? (
        <ul className="found">
          {found.length === 0 ? <li className="muted">No printers found.</li> : null}
          {found.map((d) => (
            <li key={`${d.kind}:${d.address}`}>
              {d.name}{' '}
              <span className="muted">
                ({d.kind} {d.address})
              </span>{' '}
              {profile.printers.some((p) => p.kind === d.kind && p.address === d.address) ? (
                <span className="chip on">set up</span>
              ) : (
                <button
                  onClick={() =>
                    void save([
                      ...profile.printers,
                      {
                        id: `${d.kind}-${d.address}`.replace(/[^a-zA-Z0-9_.-]/g, '-'),
                        name: d.name,
                        kind: d.kind,
                        address: d.address,
                        dpi: d.dpi ?? 203,
                      },
                    ])
                  }
                >
                  Add
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
