import type { BatchView } from '../../../shared/views';
import { useStation } from '../store';

/** A batch's progress, counts, printing and failures, with Pause, Resume and Stop. */
export function BatchPanel({ batch }: { batch: BatchView }) {
  const control = useStation((s) => s.controlBatch);
  const pct = batch.total ? Math.round((batch.done / batch.total) * 100) : 0;
  const failed = batch.items.filter(
    (i) =>
      i.state === 'failed' ||
      i.state === 'skipped' ||
      i.state === 'unknown' ||
      i.state === 'queued',
  );
  const working = batch.items.find((i) => i.state === 'working');
  return (
    <div className={`panel batch batch-${batch.state}`} data-testid="batch">
      <h2>Batch {batch.state}</h2>
      <p className="muted batch-description">{batch.description}</p>
      <div
        className="progress"
        role="progressbar"
        aria-label="Batch progress"
        aria-valuemin={0}
        aria-valuemax={batch.total}
        aria-valuenow={batch.done}
      >
        <div className="bar" style={{ width: `${pct}%` }} />
        <span className="progress-text">
          {batch.done} of {batch.total} ({pct}%)
        </span>
      </div>
      <div className="batch-counts" data-testid="batch-counts">
        <span className="ok">Bought {batch.bought}</span>
        <span className={batch.failed ? 'bad' : ''}>Failed {batch.failed}</span>
        {batch.unknown ? (
          <span
            className="warn"
            title="The station could not tell whether these labels were bought: see Needs attention before buying them again."
          >
            Outcome unknown {batch.unknown}
          </span>
        ) : null}
        {batch.queued ? (
          <span title="Waiting in the offline queue: bought when the platform answers.">
            Queued {batch.queued}
          </span>
        ) : null}
        {batch.skipped ? <span>Skipped {batch.skipped}</span> : null}
        {/* A stopped batch buys no more: its waiting orders stay open, said so. */}
        {batch.state === 'stopped' ? (
          <span title="The batch was stopped: these orders were not bought and stay open in Orders.">
            Not bought, left open {batch.waiting}
          </span>
        ) : (
          <span>Waiting {batch.waiting}</span>
        )}
        <span>
          Cost <b>${batch.cost.toFixed(2)}</b>
        </span>
      </div>
      {batch.state === 'paused' && batch.heldBy ? (
        <p className="warn" role="status" data-testid="batch-held">
          Paused by the station: {batch.heldBy.replace(/\.$/, '')}, so no more labels are bought for
          it. The batch goes on by itself once the printer prints again (or move its labels to
          another printer in Queue, Alt+3, then Resume).
        </p>
      ) : null}
      {batch.state === 'running' && batch.waitingForPrinter ? (
        <p className="warn" role="status" data-testid="batch-waiting-for-printer">
          {batch.waitingForPrinter}
        </p>
      ) : null}
      {batch.printWaiting ? (
        <p className="warn" data-testid="batch-print-waiting">
          {batch.printWaiting} of the labels bought {batch.printWaiting === 1 ? 'is' : 'are'} still
          waiting for {batch.printWaiting === 1 ? 'its' : 'their'} printer: see Queue (Alt+3).
        </p>
      ) : null}
      {working ? <p className="muted">Buying {working.orderNumber}…</p> : null}
      <div className="actions">
        {batch.state === 'running' ? (
          <button onClick={() => void control('pause')}>Pause</button>
        ) : null}
        {batch.state === 'paused' ? (
          <button onClick={() => void control('resume')}>Resume</button>
        ) : null}
        {batch.state === 'running' || batch.state === 'paused' ? (
          <button className="danger" onClick={() => void control('stop')}>
            Stop
          </button>
        ) : null}
      </div>
      {failed.length ? (
        <ul className="batch-failures" data-testid="batch-failures">
          {failed.map((f) => (
            <li key={f.orderId} className={`batch-item-${f.state}`}>
              <b>{f.orderNumber}</b>: {f.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
