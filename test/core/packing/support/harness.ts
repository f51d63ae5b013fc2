// vitest-side helpers for packing tests: a sandbox, a virtual printer, the real print spool
// on the station's SQLite file, and the station itself.
import { afterEach, expect } from 'vitest';
import { join } from 'node:path';
import { NetworkPrinter } from '../../../../src/core/printing/drivers/network.js';
import { PrintSpool } from '../../../../src/core/printing/spool/print-spool.js';
import type { PrinterConfig } from '../../../../src/core/printing/types.js';
import { importOrders } from '../../../../src/core/orders/order-import.js';
import type { Profile } from '../../../../src/core/profiles/profile-schema.js';
import type { LedgerEntry } from '../../../../src/sandbox/index.js';
import { tempDir } from '../../../support/tmp.js';
import {
  useVirtualPrinter,
  virtualPrinterConfig,
  type VirtualPrinter,
} from '../../../support/virtual-printer.js';
import { openStation, samples, tenantPolicy, type Station } from './station.js';
import type { PurchaseHooks } from '../../../../src/core/packing/label-purchase.js';
import type { Clock } from '../../../../src/core/storage/scope.js';
import type { OrderClaims } from '../../../../src/core/site/link.js';

export interface TestStation extends Station {
  spool: PrintSpool;
  printer: VirtualPrinter;
  printerConfig: PrinterConfig;
  dbFile: string;
  importSamples(): void;
}

/**
 * Orders whose kept status (order_status, kept by migration 12's triggers) is not the one their
 * rows give now (order_status_now), or that have none.
 */
export function statusDrift(db: Station['db']): unknown[] {
  return db
    .prepare(
      `SELECT n.id, k.status AS kept, n.status AS now FROM order_status_now n
       LEFT JOIN order_status k ON k.order_id = n.id WHERE k.status IS NOT n.status`,
    )
    .all();
}

/** A station on a fresh SQLite file with the real spool printing to a virtual printer. */
export async function stationFor(
  makeProfile: (printers: PrinterConfig[]) => Profile,
  options: {
    dbFile?: string;
    hooks?: PurchaseHooks;
    labelTimeoutMs?: number;
    startSpool?: boolean;
    clock?: Clock;
    orderClaims?: OrderClaims;
    trackerSearch?: { pageSize: number; maxPages: number };
  } = {},
): Promise<TestStation> {
  const printer = await useVirtualPrinter();
  const printerConfig = virtualPrinterConfig(printer);
  const profile = makeProfile([printerConfig]);
  const dbFile = options.dbFile ?? join(tempDir(), 'station.db');
  // The spool needs the station's database, and the station hands jobs to the spool.
  const late: { spool?: PrintSpool } = {};
  const station = openStation({
    dbFile,
    profile,
    printQueue: {
      enqueue: (job) => late.spool!.enqueue(job),
      existingLabelJob: (labelId) => late.spool!.labelJob(labelId),
    },
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.labelTimeoutMs ? { labelTimeoutMs: options.labelTimeoutMs } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.orderClaims ? { orderClaims: options.orderClaims } : {}),
    ...(options.trackerSearch ? { trackerSearch: options.trackerSearch } : {}),
  });
  const spool = new PrintSpool({
    db: station.db,
    printers: () => profile.printers,
    createDriver: (c) => new NetworkPrinter(c, { answerTimeoutMs: 5000 }),
    backoff: { baseMs: 5, maxMs: 40 },
    faultPollMs: 10,
    printingPollMs: 5,
  });
  late.spool = spool;
  if (options.startSpool !== false) spool.start();
  afterEach(async () => {
    await spool.stop();
    // Whatever the test wrote, through whichever path: the Orders view's kept statuses are
    // still the ones the rows give.
    if (station.db.open) expect(statusDrift(station.db)).toEqual([]);
    station.close();
  });
  return {
    ...station,
    spool,
    printer,
    printerConfig,
    dbFile,
    importSamples() {
      const scope = station.workflow.scope;
      const policy = tenantPolicy(profile);
      for (const [text, format] of [
        [samples.csv, 'csv'],
        [samples.json, 'json'],
      ] as const) {
        const report = importOrders(station.workflow.orders, scope, policy, {
          text,
          format,
          source: format,
        });
        // Each profile imports only its own brands' orders; the others are reported.
        if (report.imported.length === 0 && report.problems.length === 0)
          throw new Error(`nothing imported from the ${format} sample`);
      }
    },
  };
}

export async function ledger(baseUrl: string): Promise<LedgerEntry[]> {
  const res = await fetch(`${baseUrl}/sandbox/ledger/labels`);
  return ((await res.json()) as { labels: LedgerEntry[] }).labels;
}

/** Ledger entries bought for one order number (any attempt). */
export async function ledgerFor(baseUrl: string, orderNumber: string): Promise<LedgerEntry[]> {
  return (await ledger(baseUrl)).filter((e) => e.orderReference?.startsWith(`${orderNumber}-`));
}

export function orderId(station: Station, orderNumber: string): number {
  const lookup = station.workflow.lookup(orderNumber);
  if (lookup.kind !== 'order') throw new Error(`${orderNumber}: ${lookup.kind}`);
  return lookup.order.id;
}
