import { foldedLikePattern, orderSearchText } from '../../shared/search-fold.js';
import { inTransaction, type Db } from '../storage/database.js';
import type { Clock, StationScope } from '../storage/scope.js';
import { systemClock } from '../storage/scope.js';
import type {
  IncomingOrder,
  OrderCancellation,
  OrderItem,
  OrderPackage,
  ShippingChange,
  StoredOrder,
} from './types.js';
import { shippingChanges } from './order-changes.js';
import { sameJson } from './same-json.js';
import { keptItems, type ItemRow, type ItemValues } from './order-item-rows.js';

interface OrderRow {
  id: number;
  profile_id: string;
  environment: string;
  tenant_id: string;
  order_number: string;
  ship_to: string;
  service_levels: string | null;
  options: string | null;
  source: string;
  imported_at: string;
  updated_at: string;
  /** JSON OrderCancellation (migration 017), null while the order is not cancelled. */
  cancelled: string | null;
  /** Migration 023: when a version last changed its shipment, and what (comma-separated). */
  shipping_changed_at: string | null;
  shipping_changed: string | null;
}
interface PackageRow {
  package_index: number;
  box: string | null;
  weight_lbs: number | null;
  length_in: number | null;
  width_in: number | null;
  height_in: number | null;
}

/** A package's values as `upsert` writes them (insertPackage's parameters). */
interface PackageValues {
  index: number;
  box: string | null;
  weightLbs: number | null;
  lengthIn: number | null;
  widthIn: number | null;
  heightIn: number | null;
}
/** Customs and hazmat fields of an item, kept as JSON in order_items.details. */
type ItemDetails = Pick<OrderItem, 'description' | 'harmonizedCode' | 'countryOfOrigin' | 'hazmat'>;

/** A JSON column of an object without its undefined fields; NULL when nothing is left. */
function jsonOrNull(value: object | undefined): string | null {
  if (!value) return null;
  const defined = Object.entries(value).filter(([, v]) => v !== undefined);
  return defined.length > 0 ? JSON.stringify(Object.fromEntries(defined)) : null;
}

/**
 * imported: new; updated: replaced by a different version; unchanged: a different version left
 * out because a label was bought for the order; same: the file has it exactly as stored (left
 * as it was, its version kept).
 */
/** `updated-cancelled`: a new version of an order a shift lead cancelled, taken; it stays cancelled. */
export type UpsertOutcome = 'imported' | 'updated' | 'updated-cancelled' | 'unchanged' | 'same';

/** Orders of the inbox, with their packages and items. Statements are prepared once. */
export class OrderRepository {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {
    this.s = {
      find: db.prepare<[string, string, string, string], OrderRow>(
        `SELECT * FROM orders WHERE profile_id = ? AND environment = ? AND tenant_id = ? AND order_number = ?`,
      ),
      byNumber: db.prepare<[string, string, string], OrderRow>(
        `SELECT * FROM orders WHERE profile_id = ? AND environment = ? AND order_number = ? ORDER BY id`,
      ),
      tenantsOf: db.prepare<[string, string, string], { tenant_id: string }>(
        `SELECT tenant_id FROM orders WHERE profile_id = ? AND environment = ? AND order_number = ?`,
      ),
      byId: db.prepare<[number], OrderRow>(`SELECT * FROM orders WHERE id = ?`),
      insert: db.prepare(
        `INSERT INTO orders (profile_id, environment, tenant_id, order_number, ship_to, service_levels, options, source, imported_at, updated_at, search_text)
         VALUES (@profileId, @environment, @tenantId, @orderNumber, @shipTo, @serviceLevels, @options, @source, @now, @now, @searchText)`,
      ),
      update: db.prepare(
        `UPDATE orders SET ship_to = @shipTo, service_levels = @serviceLevels, options = @options, source = @source, updated_at = @now, search_text = @searchText WHERE id = @id`,
      ),
      shippingChanged: db.prepare<[string, string, number]>(
        `UPDATE orders SET shipping_changed_at = ?, shipping_changed = ? WHERE id = ?`,
      ),
      hasPurchase: db.prepare<[number], { n: number }>(
        `SELECT count(*) AS n FROM label_purchases p JOIN shipments s ON s.id = p.shipment_id
         WHERE s.order_id = ? AND p.state IN ('purchasing', 'purchased', 'unknown')`,
      ),
      deleteItems: db.prepare<[number]>(`DELETE FROM order_items WHERE order_id = ?`),
      deletePackages: db.prepare<[number]>(`DELETE FROM order_packages WHERE order_id = ?`),
      insertPackage: db.prepare(
        `INSERT INTO order_packages (order_id, package_index, box, weight_lbs, length_in, width_in, height_in)
         VALUES (@orderId, @index, @box, @weightLbs, @lengthIn, @widthIn, @heightIn)`,
      ),
      insertItem: db.prepare(
        `INSERT INTO order_items (order_id, package_index, line, sku, name, quantity, value_cents, weight_lbs, details, barcode, image_url)
         VALUES (@orderId, @index, @line, @sku, @name, @quantity, @valueCents, @weightLbs, @details, @barcode, @imageUrl)`,
      ),
      packages: db.prepare<[number], PackageRow>(
        `SELECT * FROM order_packages WHERE order_id = ? ORDER BY package_index`,
      ),
      items: db.prepare<[number], ItemRow>(
        `SELECT * FROM order_items WHERE order_id = ? ORDER BY package_index, line`,
      ),
      recent: db.prepare<[string, string, number], OrderRow>(
        `SELECT * FROM orders WHERE profile_id = ? AND environment = ? ORDER BY id DESC LIMIT ?`,
      ),
      // Order number, or anything on the ship-to address (name, company, city, postal code).
      matching: db.prepare<[string, string, string, number], OrderRow>(
        `SELECT * FROM orders WHERE profile_id = ? AND environment = ?
           AND search_text LIKE ? ESCAPE '\\'
         ORDER BY id DESC LIMIT ?`,
      ),
      setCancelled: db.prepare<[string | null, number]>(
        `UPDATE orders SET cancelled = ? WHERE id = ?`,
      ),
      labelled: db.prepare<[string], { order_id: number }>(
        `SELECT DISTINCT order_id FROM labels WHERE order_id IN (SELECT value FROM json_each(?))`,
      ),
    };
  }

  /** Runs `work` in one transaction (an import stores a chunk of orders per commit). */
  inTransaction<T>(work: () => T): T {
    return inTransaction(this.db, work);
  }

  /**
   * Stores an order, or replaces it when it was imported before and no label has been bought
   * for it yet (a corrected file). An order with a label is left as it is.
   */
  upsert(
    scope: StationScope,
    tenantId: string,
    order: IncomingOrder,
    source: string,
  ): UpsertOutcome {
    return inTransaction(this.db, (): UpsertOutcome => {
      const now = this.clock().toISOString();
      const fields = {
        shipTo: JSON.stringify(order.shipTo),
        searchText: orderSearchText(order.orderNumber, order.shipTo),
        serviceLevels: order.serviceLevels ? JSON.stringify(order.serviceLevels) : null,
        options: jsonOrNull(order.options),
        source,
        now,
      };
      const existing = this.s.find.get(
        scope.profileId,
        scope.environment,
        tenantId,
        order.orderNumber,
      );
      const packages = order.packages.map((p, index): PackageValues => ({
        index,
        box: p.box ?? null,
        weightLbs: p.weightLbs ?? null,
        lengthIn: p.lengthIn ?? null,
        widthIn: p.widthIn ?? null,
        heightIn: p.heightIn ?? null,
      }));
      const items = order.packages.flatMap((p, index) =>
        p.items.map((item, line): ItemValues => ({
          index,
          line,
          sku: item.sku,
          name: item.name,
          quantity: item.quantity,
          valueCents: item.valueCents ?? null,
          weightLbs: item.weightLbs ?? null,
          details: jsonOrNull({
            description: item.description,
            harmonizedCode: item.harmonizedCode,
            countryOfOrigin: item.countryOfOrigin,
            hazmat: item.hazmat
              ? (JSON.parse(jsonOrNull(item.hazmat) ?? '{}') as object)
              : undefined,
          } satisfies ItemDetails),
          barcode: item.barcode ?? null,
          imageUrl: item.imageUrl ?? null,
        })),
      );
      let orderId: number;
      let toInsert = items;
      if (existing) {
        // A file that gives no items for an order the station has with items (a file of address
        // corrections, say): it says nothing of them, so they are kept, not wiped (each in its
        // package, or the last one when the file gives fewer packages).
        const kept = items.length === 0 ? this.s.items.all(existing.id) : [];
        if (kept.length) toInsert = keptItems(kept, packages.length);
        // The same file imported again (a hot folder's copy dropped twice, a packer's second
        // click): not a new version, so what was done with this one stands (a batch's failure,
        // items scanned to verify).
        if (this.sameAsStored(existing, fields, packages, toInsert)) return 'same';
        // A label was bought for the order as it was: another version is not taken (the
        // import says what differs, so the parcel is checked).
        if (this.s.hasPurchase.get(existing.id)!.n > 0) return 'unchanged';
        const changed = shippingChanges(
          {
            shipTo: JSON.parse(existing.ship_to) as StoredOrder['shipTo'],
            packages: this.s.packages.all(existing.id).map(packageShape),
          },
          { shipTo: order.shipTo, packages },
        );
        this.s.update.run({ ...fields, id: existing.id });
        if (changed.length) this.s.shippingChanged.run(now, changed.join(','), existing.id);
        this.s.deleteItems.run(existing.id);
        this.s.deletePackages.run(existing.id);
        orderId = existing.id;
      } else {
        orderId = Number(
          this.s.insert.run({
            ...fields,
            profileId: scope.profileId,
            environment: scope.environment,
            tenantId,
            orderNumber: order.orderNumber,
          }).lastInsertRowid,
        );
      }
      for (const p of packages) this.s.insertPackage.run({ orderId, ...p });
      for (const item of toInsert) this.s.insertItem.run({ orderId, ...item });
      return !existing ? 'imported' : existing.cancelled ? 'updated-cancelled' : 'updated';
    });
  }

  /** Whether an order's stored rows are what `upsert` would write for the incoming one. */
  private sameAsStored(
    row: OrderRow,
    fields: { shipTo: string; serviceLevels: string | null; options: string | null },
    packages: PackageValues[],
    items: ItemValues[],
  ): boolean {
    if (
      !sameJson(row.ship_to, fields.shipTo) ||
      !sameJson(row.service_levels, fields.serviceLevels) ||
      !sameJson(row.options, fields.options)
    )
      return false;
    const storedPackages = this.s.packages.all(row.id);
    const storedItems = this.s.items.all(row.id);
    return (
      storedPackages.length === packages.length &&
      storedItems.length === items.length &&
      packages.every((p, i) => {
        const r = storedPackages[i]!;
        return (
          r.package_index === p.index &&
          r.box === p.box &&
          r.weight_lbs === p.weightLbs &&
          r.length_in === p.lengthIn &&
          r.width_in === p.widthIn &&
          r.height_in === p.heightIn
        );
      }) &&
      items.every((it, i) => {
        const r = storedItems[i]!;
        return (
          r.package_index === it.index &&
          r.sku === it.sku &&
          r.name === it.name &&
          r.quantity === it.quantity &&
          r.value_cents === it.valueCents &&
          r.weight_lbs === it.weightLbs &&
          sameJson(r.details, it.details) &&
          r.barcode === it.barcode &&
          r.image_url === it.imageUrl
        );
      })
    );
  }

  /** Every order with that number in the profile (several when two brands reuse a number). */
  findByNumber(scope: StationScope, orderNumber: string): StoredOrder[] {
    return this.s.byNumber
      .all(scope.profileId, scope.environment, orderNumber)
      .map((row) => this.hydrate(row));
  }

  /** The brands (tenants) with an order of that number, from the index alone: an import's check. */
  tenantsOfNumber(scope: StationScope, orderNumber: string): string[] {
    return this.s.tenantsOf
      .all(scope.profileId, scope.environment, orderNumber)
      .map((r) => r.tenant_id);
  }

  get(id: number): StoredOrder | undefined {
    const row = this.s.byId.get(id);
    return row ? this.hydrate(row) : undefined;
  }

  recent(scope: StationScope, limit = 50): StoredOrder[] {
    return this.s.recent
      .all(scope.profileId, scope.environment, limit)
      .map((row) => this.hydrate(row));
  }

  /**
   * The newest orders whose number or ship-to address contains `search`, in any case and with
   * or without accents ("jose" finds "José").
   */
  search(scope: StationScope, search: string, limit = 50): StoredOrder[] {
    return this.s.matching
      .all(scope.profileId, scope.environment, foldedLikePattern(search), limit)
      .map((row) => this.hydrate(row));
  }

  /** Which of these orders have a label bought for them (one query for a whole list). */
  labelledAmong(orderIds: readonly number[]): Set<number> {
    return new Set(this.s.labelled.all(JSON.stringify(orderIds)).map((r) => r.order_id));
  }

  /**
   * A shift lead cancels the order at the station (the store cancelled it): nothing buys it
   * until it is reopened. A re-import leaves it cancelled.
   */
  cancel(id: number, cancellation: OrderCancellation): void {
    this.s.setCancelled.run(JSON.stringify(cancellation), id);
  }

  /** Undoes cancel(): the order is open (or whatever else it is) again. */
  reopen(id: number): void {
    this.s.setCancelled.run(null, id);
  }

  private hydrate(row: OrderRow): StoredOrder {
    const items = this.s.items.all(row.id);
    const packages: OrderPackage[] = this.s.packages.all(row.id).map((p) => ({
      box: p.box ?? undefined,
      weightLbs: p.weight_lbs ?? undefined,
      lengthIn: p.length_in ?? undefined,
      widthIn: p.width_in ?? undefined,
      heightIn: p.height_in ?? undefined,
      items: items
        .filter((i) => i.package_index === p.package_index)
        .map((i) => ({
          sku: i.sku,
          name: i.name,
          quantity: i.quantity,
          valueCents: i.value_cents ?? undefined,
          weightLbs: i.weight_lbs ?? undefined,
          ...(i.details ? (JSON.parse(i.details) as ItemDetails) : {}),
          ...(i.barcode ? { barcode: i.barcode } : {}),
          ...(i.image_url ? { imageUrl: i.image_url } : {}),
        })),
    }));
    return {
      id: row.id,
      profileId: row.profile_id,
      environment: row.environment,
      tenantId: row.tenant_id,
      orderNumber: row.order_number,
      shipTo: JSON.parse(row.ship_to) as StoredOrder['shipTo'],
      serviceLevels: row.service_levels ? (JSON.parse(row.service_levels) as string[]) : null,
      ...(row.options ? { options: JSON.parse(row.options) as StoredOrder['options'] } : {}),
      packages,
      source: row.source,
      importedAt: row.imported_at,
      updatedAt: row.updated_at,
      ...(row.shipping_changed_at && row.shipping_changed
        ? {
            shippingChanged: {
              at: row.shipping_changed_at,
              what: row.shipping_changed.split(',') as ShippingChange[],
            },
          }
        : {}),
      ...(row.cancelled ? { cancelled: JSON.parse(row.cancelled) as OrderCancellation } : {}),
    };
  }
}

function packageShape(r: PackageRow): PackageValues {
  return {
    index: r.package_index,
    box: r.box,
    weightLbs: r.weight_lbs,
    lengthIn: r.length_in,
    widthIn: r.width_in,
    heightIn: r.height_in,
  };
}
