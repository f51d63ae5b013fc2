import type { Statement } from 'better-sqlite3';
import type { Db } from '../storage/database.js';
import type { Clock, StationScope } from '../storage/scope.js';
import { systemClock } from '../storage/scope.js';
import type { LabelPage, LabelSearch, NewLabel, StoredLabel } from './types.js';

interface LabelRow {
  id: number;
  purchase_id: string;
  platform_label_id: string;
  profile_id: string;
  environment: string;
  tenant_id: string;
  order_id: number;
  order_number: string;
  order_reference: string;
  tracking_number: string;
  tracker_id: string | null;
  carrier: string;
  service_level: string;
  carrier_account_id: string;
  cost_cents: number;
  currency: string;
  zpl: string | null;
  zpl_dropped_at: string | null;
  label_url: string | null;
  created_at: string;
  stored_at: string;
}

const MAX_PAGE = 500;

/**
 * The label cache. Searches are keyset-paged on (created_at, id), newest first, and each
 * filter has an index that starts with profile + environment, so a lookup stays in the
 * milliseconds at a million labels.
 */
export class LabelRepository {
  private readonly s;
  /** Search statements, prepared once per combination of filters. */
  private readonly searches = new Map<string, Statement<unknown[], LabelRow>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO labels (purchase_id, platform_label_id, profile_id, environment, tenant_id, order_id,
           order_number, order_reference, tracking_number, tracker_id, carrier, service_level,
           carrier_account_id, cost_cents, currency, zpl, label_url, created_at, stored_at)
         VALUES (@purchaseId, @platformLabelId, @profileId, @environment, @tenantId, @orderId,
           @orderNumber, @orderReference, @trackingNumber, @trackerId, @carrier, @serviceLevel,
           @carrierAccountId, @costCents, @currency, @zpl, @labelUrl, @createdAt, @storedAt)`,
      ),
      insertPackage: db.prepare<[number, number, string]>(
        `INSERT INTO label_packages (label_id, package_index, tracking_number) VALUES (?, ?, ?)`,
      ),
      byId: db.prepare<[number], LabelRow>(`SELECT * FROM labels WHERE id = ?`),
      byPurchase: db.prepare<[string], LabelRow>(`SELECT * FROM labels WHERE purchase_id = ?`),
      byOrder: db.prepare<[number], LabelRow>(
        `SELECT * FROM labels WHERE order_id = ? ORDER BY created_at DESC, id DESC`,
      ),
      byTracking: db.prepare<[string, string, string], LabelRow>(
        `SELECT l.* FROM label_packages p JOIN labels l ON l.id = p.label_id
         WHERE p.tracking_number = ? AND l.profile_id = ? AND l.environment = ?
         ORDER BY l.id DESC LIMIT 1`,
      ),
      packages: db.prepare<[number], { tracking_number: string }>(
        `SELECT tracking_number FROM label_packages WHERE label_id = ? ORDER BY package_index`,
      ),
      dropZpl: db.prepare<[string, string, string, string]>(
        `UPDATE labels SET zpl = NULL, zpl_dropped_at = ?
         WHERE profile_id = ? AND environment = ? AND created_at < ? AND zpl IS NOT NULL`,
      ),
      restoreZpl: db.prepare<[string, number]>(
        `UPDATE labels SET zpl = ?, zpl_dropped_at = NULL WHERE id = ?`,
      ),
    };
  }

  /** Called inside the purchase transaction; returns the new label's local id. */
  insert(scope: StationScope, label: NewLabel): number {
    const id = Number(
      this.s.insert.run({
        ...label,
        profileId: scope.profileId,
        environment: scope.environment,
        storedAt: this.clock().toISOString(),
      }).lastInsertRowid,
    );
    const numbers =
      label.packageTrackingNumbers.length > 0
        ? label.packageTrackingNumbers
        : [label.trackingNumber];
    numbers.forEach((tracking, index) => this.s.insertPackage.run(id, index, tracking));
    return id;
  }

  get(id: number): StoredLabel | undefined {
    const row = this.s.byId.get(id);
    return row ? this.hydrate(row) : undefined;
  }

  getByPurchase(purchaseId: string): StoredLabel | undefined {
    const row = this.s.byPurchase.get(purchaseId);
    return row ? this.hydrate(row) : undefined;
  }

  /** Labels bought for one order, newest first. */
  forOrder(orderId: number): StoredLabel[] {
    return this.s.byOrder.all(orderId).map((r) => this.hydrate(r));
  }

  /** The label carrying this tracking number (any of its packages), in this profile only. */
  findByTracking(scope: StationScope, trackingNumber: string): StoredLabel | undefined {
    const row = this.s.byTracking.get(trackingNumber, scope.profileId, scope.environment);
    return row ? this.hydrate(row) : undefined;
  }

  search(scope: StationScope, query: LabelSearch = {}): LabelPage {
    const limit = Math.min(Math.max(1, Math.floor(query.limit ?? 50)), MAX_PAGE);
    const where = ['l.profile_id = ?', 'l.environment = ?'];
    const params: unknown[] = [scope.profileId, scope.environment];
    let from = 'labels l';
    if (query.trackingNumber) {
      from = 'label_packages p JOIN labels l ON l.id = p.label_id';
      where.unshift('p.tracking_number = ?');
      params.unshift(query.trackingNumber);
    }
    if (query.orderNumber) {
      where.push('l.order_number = ?');
      params.push(query.orderNumber);
    }
    if (query.tenantId) {
      where.push('l.tenant_id = ?');
      params.push(query.tenantId);
    }
    if (query.from) {
      where.push('l.created_at >= ?');
      params.push(query.from);
    }
    if (query.to) {
      where.push('l.created_at < ?');
      params.push(query.to);
    }
    const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
    if (cursor) {
      where.push('(l.created_at, l.id) < (?, ?)');
      params.push(cursor.createdAt, cursor.id);
    }
    const sql = `SELECT l.* FROM ${from} WHERE ${where.join(' AND ')}
      ORDER BY l.created_at DESC, l.id DESC LIMIT ?`;
    let statement = this.searches.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], LabelRow>(sql);
      this.searches.set(sql, statement);
    }
    const rows = statement.all(...params, limit + 1);
    const more = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      labels: page.map((r) => this.hydrate(r)),
      nextCursor: more && last ? encodeCursor(last.created_at, last.id) : null,
    };
  }

  /**
   * Retention: drops the ZPL of labels created before `before`, keeping every other field.
   * Returns how many labels lost their ZPL.
   */
  dropZplBefore(scope: StationScope, before: string): number {
    return this.s.dropZpl.run(
      this.clock().toISOString(),
      scope.profileId,
      scope.environment,
      before,
    ).changes;
  }

  /** Puts back ZPL fetched again from the platform (a reprint of a label past retention). */
  restoreZpl(id: number, zpl: string): void {
    this.s.restoreZpl.run(zpl, id);
  }

  private hydrate(row: LabelRow): StoredLabel {
    return {
      id: row.id,
      purchaseId: row.purchase_id,
      platformLabelId: row.platform_label_id,
      profileId: row.profile_id,
      environment: row.environment,
      tenantId: row.tenant_id,
      orderId: row.order_id,
      orderNumber: row.order_number,
      orderReference: row.order_reference,
      trackingNumber: row.tracking_number,
      packageTrackingNumbers: this.s.packages.all(row.id).map((p) => p.tracking_number),
      trackerId: row.tracker_id,
      carrier: row.carrier,
      serviceLevel: row.service_level,
      carrierAccountId: row.carrier_account_id,
      costCents: row.cost_cents,
      currency: row.currency,
      zpl: row.zpl,
      zplDroppedAt: row.zpl_dropped_at,
      labelUrl: row.label_url,
      createdAt: row.created_at,
      storedAt: row.stored_at,
    };
  }
}

function encodeCursor(createdAt: string, id: number): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: number } | undefined {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (typeof createdAt === 'string' && typeof id === 'number') return { createdAt, id };
  } catch {
    // A cursor that is not ours: start from the first page.
  }
  return undefined;
}
