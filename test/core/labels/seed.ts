import type { Db } from '../../../src/core/storage/database.js';
import { LabelRepository } from '../../../src/core/labels/label-repository.js';
import { OrderRepository } from '../../../src/core/orders/order-repository.js';
import type { StoredLabel } from '../../../src/core/labels/types.js';
import type { StationScope } from '../../../src/core/storage/scope.js';

/**
 * Writes orders, shipments, purchases and labels straight into the station database, the
 * way the purchase path leaves them, for tests of the label cache.
 */
export function seedLabels(...args: Parameters<typeof seedStoredLabels>): number[] {
  return seedStoredLabels(...args).map((l) => l.id);
}

/** As seedLabels, giving back the labels as the purchase path gets them from insert. */
export function seedStoredLabels(
  db: Db,
  scope: StationScope,
  labels: {
    orderNumber: string;
    tenantId: string;
    tracking: string;
    createdAt: string;
    extraTracking?: string[];
  }[],
): StoredLabel[] {
  const orders = new OrderRepository(db);
  const repo = new LabelRepository(db);
  const shipment = db.prepare(
    `INSERT INTO shipments (profile_id, environment, tenant_id, order_id, state, shipment, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'print-queued', '{}', ?, ?)`,
  );
  const purchase = db.prepare(
    `INSERT INTO label_purchases (id, shipment_id, profile_id, environment, tenant_id, order_reference, state, request, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'purchased', '{}', ?, ?)`,
  );
  return db.transaction(() =>
    labels.map((l, i) => {
      orders.upsert(
        scope,
        l.tenantId,
        {
          orderNumber: l.orderNumber,
          shipTo: { addressLine1: '1 A St', city: 'Reno', postalCode: '89501', countryCode: 'US' },
          packages: [{ weightLbs: 1, items: [] }],
        },
        'seed',
      );
      const order = orders
        .findByNumber(scope, l.orderNumber)
        .find((o) => o.tenantId === l.tenantId)!;
      const shipmentId = shipment.run(
        scope.profileId,
        scope.environment,
        l.tenantId,
        order.id,
        l.createdAt,
        l.createdAt,
      ).lastInsertRowid;
      const purchaseId = `lp_${scope.profileId}_${scope.environment}_${i}_${l.tracking}`;
      const reference = `${l.orderNumber}-${l.tracking}`;
      purchase.run(
        purchaseId,
        shipmentId,
        scope.profileId,
        scope.environment,
        l.tenantId,
        reference,
        l.createdAt,
        l.createdAt,
      );
      return repo.insert(scope, {
        purchaseId,
        platformLabelId: `lbl_${scope.environment}_${i}_${l.tracking}`,
        tenantId: l.tenantId,
        orderId: order.id,
        orderNumber: l.orderNumber,
        orderReference: reference,
        trackingNumber: l.tracking,
        packageTrackingNumbers: [l.tracking, ...(l.extraTracking ?? [])],
        trackerId: null,
        carrier: 'UPS',
        serviceLevel: 'UPS_GROUND',
        carrierAccountId: 'ca_x',
        costCents: 980,
        currency: 'USD',
        zpl: `^XA^FD${l.tracking}^FS^XZ`,
        labelUrl: null,
        createdAt: l.createdAt,
      });
    }),
  )();
}
