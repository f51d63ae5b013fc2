/**
 * Printers: discover, add by address, remove, test print, status. Handlers:
 * src/core/station/features/devices.ts (printers.add and printers.remove from printers.ts).
 */
import { z } from 'zod';
import { networkPrinterInputSchema, type PrinterConfig } from '../printers.js';
import { def, id, none } from './define.js';
import type { ProfileView } from './profiles.js';
import type { PrintJobView } from './records.js';

export type PrinterState =
  | 'ready'
  | 'paper-out'
  | 'ribbon-out'
  | 'head-open'
  | 'paused'
  | 'buffer-full'
  | 'offline'
  | 'unknown';

export interface PrinterStatusView {
  printerId: string;
  name: string;
  state: PrinterState;
  /** In words a packer understands: "ZD421 at 10.1.4.20 is out of paper". */
  message: string;
  /** It answers, slowly: how long its last status answer took (ms), when 2 s or more. */
  slowMs?: number;
}

export interface DiscoveredPrinter {
  name: string;
  /** Where it is, in words ("10.1.4.20:9100", "queue zebra1"). */
  address: string;
  /** Ready for `profiles.update` once given an id. */
  printer: Omit<PrinterConfig, 'id'>;
}

export const printerCalls = {
  /**
   * `notes`: what could not be looked at, in words (no USB access, no print system, a
   * configured address that does not answer), so "nothing found" is never the whole story.
   */
  'printers.discover': def<{ printers: DiscoveredPrinter[]; notes: string[] }>()(none),
  /**
   * Settings → "Add printer by address": a network printer by host and port. `printerNote`: the
   * printer was added, but its host name is not one the network knows now (a typo, or a name
   * only some other network resolves), said so site IT checks it before the first label.
   */
  'printers.add': def<ProfileView & { printerNote?: string }>()(networkPrinterInputSchema),
  'printers.remove': def<ProfileView>()(z.object({ printerId: id })),
  'printers.testPrint': def<PrintJobView>()(z.object({ printerId: id })),
  'printers.status': def<PrinterStatusView>()(z.object({ printerId: id })),
};
