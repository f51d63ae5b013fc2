import type { StoredOrder } from '../orders/types.js';
import { inTransaction, type Db } from '../storage/database.js';
import { systemClock, type Clock } from '../storage/scope.js';
import { cleanScan } from './scan-lookup.js';

/**
 * Scan to verify (issue 15.1): after the order scan the packer scans every item that goes in
 * the box (its SKU, or its UPC/EAN/barcode from the order file). Each scan counts against the
 * line's quantity; a quantity typed first counts that many at once. A value that is no item of
 * the order, or one more than the order asks for, is refused and counts nothing.
 */
export interface VerifyLine {
  /** `<package index>:<line>` in the order. */
  key: string;
  packageIndex: number;
  sku: string;
  name: string;
  barcode: string | null;
  imageUrl: string | null;
  quantity: number;
  scanned: number;
}

export interface VerificationOverride {
  by: string;
  reason: string;
  at: string;
}

export interface VerificationState {
  orderId: number;
  lines: VerifyLine[];
  /** Every line scanned to its quantity (an order without items has nothing to scan). */
  complete: boolean;
  override: VerificationOverride | null;
  /** complete, or a shift lead let it go without. */
  verified: boolean;
}

export type ItemScanOutcome =
  | { kind: 'counted'; line: VerifyLine; quantity: number; state: VerificationState }
  | { kind: 'wrong-item'; value: string; message: string; state: VerificationState }
  | { kind: 'too-many'; line: VerifyLine; message: string; state: VerificationState };

/** The most a quantity key may count at once (a typo of 1000 must not verify a whole pallet). */
export const MAX_SCAN_QUANTITY = 999;

/**
 * Two barcodes name the same item: equal, or both digits and equal once leading zeros are
 * dropped (a UPC-A of 12 digits is the EAN-13 with a leading 0, and a GTIN-14 pads it further).
 */
export function sameBarcode(a: string, b: string): boolean {
  if (a === b) return true;
  if (!/^\d{8,14}$/.test(a) || !/^\d{8,14}$/.test(b)) return false;
  return a.replace(/^0+/, '') === b.replace(/^0+/, '');
}

/** The order's lines that a scanned value names: by SKU (any case) or by barcode. */
export function linesMatching(lines: readonly VerifyLine[], value: string): VerifyLine[] {
  const v = cleanScan(value).replaceAll('\u001d', '');
  if (v === '') return [];
  const lower = v.toLowerCase();
  return lines.filter(
    (l) => l.sku.toLowerCase() === lower || (l.barcode !== null && sameBarcode(l.barcode, v)),
  );
}

export function linesOf(order: StoredOrder, counts: Record<string, number>): VerifyLine[] {
  return order.packages.flatMap((p, packageIndex) =>
    p.items.map((item, line) => {
      const key = `${packageIndex}:${line}`;
      return {
        key,
        packageIndex,
        sku: item.sku,
        name: item.name,
        barcode: item.barcode ?? null,
        imageUrl: item.imageUrl ?? null,
        quantity: item.quantity,
        scanned: Math.min(counts[key] ?? 0, item.quantity),
      };
    }),
  );
}

const named = (l: VerifyLine) => (l.name && l.name !== l.sku ? `${l.sku} (${l.name})` : l.sku);

/**
 * Counts `quantity` of the scanned item against the order (pure: the caller stores it). Several
 * lines with the same item fill in order; a scan that would take any of them past its quantity
 * counts nothing.
 */
export function countScan(
  lines: readonly VerifyLine[],
  value: string,
  quantity: number,
):
  | { kind: 'counted'; line: VerifyLine; lines: VerifyLine[] }
  | { kind: 'wrong-item'; value: string; message: string }
  | { kind: 'too-many'; line: VerifyLine; message: string } {
  const shown = cleanScan(value).replaceAll('\u001d', '');
  const matching = linesMatching(lines, value);
  if (matching.length === 0)
    return {
      kind: 'wrong-item',
      value: shown,
      message: `Wrong item: ${shown || '(empty scan)'} is not in this order. Take it out of the box.`,
    };
  const open = matching.reduce((n, l) => n + (l.quantity - l.scanned), 0);
  if (quantity > open) {
    const first = matching[0]!;
    const want = matching.reduce((n, l) => n + l.quantity, 0);
    const have = want - open;
    return {
      kind: 'too-many',
      line: first,
      message:
        open === 0
          ? `One too many: ${named(first)}. The order has ${want}, all ${have} already scanned. Take it out of the box.`
          : `Too many: ${quantity} × ${named(first)}, but only ${open} more ${open === 1 ? 'is' : 'are'} in the order (${have} of ${want} scanned).`,
    };
  }
  let left = quantity;
  let touched: VerifyLine = matching[0]!;
  const next = lines.map((l) => {
    if (left === 0 || !matching.includes(l) || l.scanned >= l.quantity) return l;
    const add = Math.min(left, l.quantity - l.scanned);
    left -= add;
    const updated = { ...l, scanned: l.scanned + add };
    touched = updated;
    return updated;
  });
  return { kind: 'counted', line: touched, lines: next };
}

interface VerificationRow {
  order_id: number;
  order_version: string;
  counts: string;
  override_by: string | null;
  override_reason: string | null;
  override_at: string | null;
}

export interface VerificationEvent {
  kind: 'counted' | 'wrong-item' | 'too-many' | 'override' | 'reset';
  value: string | null;
  quantity: number | null;
  stationUser: string | null;
  detail: string | null;
  at: string;
}

/**
 * The verification of each order, in SQLite: counts survive a restart; a re-imported order
 * (another updated_at) starts again. Every scan, refusal and override is in its history.
 */
export class ItemVerification {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {
    this.s = {
      get: db.prepare<[number], VerificationRow>(
        `SELECT * FROM order_verifications WHERE order_id = ?`,
      ),
      among: db.prepare<[string], VerificationRow>(
        `SELECT * FROM order_verifications WHERE order_id IN (SELECT value FROM json_each(?))`,
      ),
      put: db.prepare(
        `INSERT INTO order_verifications (order_id, order_version, counts, complete, override_by, override_reason, override_at, updated_at)
         VALUES (@orderId, @version, @counts, @complete, @overrideBy, @overrideReason, @overrideAt, @now)
         ON CONFLICT (order_id) DO UPDATE SET order_version = excluded.order_version,
           counts = excluded.counts, complete = excluded.complete, override_by = excluded.override_by,
           override_reason = excluded.override_reason, override_at = excluded.override_at,
           updated_at = excluded.updated_at`,
      ),
      event: db.prepare(
        `INSERT INTO verification_events (order_id, kind, value, quantity, station_user, detail, at)
         VALUES (@orderId, @kind, @value, @quantity, @stationUser, @detail, @now)`,
      ),
      events: db.prepare<[number], Record<string, unknown>>(
        `SELECT kind, value, quantity, station_user, detail, at FROM verification_events
         WHERE order_id = ? ORDER BY id`,
      ),
    };
  }

  state(order: StoredOrder): VerificationState {
    return this.stateFrom(order, this.current(order));
  }

  /** Which of these orders are verified (scanned in full or overridden): one query. */
  verifiedAmong(orders: readonly StoredOrder[]): Set<number> {
    const rows = new Map(
      this.s.among.all(JSON.stringify(orders.map((o) => o.id))).map((r) => [r.order_id, r]),
    );
    const out = new Set<number>();
    for (const o of orders) {
      const row = rows.get(o.id);
      if (row && row.order_version === o.updatedAt && this.stateFrom(o, row).verified)
        out.add(o.id);
    }
    return out;
  }

  scan(
    order: StoredOrder,
    value: string,
    options: { quantity?: number | undefined; stationUser?: string | null | undefined } = {},
  ): ItemScanOutcome {
    const quantity = options.quantity ?? 1;
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_SCAN_QUANTITY)
      throw new RangeError(`quantity must be a whole number from 1 to ${MAX_SCAN_QUANTITY}`);
    const user = options.stationUser ?? null;
    return inTransaction(this.db, (): ItemScanOutcome => {
      const row = this.current(order);
      const before = this.stateFrom(order, row);
      const result = countScan(before.lines, value, quantity);
      const cleaned = cleanScan(value).slice(0, 200);
      if (result.kind !== 'counted') {
        this.record(order.id, result.kind, cleaned, quantity, user, result.message);
        return { ...result, state: before };
      }
      const counts = Object.fromEntries(result.lines.map((l) => [l.key, l.scanned]));
      this.write(order, counts, row);
      this.record(order.id, 'counted', cleaned, quantity, user, result.line.key);
      const state = this.state(order);
      return {
        kind: 'counted',
        line: state.lines.find((l) => l.key === result.line.key)!,
        quantity,
        state,
      };
    });
  }

  /** A shift lead lets the order go without a full verification; name and reason are kept. */
  override(order: StoredOrder, by: string, reason: string): VerificationState {
    const who = by.trim();
    const why = reason.trim();
    if (!who) throw new RangeError('the name of the person who overrides is required');
    if (!why) throw new RangeError('a reason is required to override the verification');
    return inTransaction(this.db, () => {
      const row = this.current(order);
      const counts = row ? (JSON.parse(row.counts) as Record<string, number>) : {};
      const at = this.clock().toISOString();
      this.write(order, counts, row, { by: who, reason: why, at });
      this.record(order.id, 'override', null, null, who, why);
      return this.state(order);
    });
  }

  /** Starts the order's scans again (items taken out of the box). */
  reset(order: StoredOrder, stationUser: string | null): VerificationState {
    return inTransaction(this.db, () => {
      this.write(order, {}, undefined);
      this.record(order.id, 'reset', null, null, stationUser, null);
      return this.state(order);
    });
  }

  history(orderId: number): VerificationEvent[] {
    return this.s.events.all(orderId).map((r) => ({
      kind: r.kind as VerificationEvent['kind'],
      value: (r.value as string | null) ?? null,
      quantity: (r.quantity as number | null) ?? null,
      stationUser: (r.station_user as string | null) ?? null,
      detail: (r.detail as string | null) ?? null,
      at: r.at as string,
    }));
  }

  /** The stored row while it belongs to this version of the order. */
  private current(order: StoredOrder): VerificationRow | undefined {
    const row = this.s.get.get(order.id);
    return row && row.order_version === order.updatedAt ? row : undefined;
  }

  private stateFrom(order: StoredOrder, row: VerificationRow | undefined): VerificationState {
    const counts = row ? (JSON.parse(row.counts) as Record<string, number>) : {};
    const lines = linesOf(order, counts);
    const complete = lines.every((l) => l.scanned >= l.quantity);
    const override =
      row?.override_by && row.override_reason && row.override_at
        ? { by: row.override_by, reason: row.override_reason, at: row.override_at }
        : null;
    return {
      orderId: order.id,
      lines,
      complete,
      override,
      verified: complete || override !== null,
    };
  }

  private write(
    order: StoredOrder,
    counts: Record<string, number>,
    row: VerificationRow | undefined,
    override?: VerificationOverride,
  ): void {
    this.s.put.run({
      orderId: order.id,
      version: order.updatedAt,
      counts: JSON.stringify(counts),
      complete: linesOf(order, counts).every((l) => l.scanned >= l.quantity) ? 1 : 0,
      overrideBy: override?.by ?? row?.override_by ?? null,
      overrideReason: override?.reason ?? row?.override_reason ?? null,
      overrideAt: override?.at ?? row?.override_at ?? null,
      now: this.clock().toISOString(),
    });
  }

  private record(
    orderId: number,
    kind: VerificationEvent['kind'],
    value: string | null,
    quantity: number | null,
    stationUser: string | null,
    detail: string | null,
  ): void {
    this.s.event.run({
      orderId,
      kind,
      value,
      quantity,
      stationUser,
      detail,
      now: this.clock().toISOString(),
    });
  }
}

/** The words the packer sees when Buy & print is refused for an unverified order. */
export function notVerifiedMessage(order: StoredOrder, state: VerificationState): string {
  const open = state.lines.filter((l) => l.scanned < l.quantity);
  const list = open
    .slice(0, 3)
    .map((l) => `${l.sku} ${l.scanned} of ${l.quantity}`)
    .join(', ');
  const more = open.length > 3 ? ` and ${open.length - 3} more` : '';
  return `Order ${order.orderNumber} is not verified: scan every item first (${list}${more}), or a shift lead overrides with a reason.`;
}
