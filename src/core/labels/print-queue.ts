/**
 * What the station asks of the print spool (src/core/printing satisfies it). The spool owns
 * durability and retries; the packing workflow and reprints only hand it ZPL.
 */
export type LabelPrintKind = 'label' | 'reprint';

export interface LabelPrintRequest {
  printerId: string;
  /** The ZPL to print. */
  payload: string;
  /** The platform's label id (lbl_…). */
  labelId: string;
  orderReference: string;
  kind: LabelPrintKind;
  /** Why it is printed again (reprints), kept with the job. */
  reason?: string | undefined;
}

export interface LabelPrintQueue {
  /** Stores the job durably; may return the job (with an id) or a promise of it. */
  enqueue(job: LabelPrintRequest): unknown;
}

/** The spool's job id when it returned one, as text for the audit log. */
export function printJobIdOf(result: unknown): string | null {
  // PrintSpool.enqueue answers { job, warnings }.
  if (result && typeof result === 'object' && 'job' in result) return printJobIdOf(result.job);
  if (result && typeof result === 'object' && 'id' in result) {
    const id = (result as { id: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  }
  if (typeof result === 'string' || typeof result === 'number') return String(result);
  return null;
}
