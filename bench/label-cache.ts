// label_cache: a million labels through the station's own write path (order, shipment,
// purchase row, label), then the lookups a shift lead and a scan make.
import { statSync, existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openDatabase, type Db } from '../src/core/storage/database.js';
import { LabelRepository } from '../src/core/labels/label-repository.js';
import { OrderRepository } from '../src/core/orders/order-repository.js';
import { ShipmentRepository } from '../src/core/packing/shipment-repository.js';
import { systemClock, type StationScope } from '../src/core/storage/scope.js';
import { LabelPurchaser } from '../src/core/packing/label-purchase.js';
import { classifyPlatformError } from '../src/core/packing/platform-adapter.js';
import type { PackingPlatform } from '../src/core/packing/platform-port.js';
import type { Shipment } from '../src/core/packing/types.js';
import type { StoredOrder } from '../src/core/orders/types.js';
import { report, round, summarize } from './harness.js';
import { rng, zplCorpus } from './zpl-corpus.js';

export const benchScope: StationScope = { profileId: 'bench', environment: 'sandbox' };
export const brands = ['tnt_brand_alpha', 'tnt_brand_bravo', 'tnt_brand_charlie'];
const DAY_MS = 86_400_000;
const START = Date.parse('2025-11-21T00:00:00.000Z');

function fileSize(file: string): number {
  return [file, `${file}-wal`].filter(existsSync).reduce((n, f) => n + statSync(f).size, 0);
}

interface Printable {
  shipment: Shipment;
  zpl: string;
  orderReference: string;
  createdAt: string;
}

function writer(db: Db) {
  const orders = new OrderRepository(db);
  const shipments = new ShipmentRepository(db);
  const labels = new LabelRepository(db);
  const insertPrinted = db.prepare(`INSERT INTO print_jobs (printer_id, kind, state, payload,
      label_id, order_reference, attempts, next_attempt_at, created_at, updated_at, printed_at)
    VALUES ('zebra-1', 'label', 'printed', x'', @orderReference, @orderReference, 1, @ms, @at, @at, @at)`);
  const insertJobEvent = db.prepare(
    'INSERT INTO print_job_events (job_id, at, state, message) VALUES (?, ?, ?, NULL)',
  );
  // The purchaser's own commit (label + purchase + shipment state in one transaction); the
  // platform is never called here, so it is not given one.
  const purchaser = new LabelPurchaser({
    scope: benchScope,
    shipments,
    labels,
    platform: {} as PackingPlatform,
    classify: classifyPlatformError,
    clock: systemClock,
    hooks: {},
  });
  const corpus = zplCorpus(500);
  const spanMs = 365 * DAY_MS;
  return {
    corpus,
    labels,
    /** Everything the station writes for one label it bought and printed. */
    write(i: number, total: number): void {
      this.printed(this.storeLabel(i, total, this.purchase(i)));
    },
    /** What exists before the label: the order, its shipment and the committed purchase row. */
    purchase(i: number): { shipment: Shipment; order: StoredOrder } {
      const tenantId = brands[i % brands.length]!;
      const orderNumber = `ORD-${i.toString().padStart(8, '0')}`;
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
      shipments.createPurchase(benchScope, {
        id: `pur_${i}`,
        shipmentId: shipment.id,
        tenantId,
        orderReference: `${orderNumber}-1`,
        request: { carrierAccountId: 'ca_bench', serviceLevel: 'UPS_GROUND' },
        confirmedBy: null,
      });
      return { shipment, order };
    },
    /** What the station stores when the platform answers with the label: the purchaser's commit. */
    storeLabel(
      i: number,
      total: number,
      { shipment, order }: { shipment: Shipment; order: StoredOrder },
    ): Printable {
      const createdAt = new Date(START + Math.floor((i / total) * spanMs)).toISOString();
      const orderReference = `${order.orderNumber}-1`;
      const { zpl, trackingNumber } = corpus.label(i);
      purchaser.store(
        shipment,
        order,
        `pur_${i}`,
        orderReference,
        {
          id: `lbl_${i}`,
          trackingNumber,
          trackerId: `trk_${i}`,
          carrier: 'UPS',
          serviceLevel: 'UPS_GROUND',
          carrierAccountId: 'ca_bench',
          cost: { amount: (800 + (i % 1500)) / 100, currency: 'USD' },
          packages: [{ trackingNumber }],
          createdAt,
        },
        zpl,
        'purchased',
      );
      return { shipment, zpl, orderReference, createdAt };
    },
    /** Only the label cache's insert (what `store` does first, inside its transaction). */
    insertLabel(
      i: number,
      total: number,
      { shipment, order }: { shipment: Shipment; order: StoredOrder },
    ): Printable & { purchaseId: string } {
      const createdAt = new Date(START + Math.floor((i / total) * spanMs)).toISOString();
      const orderReference = `${order.orderNumber}-1`;
      const { zpl, trackingNumber } = corpus.label(i);
      labels.insert(benchScope, {
        purchaseId: `pur_${i}`,
        platformLabelId: `lbl_${i}`,
        tenantId: shipment.tenantId,
        orderId: order.id,
        orderNumber: order.orderNumber,
        orderReference,
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
      return { shipment, zpl, orderReference, createdAt, purchaseId: `pur_${i}` };
    },
    /** The rest of the purchaser's commit for a label written by `insertLabel`, then its print job. */
    completeAfterInsert(p: Printable & { purchaseId: string }): void {
      shipments.setPurchaseState(p.purchaseId, 'purchased');
      shipments.setState(p.shipment.id, 'purchased', { event: 'purchased' });
      this.printed(p);
    },
    /** The spool's part: the label's print job, printed, and the shipment marked print-queued. */
    printed({ shipment, zpl, orderReference, createdAt }: Printable): void {
      // Written as the spool leaves a printed job (bytes dropped, three events), in one statement
      // each instead of the spool's add-then-change with their re-reads: this is the filler.
      void zpl;
      const jobId = Number(
        insertPrinted.run({ orderReference, at: createdAt, ms: Date.parse(createdAt) })
          .lastInsertRowid,
      );
      for (const state of ['queued', 'sending', 'printed'])
        insertJobEvent.run(jobId, createdAt, state);
      shipments.setState(shipment.id, 'print-queued', { printerId: 'zebra-1', printJobId: jobId });
    },
  };
}

/** Fills `file` with `count` labels and reports the label_cache figures. */
export function labelCacheBench(file: string, count: number): void {
  const db = openDatabase(file);
  const w = writer(db);

  // Fill the cache in batches, as an import would: everything a purchase writes, 1,000 per
  // transaction. The last `tail` labels are kept for the one-at-a-time figures below, so those
  // are measured on a full database.
  const tail = Math.min(20_000, Math.floor(count / 10));
  const filled = count - tail;
  const batch = 1000;
  let t0 = performance.now();
  for (let start = 0; start < filled; start += batch) {
    db.transaction(() => {
      for (let i = start; i < Math.min(filled, start + batch); i++) w.write(i, count);
    })();
  }
  report({
    name: 'label_cache.fill_rate_batched',
    value: Math.round(filled / ((performance.now() - t0) / 1000)),
    unit: 'labels/s',
    n: filled,
    batch,
    writes: 'order, shipment, purchase row, label (purchaser commit), printed print job',
  });

  // One label at a time, on the full database, each in its own transaction as the station
  // commits it. The orders and purchase rows exist already (they are committed before the API
  // call), written untimed here.
  const half = Math.floor(tail / 2);
  const prepare = (from: number, to: number) => {
    const rows: { i: number; shipment: Shipment; order: StoredOrder }[] = [];
    db.transaction(() => {
      for (let i = from; i < to; i++) rows.push({ i, ...w.purchase(i) });
    })();
    return rows;
  };

  // The label cache's insert (LabelRepository.insert): label, ZPL, package tracking numbers.
  const first = prepare(filled, filled + half);
  t0 = performance.now();
  const cached = first.map((p) => db.transaction(() => w.insertLabel(p.i, count, p))());
  report({
    name: 'label_cache.insert_rate',
    value: Math.round(half / ((performance.now() - t0) / 1000)),
    unit: 'labels/s',
    n: half,
    writes: 'LabelRepository.insert: label, ZPL, package tracking numbers; one transaction each',
    target: { op: '>=', value: 5000 },
  });
  // What the purchaser and the spool also write for them, untimed, so the database holds what
  // a station's would.
  db.transaction(() => cached.forEach((p) => w.completeAfterInsert(p)))();

  // The purchaser's whole commit when the platform answers (label + purchase and shipment
  // state, one transaction), for comparison; then their print jobs, untimed.
  const second = prepare(filled + half, count);
  t0 = performance.now();
  const stored = second.map((p) => db.transaction(() => w.storeLabel(p.i, count, p))());
  report({
    name: 'label_cache.purchase_commit_rate',
    value: Math.round(second.length / ((performance.now() - t0) / 1000)),
    unit: 'labels/s',
    n: second.length,
    writes: 'LabelPurchaser.store: the label insert plus purchase and shipment state and event',
  });
  db.transaction(() => stored.forEach((p) => w.printed(p)))();

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
