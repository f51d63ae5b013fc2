import { probePrinter } from './status.js';
import type { StationContext } from '../context.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { printerCalls } from '../../../shared/features/printers.js';
import { StationFailure } from '../errors.js';
import { printJobView, printerView } from '../map.js';
import { printerSetupHandlers } from './printers.js';
import { discoverPrinters } from '../../printing/discovery.js';
import type { PrintJob } from '../../printing/spool/print-spool.js';

/** Printers: discover, test print, status, and (printers.ts) add and remove. */
export function deviceHandlers(ctx: StationContext): FeatureHandlers<typeof printerCalls> {
  const printer = (id: string) => {
    const p = ctx.runtime().profile.printers.find((x) => x.id === id);
    if (!p) throw new StationFailure('not-found', `No printer ${id} in this profile.`);
    return p;
  };
  return {
    'printers.discover': async () => {
      // USB printers and OS queues are found by the printing module; network printers are never
      // scanned for, only the addresses the profile already names are asked for status.
      const known = ctx.runtimeOrNull()?.profile.printers ?? [];
      const result = await discoverPrinters({
        networkCandidates: known
          .filter((p) => p.kind === 'network' && p.host)
          .map((p) => ({ host: p.host!, ...(p.port ? { port: p.port } : {}) })),
      });
      for (const note of result.notes) ctx.log(`printer discovery: ${note}`);
      return {
        printers: result.printers.map((d) => {
          const { id: _id, address, ...printer } = printerView({ id: 'discovered', ...d.config });
          return { name: d.name, address, printer };
        }),
        notes: result.notes,
      };
    },
    'printers.testPrint': async ({ printerId }) => {
      const p = printer(printerId);
      // A test page is for finding out whether the printer works now: one that does not answer
      // or reports a fault is said at once, and nothing is queued to print by surprise later.
      const now = await probePrinter(p);
      if (now.state !== 'ready' && now.state !== 'unknown')
        throw new StationFailure(
          'printer-offline',
          `${now.message.replace(/\.$/, '')}. The test page was not sent and nothing was queued; put it right and try again.`,
        );
      // Asked afresh: the printer at this address may have been swapped since the last label.
      ctx.spool.forgetReportedDpi(p.id);
      const { job } = ctx.spool.printTest(p.id);
      ctx.changed('queue');
      // Its outcome, when the printer gives it within a few seconds: "printed", or why not (a
      // printer that took the connection and dropped the page), instead of "sent".
      const settled = await settledWithin(ctx, job.id, TEST_PRINT_WAIT_MS);
      // The printer's own word on its resolution, asked before the page went out: a setting
      // that differs is said now, not at the first paid label that comes out the wrong size.
      const reported = ctx.spool.reportedDpi(p.id);
      const warnings =
        p.role !== 'receipt' && reported !== null && p.dpi !== undefined && reported !== p.dpi
          ? [
              `${p.name} says it prints at ${reported} dpi, but it is set up here as ${p.dpi} dpi: labels would come out the wrong size. Set it to ${reported} dpi in Settings → Printers.`,
            ]
          : [];
      return printJobView(
        settled ?? job,
        p.name,
        warnings.map((message) => ({ message })),
      );
    },
    'printers.status': async ({ printerId }) => probePrinter(printer(printerId)),
    ...printerSetupHandlers(ctx),
  };
}

/** How long a test print waits for its page's outcome before answering "sent". */
const TEST_PRINT_WAIT_MS = 8000;

/** The job once it is printed, failed or unknown; null if it is still on its way after `ms`. */
function settledWithin(ctx: StationContext, id: number, ms: number): Promise<PrintJob | null> {
  return jobWithin(ctx, id, ms, (j) => j.state !== 'queued' && j.state !== 'sending');
}

/**
 * The job once its first attempt is over (printed, or back in the queue with why, or given up);
 * null if it is still on its way after `ms`.
 */
export function firstAttemptWithin(
  ctx: StationContext,
  id: number,
  ms: number,
): Promise<PrintJob | null> {
  return jobWithin(
    ctx,
    id,
    ms,
    (j) => (j.state !== 'queued' && j.state !== 'sending') || j.lastError !== null,
  );
}

function jobWithin(
  ctx: StationContext,
  id: number,
  ms: number,
  over: (j: PrintJob) => boolean,
): Promise<PrintJob | null> {
  const done = (j: PrintJob | null) => j !== null && over(j);
  const now = ctx.spool.get(id);
  if (done(now)) return Promise.resolve(now);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      off();
      resolve(null);
    }, ms);
    const listener = (j: PrintJob) => {
      if (j.id !== id || !done(j)) return;
      clearTimeout(timer);
      off();
      resolve(j);
    };
    const off = () => ctx.spool.off('job', listener);
    ctx.spool.on('job', listener);
  });
}
