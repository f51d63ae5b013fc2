/**
 * What the station has done: Needs attention, the offline queue, labels (History, reprint,
 * audit), the tracking board and carrier accounts. Handlers: src/core/station/features/records.ts.
 */
import { z } from 'zod';
import type * as V from '../views.js';
import { def, id, none, text } from './define.js';

/** A day typed in History's date fields (2026-11-23); anything Date cannot read is refused by name. */
const day = text(40).refine((s) => !Number.isNaN(Date.parse(s)), 'not a date (use YYYY-MM-DD)');
/** History's search, of this station or of the whole site (which adds station and packer). */
export const labelSearch = z.object({
  query: text(200).optional(),
  from: day.optional(),
  to: day.optional(),
  tenantId: text(200).optional(),
  limit: z.number().int().min(1).max(500).default(100),
  offset: z.number().int().min(0).default(0),
});

export const recordCalls = {
  'attention.list': def<V.AttentionItem[]>()(none),
  'attention.resolve': def<{ resolved: true }>()(
    z.object({
      id,
      action: z.enum([
        'check-trackers',
        'mark-not-bought',
        'buy-again',
        'retry',
        'cancel',
        'mark-printed',
        'dismiss',
      ]),
      note: text(500).optional(),
    }),
  ),

  'queue.list': def<V.QueueView>()(none),
  'queue.retry': def<{ done: true }>()(z.object({ kind: z.enum(['shipment', 'print-job']), id })),
  'queue.cancel': def<{ done: true }>()(z.object({ kind: z.enum(['shipment', 'print-job']), id })),
  'queue.move': def<{ done: true }>()(z.object({ id, printerId: id })),

  'labels.search': def<V.LabelPage>()(labelSearch),
  'labels.get': def<V.LabelDetail>()(z.object({ id })),
  'labels.reprint': def<V.PrintJobView>()(
    z.object({
      id,
      reason: text(500).trim().min(3),
      printerId: id.optional(),
      /** One package of a multi-package label (0-based); every package when absent. */
      packageIndex: z.number().int().min(0).max(99).optional(),
    }),
  ),
  'labels.audit': def<V.ReprintAuditView[]>()(z.object({ labelId: id.optional() })),

  'tracking.board': def<V.TrackingBoard>()(
    z.object({
      status: text(40).optional(),
      search: text(200).optional(),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(20_000).default(500),
    }),
  ),

  'carriers.list': def<V.CarrierAccountView[]>()(z.object({ refresh: z.boolean().default(false) })),
};
