import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { importOrders } from '../../../src/core/orders/order-import.js';
import { PackingWorkflow } from '../../../src/core/packing/packing-workflow.js';
import type { PackingPlatform } from '../../../src/core/packing/platform-port.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import { tempDir } from '../../support/tmp.js';
import { seedLabels } from '../labels/seed.js';
import { harborProfile, tenantPolicy } from './support/station.js';

// Lookups never reach the platform: any call is a failure of the test.
const offline: PackingPlatform = {
  rates: () => Promise.reject(new Error('no call expected')),
  buyLabel: () => Promise.reject(new Error('no call expected')),
  labelZpl: () => Promise.reject(new Error('no call expected')),
  trackersByOrderReference: () => Promise.reject(new Error('no call expected')),
};

/** Harbor's profile on a fresh station database, with a platform that must not be asked. */
function offlineWorkflow() {
  const db = openDatabase(join(tempDir(), 'station.db'));
  const profile = harborProfile('http://127.0.0.1:9');
  const workflow = new PackingWorkflow({
    db,
    profile,
    platform: offline,
    classify: () => ({ kind: 'outcome-unknown', message: 'unused' }),
    printQueue: { enqueue: () => undefined },
  });
  return { db, profile, workflow };
}

describe('scan lookup', () => {
  it('asks which brand when two brands of a 3PL use the same order number', () => {
    const { db, profile, workflow } = offlineWorkflow();
    const order = (tenantId: string) => ({
      orderNumber: '1001',
      tenantId,
      shipTo: { addressLine1: '1 A St', city: 'Reno', postalCode: '89501', countryCode: 'US' },
      packages: [{ weightLbs: 1 }],
    });
    const report = importOrders(workflow.orders, workflow.scope, tenantPolicy(profile), {
      text: JSON.stringify([order('tnt_driftwood'), order('tnt_pinecrest')]),
      format: 'json',
      source: 'test',
    });
    expect(report.imported).toEqual(['1001', '1001']);
    const scan = workflow.lookup('1001');
    if (scan.kind !== 'ambiguous') throw new Error(scan.kind);
    expect(scan.orders.map((o) => o.tenantId)).toEqual(['tnt_driftwood', 'tnt_pinecrest']);
    expect(workflow.lookup('1002')).toMatchObject({
      kind: 'not-found',
      message: expect.stringMatching(/No order or label "1002"/),
    });
    // Typed with the "#" a Shopify order name has: the same orders.
    expect(workflow.lookup('#1001')).toMatchObject({ kind: 'ambiguous' });
    db.close();
  });

  it('finds a Shopify order "#2001" scanned or typed as 2001, and one stored as 2001 typed as #2001', () => {
    const { db, profile, workflow } = offlineWorkflow();
    const order = (orderNumber: string) => ({
      orderNumber,
      tenantId: 'tnt_driftwood',
      shipTo: { addressLine1: '1 A St', city: 'Reno', postalCode: '89501', countryCode: 'US' },
      packages: [{ weightLbs: 1 }],
    });
    importOrders(workflow.orders, workflow.scope, tenantPolicy(profile), {
      text: JSON.stringify([order('#2001'), order('3001'), order('#4001'), order('4001')]),
      format: 'json',
      source: 'test',
    });
    // Scanned → found; where both exist, the number as scanned wins.
    for (const [scanned, found] of [
      ['2001\r', '#2001'],
      ['#3001', '3001'],
      ['4001', '4001'],
      ['#4001', '#4001'],
    ])
      expect(workflow.lookup(scanned!), scanned).toMatchObject({
        kind: 'order',
        order: { orderNumber: found },
      });
    expect(workflow.lookup('5001')).toMatchObject({ kind: 'not-found' });
    db.close();
  });

  it('reads a scan as the scanner sends it: Enter at the end, Caps Lock, AIM prefix, a USPS IMpb barcode', () => {
    const { db, profile, workflow } = offlineWorkflow();
    importOrders(workflow.orders, workflow.scope, tenantPolicy(profile), {
      text: JSON.stringify([
        {
          orderNumber: 'DW-55013',
          tenantId: 'tnt_driftwood',
          shipTo: { addressLine1: '1 A St', city: 'Reno', postalCode: '89501', countryCode: 'US' },
          packages: [{ weightLbs: 1 }],
        },
      ]),
      format: 'json',
      source: 'test',
    });
    const usps = '9400111899223197428490';
    seedLabels(db, workflow.scope, [
      {
        orderNumber: 'PC-1',
        tenantId: 'tnt_pinecrest',
        tracking: usps,
        createdAt: '2026-11-01T10:00:00.000Z',
      },
    ]);
    for (const scan of [
      'DW-55013\r\n',
      'DW-55013\r',
      '\tDW-55013\n',
      'dw-55013\r\n',
      ']C0DW-55013\r',
    ])
      expect(workflow.lookup(scan), JSON.stringify(scan)).toMatchObject({
        kind: 'order',
        order: { orderNumber: 'DW-55013' },
      });
    for (const scan of [
      `${usps}\r\n`,
      `42089501${usps}`,
      `420895011234\u001d${usps}\n`,
      `]C1420${'89501'}\u001d${usps}`,
    ])
      expect(workflow.lookup(scan), JSON.stringify(scan)).toMatchObject({
        kind: 'label',
        scanned: usps,
        label: { trackingNumber: usps },
      });
    // Control characters inside the data are still garbage, and so is a near miss.
    expect(workflow.lookup('DW-\u000755013').kind).toBe('not-found');
    expect(workflow.lookup(`420${usps}`).kind).toBe('not-found');
    expect(workflow.lookup('DW-55014\r\n')).toMatchObject({
      kind: 'not-found',
      message: expect.stringMatching(/No order or label "DW-55014"/),
    });
    db.close();
  });
});
