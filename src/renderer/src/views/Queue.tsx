import { useEffect, useState } from 'react';
import { ConfirmPanel } from '../components/ConfirmPanel';
import { useStation } from '../store';
import { printerAddress } from '../../../shared/printers';
import type {
  PrintJobState,
  PrintJobView,
  QueuedShipmentState,
  QueuedShipmentView,
} from '../../../shared/views';
import { clockOrWhen } from '../lib/when';

/** A queued shipment's state in the shift lead's words. */
const shipmentStateWords: Record<QueuedShipmentState, string> = {
  waiting: 'waiting for the platform',
  failed: 'failed: nothing bought',
  'needs-attention': 'outcome unknown: see Needs attention',
};

/** A print job's state in the shift lead's words. */
const stateWords: Record<PrintJobState, string> = {
  queued: 'queued',
  sending: 'sending',
  printed: 'printed',
  failed: 'failed',
  unknown: 'may have printed',
  cancelled: 'cancelled',
};

export function QueueView() {
  const queue = useStation((s) => s.queue);
  const load = useStation((s) => s.loadQueue);
  const act = useStation((s) => s.queueAction);
  const move = useStation((s) => s.moveJob);
  // "It printed" is Needs attention's own decision on the same job (print:<id>), kept there too.
  const resolve = useStation((s) => s.resolveAttention);
  const go = useStation((s) => s.go);
  const printers = useStation((s) => s.status?.profile?.printers ?? []);
  // The role a job's printer must have: a test page keeps its printer's role.
  const roleOf = (j: PrintJobView) =>
    j.kind === 'slip'
      ? 'receipt'
      : j.kind === 'test'
        ? (printers.find((p) => p.id === j.printerId)?.role ?? 'label')
        : 'label';
  // Where a job may be moved: a label to label printers only, a slip to receipt printers.
  const targets = (j: PrintJobView) =>
    printers.filter((p) => p.id !== j.printerId && p.role === roleOf(j));
  // Asked once; then the station's queue-changed events carry the queue as it is (App.tsx).
  useEffect(() => void load(), [load]);
  // A cancel is asked in the page first: a click in passing must not drop an order's purchase
  // or a label's print.
  const [confirming, setConfirming] = useState<{
    kind: 'shipment' | 'print-job';
    id: string;
    what: string;
    /** A failed shipment: nothing is waiting to be bought, its entry only leaves the Queue. */
    failed?: boolean;
  } | null>(null);
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
            <tr key={q.id} className={q.state}>
              <td className="nowrap">{q.orderNumber}</td>
              <td>{shipmentStateWords[q.state]}</td>
              <td className="num">{q.attempts}</td>
              <td>{q.lastError ?? ''}</td>
              <td>{clockOrWhen(q.createdAt)}</td>
              <td className="actions">{shipmentActions(q)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {queue.shipments.length === 0 ? (
        <p className="muted" data-testid="queued-shipments-empty">
          None: every shipment reached the platform. An order packed while it does not answer waits
          here, and is bought when it answers again.
        </p>
      ) : null}
      {confirming?.kind === 'shipment' ? cancelPanel() : null}
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
              <td>{stateWords[j.state]}</td>
              <td className="num">{j.attempts}</td>
              <td>{j.lastError ?? ''}</td>
              <td className="actions">
                {j.state === 'unknown' ? (
                  // It may be on the box already: the person at the printer says which, and
                  // sending it again says what it risks.
                  <>
                    <button onClick={() => void resolve(`print:${j.id}`, 'mark-printed')}>
                      It printed: mark it printed
                    </button>
                    <button onClick={() => void act('retry', 'print-job', j.id)}>
                      It did not print: send it again
                    </button>
                  </>
                ) : (
                  <button onClick={() => void act('retry', 'print-job', j.id)}>Retry</button>
                )}
                <button
                  onClick={() =>
                    setConfirming({ kind: 'print-job', id: j.id, what: j.description })
                  }
                >
                  Cancel
                </button>
                {targets(j).length ? (
                  <select
                    aria-label="Move to printer"
                    value=""
                    onChange={(e) => e.target.value && void move(j.id, e.target.value)}
                  >
                    <option value="">Move to…</option>
                    {targets(j).map((p) => (
                      <option key={p.id} value={p.id}>
                        {/* By address too: two printers may share a name (one moved). */}
                        {p.name} ({printerAddress(p)})
                      </option>
                    ))}
                  </select>
                ) : printers.length > 1 ? (
                  <span className="muted">
                    no other {roleOf(j) === 'label' ? 'label' : 'receipt'} printer
                  </span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {queue.printJobs.length === 0 ? (
        <p className="muted" data-testid="print-jobs-empty">
          None waiting: every label went to its printer. A job waits here while its printer is away,
          out of paper or paused.
        </p>
      ) : null}
      {confirming?.kind === 'print-job' ? cancelPanel() : null}
    </section>
  );

  /**
   * Retry now and Cancel only where they can act: a shipment the queue bought without hearing
   * back may have its label, so it is decided under Needs attention (looked up, released, or
   * bought again there), never sent again or released from here.
   */
  function shipmentActions(q: QueuedShipmentView) {
    switch (q.state) {
      case 'needs-attention':
        return <button onClick={() => go('attention')}>Decide in Needs attention (Alt+2)</button>;
      case 'waiting':
      case 'failed':
        return (
          <>
            <button onClick={() => void act('retry', 'shipment', q.id)}>Retry now</button>
            <button
              onClick={() =>
                setConfirming({
                  kind: 'shipment',
                  id: q.id,
                  what: `order ${q.orderNumber}`,
                  failed: q.state === 'failed',
                })
              }
            >
              Cancel
            </button>
          </>
        );
      default: {
        const never: never = q.state;
        return String(never);
      }
    }
  }

  function cancelPanel() {
    if (!confirming) return null;
    const { kind, id, what, failed } = confirming;
    return (
      <ConfirmPanel
        label={`Confirm cancelling ${what}`}
        question={
          kind === 'print-job'
            ? `Cancel the print job "${what}"? This copy will not print; the label stays in History to reprint.`
            : failed
              ? `Take the failed purchase for ${what} off the queue? Nothing was bought for it; the order stays open, to pack again from Pack. If the customer cancelled the order, cancel the order itself in Orders (Alt+8, Cancelled in the store?).`
              : `Cancel the queued purchase for ${what}? Nothing is bought for it when the platform answers; the order stays open, to pack again from Pack (a batch of open orders would buy it). If the customer cancelled the order, cancel the order itself in Orders (Alt+8, Cancelled in the store?).`
        }
        confirmText={kind === 'shipment' ? 'Cancel the purchase' : 'Cancel the print job'}
        onConfirm={() => {
          setConfirming(null);
          void act('cancel', kind, id);
        }}
        onCancel={() => setConfirming(null)}
      />
    );
  }
}
