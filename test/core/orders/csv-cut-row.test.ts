import { describe, expect, it } from 'vitest';
import { unfinishedLastRow } from '../../../src/core/orders/csv.js';
import { ordersFromCsv } from '../../../src/core/orders/csv-orders.js';

const header =
  'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,sku,quantity\n';
const row = (n: string, sku: string) =>
  `${n},Maya Okafor,418 Willow Lane,Evanston,IL,60201,US,${sku},1\n`;

describe('a CSV that stops in the middle of its last row', () => {
  it('is told apart from a finished file without a final line break', () => {
    expect(unfinishedLastRow(header + row('A-1', 'X'))).toBeNull();
    expect(unfinishedLastRow((header + row('A-1', 'X')).trimEnd())).toBeNull();
    expect(unfinishedLastRow(header + row('A-1', 'X') + 'A-2,Maya')).toEqual({
      row: 3,
      line: 3,
      fields: 2,
      of: 9,
    });
    // Cut inside a quoted field.
    expect(unfinishedLastRow(header + 'A-2,"Okafor, M')).toMatchObject({ row: 2 });
  });

  it('keeps the cut row and its order out, saying so; when its order number may be cut, the order before too', () => {
    const whole = ordersFromCsv(header + row('A-1', 'X') + row('A-2', 'Y') + 'A-2,Maya,418');
    expect(whole.orders.map((o) => o.order.orderNumber)).toEqual(['A-1']);
    expect(whole.problems).toEqual([
      expect.objectContaining({
        row: 3,
        orderNumber: 'A-2',
        reason: expect.stringMatching(
          /^the file ends in the middle of this row \(3 of the header's 9 fields/,
        ),
      }),
    ]);
    // "A-" may be the start of A-2 (whose other item it would be): A-2 waits with it.
    const cut = ordersFromCsv(header + row('A-1', 'X') + row('A-2', 'Y') + 'A-');
    expect(cut.orders.map((o) => o.order.orderNumber)).toEqual(['A-1']);
    expect(cut.problems[0]!.reason).toMatch(/nor order A-2 \(the row may belong to it\)/);
  });
});
