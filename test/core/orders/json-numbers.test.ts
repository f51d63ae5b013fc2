import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { importOrders, type TenantPolicy } from '../../../src/core/orders/order-import.js';
import { OrderRepository } from '../../../src/core/orders/order-repository.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import type { StationScope } from '../../../src/core/storage/scope.js';
import { tempDir } from '../../support/tmp.js';

// A WMS's JSON often quotes its numbers ("weightLbs": "2.5"): such an order was refused whole
// ("packages.0.weightLbs: must be a number (lb)") and never reached the floor.

const scope: StationScope = { profileId: 'lumen', environment: 'sandbox' };
const tenants: TenantPolicy = { defaultTenantId: 'tnt_lumen', allowedTenantIds: ['tnt_lumen'] };
const shipTo = {
  addressLine1: '1 Main St',
  city: 'Austin',
  postalCode: '78701',
  countryCode: 'US',
};

function importJson(orders: unknown[]) {
  const repo = new OrderRepository(openDatabase(join(tempDir(), 'station.db')));
  const report = importOrders(repo, scope, tenants, {
    text: JSON.stringify(orders),
    format: 'json',
    source: 'wms.json',
  });
  return { report, order: (n: string) => repo.findByNumber(scope, n)[0] };
}

describe('JSON numbers written as text', () => {
  it('a plain decimal in quotes is read as the number, in every number field of an order', () => {
    const { report, order } = importJson([
      {
        orderNumber: 'W-1',
        shipTo,
        packages: [
          {
            weightLbs: '2.5',
            lengthIn: ' 12 ',
            widthIn: '8',
            heightIn: '4.25',
            items: [
              { sku: 'MUG', quantity: '2', valueUsd: '14.50', weightLbs: '1.1' },
              { sku: 'CUP', quantity: 1, valueCents: '899' },
              {
                sku: 'FUEL',
                quantity: 1,
                hazmat: { unNumber: 'UN1223', liquidVolumeOz: '16' },
              },
            ],
          },
        ],
      },
    ]);
    expect(report.problems).toEqual([]);
    expect(report.imported).toEqual(['W-1']);
    const pkg = order('W-1')!.packages[0]!;
    expect([pkg.weightLbs, pkg.lengthIn, pkg.widthIn, pkg.heightIn]).toEqual([2.5, 12, 8, 4.25]);
    expect(pkg.items[0]).toMatchObject({ quantity: 2, valueCents: 1450, weightLbs: 1.1 });
    expect(pkg.items[1]).toMatchObject({ valueCents: 899 });
    expect(pkg.items[2]!.hazmat).toMatchObject({ liquidVolumeOz: 16 });
  });

  it('text that is no plain decimal is still refused, quoting it, with what to write instead', () => {
    const { report } = importJson([
      { orderNumber: 'W-2', shipTo, packages: [{ weightLbs: '2,5' }] },
      { orderNumber: 'W-3', shipTo, packages: [{ weightLbs: '1e3' }] },
      { orderNumber: 'W-4', shipTo, packages: [{ items: [{ sku: 'MUG', quantity: 'two' }] }] },
      {
        orderNumber: 'W-5',
        shipTo,
        packages: [{ items: [{ sku: 'MUG', quantity: 1, valueUsd: '$14' }] }],
      },
      { orderNumber: 'W-6', shipTo, packages: [{ weightLbs: '0' }] },
    ]);
    expect(report.imported).toEqual([]);
    expect(report.problems.map((p) => [p.orderNumber, p.field, p.reason])).toEqual([
      [
        'W-2',
        'packages.0.weightLbs',
        '"2,5" is not a number (lb): write it as digits with a decimal point, such as 2.5',
      ],
      [
        'W-3',
        'packages.0.weightLbs',
        '"1e3" is not a number (lb): write it as digits with a decimal point, such as 2.5',
      ],
      [
        'W-4',
        'packages.0.items.0.quantity',
        '"two" is not a whole number: write it as digits, such as 2',
      ],
      [
        'W-5',
        'packages.0.items.0.valueUsd',
        '"$14" is not a number (dollars): write it as digits with a decimal point, such as 2.5',
      ],
      ['W-6', 'packages.0.weightLbs', 'must be more than 0 lb'],
    ]);
  });
});
