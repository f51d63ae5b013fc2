/**
 * Printers: discover, add by address, remove, test print, status. Handlers:
 * src/core/station/features/devices.ts (printers.add and printers.remove from printers.ts).
 */
import { z } from 'zod';
import type * as V from '../views.js';
import { networkPrinterInputSchema } from '../printers.js';
import { def, id, none } from './define.js';

export const printerCalls = {
  'printers.discover': def<V.DiscoveredPrinter[]>()(none),
  /** Settings → "Add printer by address": a network printer by host and port. */
  'printers.add': def<V.ProfileView>()(networkPrinterInputSchema),
  'printers.remove': def<V.ProfileView>()(z.object({ printerId: id })),
  'printers.testPrint': def<V.PrintJobView>()(z.object({ printerId: id })),
  'printers.status': def<V.PrinterStatusView>()(z.object({ printerId: id })),
};
