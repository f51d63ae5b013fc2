import type { PrinterAnswers } from './printer-answers.js';

/** What a network printer's driver may be told (network.ts); defaults there. */
export interface NetworkPrinterOptions {
  connectTimeoutMs?: number;
  /** How long the printer may take to answer ~HS (a slow printer still answers). */
  answerTimeoutMs?: number;
  /** ~HQES is newer firmware only: how long to wait before deciding this one does not answer it. */
  hqesTimeoutMs?: number;
  /** What printers have shown they answer; the station-wide one when omitted. */
  answers?: PrinterAnswers;
  /** How old a status read ahead of a job (prepare) may be and still stand for the check before it. Default 2 s. */
  preparedFreshMs?: number;
  /** How long a connection opened ahead of a job is kept for it. Default 5 s. */
  preparedHoldMs?: number;
  /** How long the connection a job went out on is kept for the status questions that follow. Default 1 s. */
  idleHoldMs?: number;
}
