/** Orders in, scan, rate, buy. Handlers: src/core/station/features/packing.ts. */
import { z } from 'zod';
import type * as V from '../views.js';
import { def, id, text } from './define.js';

const packedPackage = z.object({
  /**
   * Pounds; null when the package has not been weighed. Range and missing weights are checked
   * by the core, which names the package ("Package 2 of 3 has no weight").
   */
  weightLbs: z.number().nullable(),
  boxId: id.nullable().default(null),
});

export const packingCalls = {
  'orders.import': def<V.ImportReport>()(
    z.object({ fileName: text(260).min(1), content: text(20_000_000) }),
  ),
  'orders.list': def<V.OrderView[]>()(
    z.object({
      search: text(200).optional(),
      limit: z.number().int().min(1).max(500).default(100),
    }),
  ),

  'pack.scan': def<V.ScanResult>()(z.object({ value: text(200).trim().min(1) })),
  'pack.rate': def<V.RateQuote>()(
    z.object({
      orderId: id,
      /** One entry per package of the order, in order: its weight (typed or weighed) and box. */
      packages: z.array(packedPackage).min(1).max(100),
      /** Buying another label for an order that already has one needs this. */
      confirmAnother: z.boolean().default(false),
    }),
  ),
  'pack.buy': def<V.PurchaseView>()(
    z.object({
      /** The rated shipment `pack.rate` returned. */
      shipmentId: id,
      /** Another of its rates than the rule's choice; null buys the rule's choice. */
      rate: z
        .object({ carrierAccountId: text(200).min(1), serviceLevel: text(100).min(1) })
        .nullable()
        .default(null),
      confirmAnother: z.boolean().default(false),
    }),
  ),
};
