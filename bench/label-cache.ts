// label_cache: a million labels through the station's own write path (order, shipment,
// purchase row, label), then the lookups a shift lead and a scan make.
import { statSync, existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openDatabase, type Db } from '../src/core/storage/database.js';
import { LabelRepository } from '../src/core/labels/label-repository.js';
import { OrderRepository } from '../src/core/orders/order-repository.js';
import { ShipmentRepository } from '../src/core/packing/shipment-repository.js';
import type { StationScope } from '../src/core/storage/scope.js';
import { report, round, summarize } from './harness.js';
import { rng, zplCorpus } from './zpl-corpus.js';

export const benchScope: StationScope = { profileId: 'bench', environment: 'sandbox' };
export const brands = ['tnt_brand_alpha', 'tnt_brand_bravo', 'tnt_brand_charlie'];
const DAY_MS = 86_400_000;
const START = Date.parse('2025-11-21T00:00:00.000Z');

function fileSize(file: string): number {
  return [file, `${file}-wal`].filter(existsSync).reduce((n, f) => n + statSync(f).size, 0);
}

function writer(db: Db) {
  const orders = new OrderRepository(db);
  const shipments = new ShipmentRepository(db);
  const labels = new LabelRepository(db);
  const corpus = zplCorpus(500);
  const spanMs = 365 * DAY_MS;
  return {
    corpus,
    labels,
    /** Everything the station writes for one purchased label. */
    write(i: number, total: number): void {
      const tenantId = brands[i % brands.length]!;
      const orderNumber = `ORD-${i.toString().padStart(8, '0')}`;
      const createdAt = new Date(START + Math.floor((i / total) * spanMs)).toISOString();
      const shipTo = {
        name: `Customer ${i}`,
        addressLine1: `${100 + (i % 9000)} Main Street`,
        city: 'Austin',
        stateProvince: 'TX',
        postalCode: '73301',
        countryCode: 'US',
      };
      orders.upsert(
        benchScope,
        tenantId,
        {
          orderNumber,
          tenantId,
          shipTo,
          packages: [{ weightLbs: 2, items: [{ sku: 'SKU-1', name: 'Widget', quantity: 1 }] }],
        },
        'bench',
      );
      const order = orders.findByNumber(benchScope, orderNumber)[0]!;
      const shipment = shipments.create(benchScope, {
        tenantId,
        orderId: order.id,
        state: 'ready',
        shipment: {
          shipTo,
          shipFrom: shipTo,
          packages: [{ weightLbs: 2 }],
          orderReference: orderNumber,
        },
        stationUser: 'bench',
      });
      const purchaseId = `pur_${i}`;
      shipments.createPurchase(benchScope, {
        id: purchaseId,
        shipmentId: shipment.id,
        tenantId,
        orderReference: `${orderNumber}-1`,
        request: { carrierAccountId: 'ca_bench', serviceLevel: 'UPS_GROUND' },
        confirmedBy: null,
      });
      const { zpl, trackingNumber } = corpus.label(i);
      labels.insert(benchScope, {
        purchaseId,
        platformLabelId: `lbl_${i}`,
        tenantId,
        orderId: order.id,
        orderNumber,
        orderReference: `${orderNumber}-1`,
        trackingNumber,
        packageTrackingNumbers: [trackingNumber],
        trackerId: `trk_${i}`,
        carrier: 'UPS',
        serviceLevel: 'UPS_GROUND',
        carrierAccountId: 'ca_bench',
        costCents: 800 + (i % 1500),
        currency: 'USD',
        zpl,
        labelUrl: null,
        createdAt,
      });
    },
  };
}

/** Fills `file` with `count` labels and reports the label_cache figures. */
export function labelCacheBench(file: string, count: number): void {
  const db = openDatabase(file);
  const w = writer(db);

  // The station commits one purchase at a time; measure that shape on the first labels.
  const single = Math.min(20_000, Math.floor(count / 10));
  let t0 = performance.now();
  for (let i = 0; i < single; i++) db.transaction(() => w.write(i, count))();
  const singleRate = single / ((performance.now() - t0) / 1000);
  report({
    name: 'label_cache.insert_rate_one_per_transaction',
    value: Math.round(singleRate),
    unit: 'labels/s',
    n: single,
    target: { op: '>=', value: 5000 },
  });

  // The rest in batches, as an import or a migration would write them.
  const batch = 1000;
  t0 = performance.now();
  for (let start = single; start < count; start += batch) {
    db.transaction(() => {
      for (let i = start; i < Math.min(count, start + batch); i++) w.write(i, count);
    })();
  }
  const batchedRate = (count - single) / ((performance.now() - t0) / 1000);
  report({
    name: 'label_cache.insert_rate_batched',
    value: Math.round(batchedRate),
    unit: 'labels/s',
    n: count - single,
    batch,
    target: { op: '>=', value: 5000 },
  });

  db.pragma('wal_checkpoint(TRUNCATE)');
  report({
    name: 'label_cache.bytes_per_label',
    value: Math.round(fileSize(file) / count),
    unit: 'bytes',
    labels: count,
    averageZplBytes: Math.round(w.corpus.averageBytes),
  });

  const random = rng(7);
  const pick = () => Math.floor(random() * count);
  const samples = 2000;
  const time = (fn: () => unknown): number => {
    const s = performance.now();
    const r = fn();
    if (r === undefined || (Array.isArray(r) && r.length === 0))
      throw new Error('a lookup found nothing');
    return performance.now() - s;
  };

  const byTracking: number[] = [];
  const byOrder: number[] = [];
  const page: number[] = [];
  for (let k = 0; k < samples; k++) {
    const i = pick();
    byTracking.push(
      time(() => w.labels.findByTracking(benchScope, w.corpus.label(i).trackingNumber)),
    );
    byOrder.push(
      time(
        () =>
          w.labels.search(benchScope, { orderNumber: `ORD-${i.toString().padStart(8, '0')}` })
            .labels,
      ),
    );
    const from = new Date(START + Math.floor(random() * 300) * DAY_MS);
    const to = new Date(from.getTime() + 30 * DAY_MS);
    page.push(
      time(
        () =>
          w.labels.searchSummaries(benchScope, {
            from: from.toISOString(),
            to: to.toISOString(),
            tenantId: brands[k % brands.length],
            limit: 50,
          }).labels,
      ),
    );
  }
  for (const [name, values] of [
    ['lookup_by_tracking', byTracking],
    ['lookup_by_order', byOrder],
    ['history_page', page],
  ] as const) {
    const s = summarize(values);
    report({ name: `label_cache.${name}_p50`, value: s.p50, unit: 'ms', labels: count });
    report({
      name: `label_cache.${name}_p95`,
      value: s.p95,
      unit: 'ms',
      labels: count,
      target: { op: '<=', value: 2 },
    });
  }
  db.close();
  void round;
}
