// label_cache: a million labels through the station's own write path (order, shipment,
// purchase row, label), then the lookups a shift lead and a scan make.
import { statSync, existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openDatabase, type Db } from '../src/core/storage/database.js';
import { LabelRepository } from '../src/core/labels/label-repository.js';
import { PART_SEARCH_WINDOW } from '../src/core/labels/typed-search.js';
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

/**
 * Fills `file` with `count` labels through the station's write path (the write figures), tops
 * it up to `total` with older labels written by SQL, and reports the read figures at `total`.
 */
export function labelCacheBench(file: string, count: number, total = count): void {
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

  // The older labels: the years before, ZPL dropped by retention.
  const bulk = total - count;
  if (bulk > 0) {
    const t1 = performance.now();
    // Written through a rollback journal straight into the file: the WAL it returns to is
    // empty, and a TRUNCATE checkpoint right after the switch back fails (SQLITE_LOCKED).
    topUp(db, bulk);
    report({
      name: 'label_cache.top_up_rate',
      value: Math.round(bulk / ((performance.now() - t1) / 1000)),
      unit: 'labels/s',
      labels: bulk,
      seconds: round((performance.now() - t1) / 1000, 1),
      writes:
        'order, shipment, purchase row, label, package tracking number; by SQL, 1,000,000 per statement',
    });
    report({
      name: 'label_cache.database_bytes',
      value: fileSize(file),
      unit: 'bytes',
      labels: total,
    });
  }
  // What a station reads after a restart: the file from disk, not pages this process wrote.
  db.close();
  const read = openDatabase(file);
  const labels = new LabelRepository(read);

  const random = rng(7);
  // Half of the look-ups among the newest labels (the station's write path), half among all.
  const pick = (): { order: string; tracking: string } => {
    if (bulk === 0 || random() < 0.5) {
      const k = Math.floor(random() * count);
      return {
        order: `ORD-${k.toString().padStart(8, '0')}`,
        tracking: w.corpus.label(k).trackingNumber,
      };
    }
    const k = Math.floor(random() * bulk);
    return { order: older.orderNumber(k), tracking: older.trackingNumber(k) };
  };
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
  const spanDays = 365 + Math.ceil((bulk * 30) / 86_400);
  for (let k = 0; k < samples; k++) {
    const one = pick();
    byTracking.push(time(() => labels.findByTracking(benchScope, one.tracking)));
    byOrder.push(time(() => labels.search(benchScope, { orderNumber: one.order }).labels));
    const from = new Date(START + 335 * DAY_MS - Math.floor(random() * (spanDays - 30)) * DAY_MS);
    const to = new Date(from.getTime() + 30 * DAY_MS);
    page.push(
      time(
        () =>
          labels.searchSummaries(benchScope, {
            from: from.toISOString(),
            to: to.toISOString(),
            tenantId: brands[k % brands.length],
            limit: 50,
          }).labels,
      ),
    );
  }
  // History's search for a part in the middle of a number ("0421" of ORD-00010421): read row by
  // row among the newest PART_SEARCH_WINDOW labels, the only way to find a middle part.
  const part: number[] = [];
  const fromId = labels.newestWindowStart(PART_SEARCH_WINDOW);
  const newest = read.prepare<[], { id: number }>('SELECT max(id) AS id FROM labels').get()!.id;
  const numberAt = read
    .prepare<[number], { n: string }>('SELECT order_number AS n FROM labels WHERE id >= ? LIMIT 1')
    .pluck(false);
  for (let k = 0; k < 200; k++) {
    const id = fromId + Math.floor(random() * (newest - fromId + 1));
    // The last six characters of an order number in the window: a part in its middle.
    const text = numberAt.get(id)!.n.slice(-6);
    part.push(time(() => labels.search(benchScope, { numberPart: { text, fromId } }).labels));
  }
  const p = summarize(part);
  report({ name: 'label_cache.history_part_search_p50', value: p.p50, unit: 'ms', labels: total });
  report({ name: 'label_cache.history_part_search_p95', value: p.p95, unit: 'ms', labels: total });
  for (const [name, values, target] of [
    ['lookup_by_tracking', byTracking, 2],
    ['lookup_by_order', byOrder, 2],
    ['history_page', page, 10],
  ] as const) {
    const s = summarize(values);
    report({ name: `label_cache.${name}_p50`, value: s.p50, unit: 'ms', labels: total });
    report({
      name: `label_cache.${name}_p95`,
      value: s.p95,
      unit: 'ms',
      labels: total,
      target: { op: '<=', value: target },
    });
  }
  read.close();
  void round;
}

/** The bulk labels' identities (label k of the top-up, 0-based), for the lookups. */
export const older = {
  orderNumber: (k: number) => `OLD-${k.toString().padStart(8, '0')}`,
  trackingNumber: (k: number) => `1ZOLD${k.toString().padStart(13, '0')}`,
};

/**
 * Tops the database up to `total` labels with `count` older ones (the years before the
 * realistic fill, one label every 30 s going back from START), written by SQL in
 * 1,000,000-row statements: for each, its order, shipment, purchase row, label and package
 * tracking number, with the ZPL already dropped by retention (as a station's labels that old
 * would be: the ZPL of the newest labels is kept, theirs is fetched again for a reprint).
 * Print jobs are not written for them (no read of the label cache touches them).
 */
export function topUp(db: Db, count: number): void {
  const ids = db
    .prepare<[], { o: number; s: number; l: number }>(
      `SELECT (SELECT coalesce(max(id), 0) FROM orders) AS o, (SELECT coalesce(max(id), 0) FROM shipments) AS s,
              (SELECT coalesce(max(id), 0) FROM labels) AS l`,
    )
    .get()!;
  const step = 1_000_000;
  // A bulk load, not the station's commit path: a rollback journal instead of the WAL (new
  // pages are written once, not once to the WAL and again at the checkpoint; SQLite leaves WAL
  // only for DELETE), no fsync (the file is the benchmark's own and thrown away if this fails),
  // no foreign-key look-ups for rows written together here. The station's settings come back
  // at the end.
  db.pragma('foreign_keys = OFF');
  if ((db.pragma('journal_mode = DELETE', { simple: true }) as string) !== 'delete')
    throw new Error('the label cache top-up could not leave WAL mode');
  db.pragma('synchronous = OFF');
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma('cache_size = -500000');
  const at = (k: string) =>
    `strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} - (${k} + 1) * 30, 'unixepoch')`;
  const tenant = (k: string) =>
    `CASE ${k} % 3 ${brands.map((b, i) => `WHEN ${i} THEN '${b}'`).join(' ')} END`;
  const order = (k: string) => `'OLD-' || printf('%08d', ${k})`;
  // The Orders view's kept statuses (migration 12): worked out once for the loaded orders,
  // as the migration does, not by their triggers row by row (a third of the load's time).
  const statusTriggers = db
    .prepare<[], string>(
      `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'order_status_%'`,
    )
    .pluck()
    .all();
  db.exec(
    db
      .prepare<[], string>(
        `SELECT group_concat('DROP TRIGGER ' || name, '; ') FROM sqlite_master
         WHERE type = 'trigger' AND name LIKE 'order_status_%'`,
      )
      .pluck()
      .get() ?? '',
  );
  for (let from = 0; from < count; from += step) {
    const to = Math.min(count, from + step) - 1;
    const series = `WITH RECURSIVE s(k) AS (SELECT ${from} UNION ALL SELECT k + 1 FROM s WHERE k < ${to})`;
    db.transaction(() => {
      db.exec(`${series}
        INSERT INTO orders (id, profile_id, environment, tenant_id, order_number, ship_to, source, imported_at, updated_at)
        SELECT ${ids.o + 1} + k, '${benchScope.profileId}', '${benchScope.environment}', ${tenant('k')}, ${order('k')},
          '{"name":"Customer ' || k || '","addressLine1":"' || (100 + k % 9000) || ' Main Street","city":"Austin","stateProvince":"TX","postalCode":"73301","countryCode":"US"}',
          'bench', ${at('k')}, ${at('k')} FROM s`);
      db.exec(`${series}
        INSERT INTO shipments (id, profile_id, environment, tenant_id, order_id, state, shipment, station_user, created_at, updated_at)
        SELECT ${ids.s + 1} + k, '${benchScope.profileId}', '${benchScope.environment}', ${tenant('k')}, ${ids.o + 1} + k,
          'print-queued', '{"packages":[{"weightLbs":2}],"orderReference":"' || ${order('k')} || '"}', 'bench', ${at('k')}, ${at('k')} FROM s`);
      db.exec(`${series}
        INSERT INTO label_purchases (id, shipment_id, profile_id, environment, tenant_id, order_reference, state, request, created_at, updated_at)
        SELECT 'pur_old_' || k, ${ids.s + 1} + k, '${benchScope.profileId}', '${benchScope.environment}', ${tenant('k')},
          ${order('k')} || '-1', 'purchased', '{"carrierAccountId":"ca_bench","serviceLevel":"UPS_GROUND"}', ${at('k')}, ${at('k')} FROM s`);
      db.exec(`${series}
        INSERT INTO labels (id, purchase_id, platform_label_id, profile_id, environment, tenant_id, order_id, order_number,
          order_reference, tracking_number, tracker_id, carrier, service_level, carrier_account_id, cost_cents, currency,
          zpl_dropped_at, created_at, stored_at)
        SELECT ${ids.l + 1} + k, 'pur_old_' || k, 'lbl_old_' || k, '${benchScope.profileId}', '${benchScope.environment}', ${tenant('k')},
          ${ids.o + 1} + k, ${order('k')}, ${order('k')} || '-1', '1ZOLD' || printf('%013d', k), 'trk_old_' || k, 'UPS',
          'UPS_GROUND', 'ca_bench', 800 + k % 1500, 'USD', '${new Date(START).toISOString()}', ${at('k')}, ${at('k')} FROM s`);
      db.exec(`${series}
        INSERT INTO label_packages (label_id, package_index, tracking_number)
        SELECT ${ids.l + 1} + k, 0, '1ZOLD' || printf('%013d', k) FROM s`);
    })();
  }
  db.exec(`INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id > ${ids.o}`);
  for (const sql of statusTriggers) db.exec(sql);
  db.pragma(`cache_size = ${cacheSize}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
}
