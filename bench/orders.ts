// The benchmarks' orders: one Austin customer shape, one candle, 1 to 15 lb.
import type { IncomingOrder } from '../src/core/orders/types.js';

/** Order `orderNumber`, the `i`-th of a run (its weight and customer name follow `i`). */
export function benchOrder(orderNumber: string, i: number): IncomingOrder {
  return {
    orderNumber,
    shipTo: {
      name: `Customer ${i}`,
      addressLine1: '500 E 6th St',
      city: 'Austin',
      stateProvince: 'TX',
      postalCode: '78701',
      countryCode: 'US',
      isResidential: true,
    },
    packages: [
      {
        weightLbs: 1 + (i % 15),
        lengthIn: 10,
        widthIn: 8,
        heightIn: 4,
        items: [{ sku: 'CANDLE-1', name: 'Candle', quantity: 1 }],
      },
    ],
  };
}
