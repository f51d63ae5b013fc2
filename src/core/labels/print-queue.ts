/**
 * What the station asks of the print spool (src/core/printing satisfies it). The spool owns
 * durability and retries; the packing workflow and reprints only hand it ZPL.
 */
export type LabelPrintKind = 'label' | 'reprint' | 'slip';

export interface LabelPrintRequest {
  printerId: string;
  /** The ZPL to print (ESC/POS bytes for a packing slip). */
  payload: string | Buffer;
  /** The platform's label id (lbl_…). */
  labelId: string;
  orderReference: string;
  kind: LabelPrintKind;
  /** Why it is printed again (reprints), kept with the job. */
  reason?: string | undefined;
}

export interface LabelPrintQueue {
  /**
   * Stores the job durably and synchronously, in the station's database: the packing workflow
   * calls it inside the transaction that marks the shipment print-queued, so a crash can never
   * leave a stored job that recovery does not know about. Returns the job (with an id) or nothing.
   */
  enqueue(job: LabelPrintRequest): unknown;
  /**
   * The 'label' job already stored for this platform label id, or null. Sending a bought label
   * to the printer asks first, so a label whose job exists is never queued a second time.
   */
  existingLabelJob?(labelId: string): unknown;
  /**
   * A job of this platform label (its own or a reprint's) that has not printed and still waits
   * or is being sent, or null: a reprint then would print the label twice.
   */
  pendingLabelJob?(labelId: string): { lastError: string | null } | null;
  /**
   * A label for this printer is being bought: the spool may get the printer's connection and
   * status ready so the job does not wait for them (PrintSpool.prepare). Best effort.
   */
  prepare?(printerId: string): void;
}

/** The spool's job id (an integer, print_jobs.id) when it returned one. */
export function printJobIdOf(result: unknown): number | null {
  // PrintSpool.enqueue answers { job, warnings }.
  if (result && typeof result === 'object' && 'job' in result) return printJobIdOf(result.job);
  if (result && typeof result === 'object' && 'id' in result)
    return printJobIdOf((result as { id: unknown }).id);
  if (typeof result === 'number' && Number.isSafeInteger(result)) return result;
  if (typeof result === 'string' && /^\d+$/.test(result)) return Number(result);
  return null;
}
