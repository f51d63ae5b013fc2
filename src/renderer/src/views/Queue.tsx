import { useEffect } from 'react';
import { useStation } from '../store';

export function QueueView() {
  const queue = useStation((s) => s.queue);
  const load = useStation((s) => s.loadQueue);
  const act = useStation((s) => s.queueAction);
  const move = useStation((s) => s.moveJob);
  const printers = useStation((s) => s.status?.profile?.printers ?? []);
  // Asked once; then the station's queue-changed events carry the queue as it is (App.tsx).
  useEffect(() => void load(), [load]);
  return (
    <section className="list-view">
      <h1>Queue</h1>
      <h2>Shipments waiting for the platform ({queue.shipments.length})</h2>
      <table className="grid" data-testid="queued-shipments">
        <thead>
          <tr>
            <th>Order</th>
            <th>State</th>
            <th className="num">Attempts</th>
            <th>Last error</th>
            <th>Queued</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {queue.shipments.map((q) => (
            <tr key={q.id}>
              <td>{q.orderNumber}</td>
              <td>{q.state}</td>
              <td className="num">{q.attempts}</td>
              <td>{q.lastError ?? ''}</td>
              <td>{new Date(q.createdAt).toLocaleTimeString()}</td>
              <td className="actions">
                <button onClick={() => void act('retry', 'shipment', q.id)}>Retry now</button>
                <button onClick={() => void act('cancel', 'shipment', q.id)}>Cancel</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Print jobs ({queue.printJobs.length})</h2>
      <table className="grid" data-testid="print-jobs">
        <thead>
          <tr>
            <th>Job</th>
            <th>Printer</th>
            <th>State</th>
            <th className="num">Attempts</th>
            <th>Last error</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {queue.printJobs.map((j) => (
            <tr key={j.id} className={j.state}>
              <td>{j.description}</td>
              <td>{j.printerName}</td>
              <td>{j.state}</td>
              <td className="num">{j.attempts}</td>
              <td>{j.lastError ?? ''}</td>
              <td className="actions">
                <button onClick={() => void act('retry', 'print-job', j.id)}>Retry</button>
                <button onClick={() => void act('cancel', 'print-job', j.id)}>Cancel</button>
                {printers.length > 1 ? (
                  <select
                    aria-label="Move to printer"
                    value=""
                    onChange={(e) => e.target.value && void move(j.id, e.target.value)}
                  >
                    <option value="">Move to…</option>
                    {printers
                      .filter((p) => p.id !== j.printerId)
                      .map((p) => (
                        <option key={p.id} value={p.id}>
                          {p.name}
                        </option>
                      ))}
                  </select>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
