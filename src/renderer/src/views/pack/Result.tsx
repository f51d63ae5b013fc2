import { useEffect, useState } from 'react';
import type { PrintJobView, PurchaseView } from '../../../../shared/views';
import { call, getBridge } from '../../bridge';
import { LabelPreview } from '../../components/LabelPreview';
import { ReprintForm } from '../../components/ReprintForm';
import { useStation } from '../../store';
import { relabelledElsewhere } from '../../store/pack-rules';
import { printerStateWords as printerWords } from '../../../../shared/printers';
import { serviceWords } from '../../../../shared/service-words';

type Phase = 'printed' | 'bought' | 'waiting' | 'check' | 'queued';

/**
 * Where a bought label is: green once it printed (or while it is being sent), amber while it
 * waits for a printer that is down, amber when the whole shipment waits for the platform. The
 * print job's own events move it along: nothing to refresh.
 */
function usePurchasePhase(purchase: PurchaseView | null): {
  phase: Phase;
  job: PrintJobView | null;
  message: string;
} {
  const printer = useStation((s) => s.status?.printer ?? null);
  // Every job event is kept while Pack is open: the label may print before the purchase's
  // answer reaches the screen, and that event must not be missed.
  const [jobs, setJobs] = useState<ReadonlyMap<string, PrintJobView>>(new Map());
  useEffect(
    () =>
      getBridge().on('print-job', (j) =>
        setJobs((before) => {
          const next = new Map(before);
          next.set(j.id, j);
          if (next.size > 50) next.delete(next.keys().next().value!);
          return next;
        }),
      ),
    [],
  );
  // Bought with no label printer: no job yet. Once a printer is added the station spools the
  // label by itself; its job is asked for (now, and at each label job's event until found, as
  // Pack may have been away in Settings meanwhile) and the result follows it from then on.
  const awaiting =
    purchase?.outcome === 'print-waiting' && !purchase.printJob && purchase.label
      ? purchase.label.id
      : null;
  const [adopted, setAdopted] = useState<{ labelId: string; job: PrintJobView } | null>(null);
  const found = adopted && adopted.labelId === awaiting ? adopted.job : null;
  useEffect(() => {
    if (!awaiting || found) return;
    let live = true;
    const ask = () =>
      void call('labels.printJob', { id: awaiting }).then((r) => {
        if (live && r.ok && r.value.job) setAdopted({ labelId: awaiting, job: r.value.job });
      });
    ask();
    const off = getBridge().on('print-job', (j) => {
      if (j.kind === 'label') ask();
    });
    return () => {
      live = false;
      off();
    };
  }, [awaiting, found]);
  const sent = purchase?.printJob ?? found;
  const heard = sent ? jobs.get(sent.id) : undefined;
  const job = heard && sent && heard.updatedAt >= sent.updatedAt ? heard : sent;
  if (!purchase) return { phase: 'bought', job: null, message: '' };
  if (purchase.outcome === 'queued-offline')
    return { phase: 'queued', job: null, message: purchase.message };
  if (job?.state === 'printed')
    return {
      phase: 'printed',
      job,
      message:
        purchase.outcome === 'printing' && / Sent to .+\.$/.test(purchase.message)
          ? purchase.message.replace(/Sent to (.+)\.$/, 'Printed on $1.')
          : `Printed on ${job.printerName}.`,
    };
  const jobStuck = job !== null && job.lastError !== null && job.state !== 'cancelled';
  if (purchase.outcome === 'print-waiting' && !jobStuck && !found)
    return { phase: 'waiting', job, message: purchase.message };
  // Given up (failed), or sent with no word whether it printed (unknown): a person looks at the
  // printer; nothing prints by itself.
  if (jobStuck && (job.state === 'failed' || job.state === 'unknown'))
    return {
      phase: 'check',
      job,
      message: `Bought, but the print on ${job.printerName} needs a person: ${job.lastError} (Needs attention, Alt+2)`,
    };
  if (jobStuck) {
    // A printer that says it is ready (or says nothing) while the job waits is not answering,
    // or (it answers, and dropped the line while the label came in) drops the label.
    const known =
      printer?.printerId === job.printerId &&
      printer.state !== 'ready' &&
      printer.state !== 'unknown';
    if (!known && job.lastErrorCode === 'printer-disconnected')
      return {
        phase: 'waiting',
        job,
        message: `Bought — waiting for ${job.printerName}: it answers, but dropped the line as the label came in; it is sent again by itself. Check the printer, or move the job to another printer (Queue, Alt+3).`,
      };
    // It answers, with no fault, and keeps the label in its buffer (a peel-off printer whose
    // label is not taken, or a stuck one): the job's own words say what to do.
    if (!known && job.lastErrorCode === 'printer-fault')
      return { phase: 'waiting', job, message: `Bought — ${job.lastError}` };
    const issue = known ? printerWords[printer.state] : 'not answering';
    return {
      phase: 'waiting',
      job,
      message: `Bought — waiting for ${job.printerName} (${issue}); it prints when the printer is back.`,
    };
  }
  // The job of a label bought with no printer, on its way to the printer added since.
  if (found && job) return { phase: 'bought', job, message: `Sent to ${job.printerName}.` };
  return { phase: 'bought', job, message: purchase.message };
}

const headline: Record<Phase, string> = {
  printed: 'LABEL PRINTED',
  bought: 'LABEL BOUGHT',
  waiting: 'BOUGHT — WAITING FOR PRINTER',
  check: 'BOUGHT — CHECK THE PRINTER',
  queued: 'QUEUED',
};

/** The Pack screen's result panel: what happened to the last scan or purchase, and reprints. */
export function PackResult(props: {
  reprinting: boolean;
  setReprinting(on: boolean): void;
  onReprintDone(): void;
}) {
  const s = useStation();
  const purchase = s.result?.kind === 'success' ? s.result.purchase : null;
  const { phase, message } = usePurchasePhase(purchase);
  // The label the panel shows first: one just bought (another label of an order that had one
  // included) is the one the packer holds, not the order's earlier label.
  // The order's label here voided and labelled again at another station: that one is offered.
  const relabelled = relabelledElsewhere(s.existingLabels, s.labelledElsewhere);
  const reprintTarget =
    purchase?.label ?? s.scannedLabel ?? (relabelled ? null : s.existingLabels[0]) ?? null;
  // Labelled at another station of the site: its label reprints here instead.
  const elsewhere = reprintTarget ? null : s.labelledElsewhere;
  const label = purchase?.label ?? null;
  const packages = label?.packageTrackingNumbers ?? [];
  // Said when the label was queued (events do not repeat them).
  const warnings = [
    ...(purchase?.printJob?.warnings ?? []),
    ...(s.reprintWarnings && s.reprintWarnings.labelId === reprintTarget?.id
      ? s.reprintWarnings.warnings
      : []),
  ];

  const warningList = warnings.length ? (
    <ul className="print-warnings" data-testid="print-warnings">
      {warnings.map((w, i) => (
        <li key={i}>⚠ {w}</li>
      ))}
    </ul>
  ) : null;
  // Refused because another station is buying this order's label right now: nothing went
  // wrong here, and the packer waits or moves on (amber, as a label on its way).
  const beingLabelledThere =
    s.result?.kind === 'failure' &&
    s.result.action !== 'reprint' &&
    s.result.error.code === 'order-claimed-elsewhere' &&
    !elsewhere?.label
      ? (s.labelledElsewhere?.stationName ?? 'another station')
      : null;
  const cls = beingLabelledThere
    ? 'waiting'
    : s.result?.kind === 'success'
      ? phase === 'waiting' || phase === 'check' || phase === 'queued'
        ? 'waiting'
        : 'success'
      : (s.result?.kind ?? 'empty');
  return (
    <div
      className={`panel result ${cls}`}
      data-testid="result"
      data-phase={purchase ? phase : undefined}
      role="status"
      aria-live="assertive"
    >
      <div className="result-main">
        {purchase ? (
          <div className="result-body">
            <div className="result-text">
              <div className="big">{headline[phase]}</div>
              {label ? (
                <div className="result-order" data-testid="result-order">
                  Order {label.orderNumber}
                </div>
              ) : null}
              {label ? (
                packages.length > 1 ? (
                  <ol className="package-tracking" aria-label="Tracking numbers">
                    {packages.map((t, i) => (
                      <li key={t} data-testid="package-tracking">
                        <span className="muted">
                          {i + 1}/{packages.length}
                        </span>{' '}
                        <span
                          className="tracking"
                          data-testid={i === 0 ? 'tracking-number' : undefined}
                        >
                          {t}
                        </span>
                      </li>
                    ))}
                  </ol>
                ) : (
                  <div className="tracking" data-testid="tracking-number">
                    {label.trackingNumber}
                  </div>
                )
              ) : null}
              <div data-testid="result-message">{message}</div>
              {purchase?.siteUnchecked ? (
                <p className="site-unchecked" data-testid="site-unchecked">
                  ⚠ {purchase.siteUnchecked}
                </p>
              ) : null}
              {warningList}
              {label ? (
                <div className="muted" data-testid="result-service">
                  {serviceWords(label.carrier, label.serviceLevel)} · {label.cost.toFixed(2)}{' '}
                  {label.currency}
                </div>
              ) : null}
            </div>
            {label ? <LabelPreview labelId={label.id} compact zoomKey /> : null}
          </div>
        ) : s.result?.kind === 'failure' ? (
          <div>
            <div className="big">
              {s.result.action === 'reprint'
                ? 'NOT REPRINTED'
                : s.result.error.code === 'order-cancelled'
                  ? 'ORDER CANCELLED — DO NOT SHIP'
                  : s.result.error.code === 'purchase-outcome-unknown'
                    ? 'NOT CONFIRMED'
                    : s.result.error.code === 'order-claimed-elsewhere' && elsewhere?.label
                      ? 'LABELLED AT ANOTHER STATION'
                      : beingLabelledThere
                        ? `BEING LABELLED AT ${beingLabelledThere.toUpperCase()}`
                        : s.result.error.code === 'not-found'
                          ? 'NOT FOUND'
                          : s.result.error.code === 'order-changed'
                            ? 'ORDER CHANGED — NOT BOUGHT'
                            : 'FAILED'}
            </div>
            {/* The contract's code is for site IT and the log, not the packer: kept in the
                element (hover, diagnostics), not read out on the panel. */}
            <div
              data-testid="failure-message"
              data-code={s.result.error.code}
              title={`code: ${s.result.error.code}`}
            >
              {s.result.error.message}
            </div>
          </div>
        ) : s.result?.kind === 'info' ? (
          <div className="info-text">{s.result.text}</div>
        ) : (
          <p className="placeholder">The result of each label shows here.</p>
        )}
        {!purchase ? warningList : null}
      </div>
      {reprintTarget ? (
        <div className="reprint-row">
          {props.reprinting ? (
            <ReprintForm
              labelId={reprintTarget.id}
              packages={reprintTarget.packageTrackingNumbers}
              onDone={props.onReprintDone}
              onRefused={props.onReprintDone}
            />
          ) : reprintTarget.voided ? null : (
            <button onClick={() => props.setReprinting(true)}>
              Reprint {reprintTarget.trackingNumber}
              {reprintTarget.packageTrackingNumbers.length > 1
                ? ` (+${reprintTarget.packageTrackingNumbers.length - 1})`
                : ''}{' '}
              <kbd>Alt+R</kbd>
            </button>
          )}
          {/* Offered for an order scanned with its label; right after a purchase the result
              keeps its room (Ctrl+Shift+A still buys another). */}
          {s.existingLabels.length && !s.confirmAnother && !purchase ? (
            <button onClick={() => s.allowAnother()}>
              Buy another label <kbd>Ctrl+Shift+A</kbd>
            </button>
          ) : null}
        </div>
      ) : elsewhere?.label ? (
        <div className="reprint-row">
          {props.reprinting ? (
            <ReprintForm
              labelId={elsewhere.label.labelId}
              submitText="Reprint here"
              send={(reason) => s.reprintHere(reason)}
              onDone={props.onReprintDone}
              onRefused={props.onReprintDone}
            />
          ) : elsewhere.label.voided ? (
            // Voided at the carrier there: never reprinted; another label is bought instead.
            !s.confirmAnother ? (
              <button onClick={() => s.allowAnother()}>
                Buy another label <kbd>Ctrl+Shift+A</kbd>
              </button>
            ) : null
          ) : (
            <button onClick={() => props.setReprinting(true)}>
              Reprint {elsewhere.label.trackingNumber} here <kbd>Alt+R</kbd>
            </button>
          )}
        </div>
      ) : null}
    </div>
  );
}
