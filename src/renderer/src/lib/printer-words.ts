import type { PrinterState } from '../../../shared/views';

/**
 * A printer's state in a few words, short enough to stay whole in the header ("ZD421: out of
 * paper") and in the pack result ("waiting for ZD421 (out of paper)"); the full sentence is in
 * the tooltip and the Queue.
 */
export const printerWords: Record<PrinterState, string> = {
  ready: 'ready',
  'paper-out': 'out of paper',
  'ribbon-out': 'out of ribbon',
  'head-open': 'head open',
  paused: 'paused',
  'buffer-full': 'buffer full',
  offline: 'not answering',
  unknown: 'status unknown',
};
