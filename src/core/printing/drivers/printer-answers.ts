import type { PrinterStatus } from '../types.js';

/** Longest a status probe (the header's, Settings', discovery's) waits for `~HS`'s answer. */
export const STATUS_ANSWER_BOUND_MS = 8000;
/** A printer that takes this long or longer to answer `~HS` is said to be slow to answer. */
export const SLOW_ANSWER_MS = 2000;
/**
 * How old a ready status of a slow printer may be and still stand for the check before a job
 * (the header asks every 10 s while it is ready; each label's own questions count too).
 */
export const RECENT_STATUS_MS = 15_000;

/**
 * What each network printer (by host:port) has shown it answers, shared by every driver that
 * talks to it: the spool's, the header's status probe, Settings. A printer that let `~HQES` go
 * unanswered once is not asked again (each ask costs the full wait), until its address changes
 * or the station restarts. Its last status answer, and how long it took, are kept too.
 */
export class PrinterAnswers {
  private readonly hqes = new Map<string, boolean>();
  private readonly last = new Map<string, { status: PrinterStatus; at: number; tookMs: number }>();
  answersHqes(address: string): boolean | undefined {
    return this.hqes.get(address);
  }
  learnedHqes(address: string, answers: boolean): void {
    this.hqes.set(address, answers);
  }
  /** The printer answered `~HS` with `status`, `tookMs` after it was asked. */
  heard(address: string, status: PrinterStatus, tookMs: number, now = Date.now()): void {
    this.last.set(address, { status, at: now, tookMs });
  }
  /** How long its last answer took, when that was slow (SLOW_ANSWER_MS or more); else null. */
  slowMs(address: string): number | null {
    const tookMs = this.last.get(address)?.tookMs ?? 0;
    return tookMs >= SLOW_ANSWER_MS ? tookMs : null;
  }
  /**
   * A slow printer's last status when it was ready with no fault and is recent (RECENT_STATUS_MS):
   * it stands for the check before a job, which would otherwise keep every label waiting
   * seconds for the same answer. Null for a fast printer (asked, as it costs nothing).
   */
  recentlyReady(address: string, now = Date.now()): PrinterStatus | null {
    const last = this.last.get(address);
    if (!last || last.tookMs < SLOW_ANSWER_MS || now - last.at > RECENT_STATUS_MS) return null;
    return last.status.ready && last.status.faults.length === 0 ? last.status : null;
  }
}
export const stationPrinterAnswers = new PrinterAnswers();
