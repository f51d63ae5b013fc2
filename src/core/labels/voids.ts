import type { Db } from '../storage/database.js';

/** A label marked voided at the carrier (migration 21): who marked it, why, and when. */
export interface LabelVoid {
  labelId: number;
  by: string;
  reason: string;
  at: string;
}

interface VoidRow {
  label_id: number;
  voided_by: string;
  reason: string;
  voided_at: string;
}

const fromRow = (r: VoidRow): LabelVoid => ({
  labelId: r.label_id,
  by: r.voided_by,
  reason: r.reason,
  at: r.voided_at,
});

/**
 * Why a label marked voided is not reprinted, and the way on (a reprint here or, `at` another
 * station, from whole-site History): one sentence wherever a reprint is refused.
 */
export function voidedReprintWords(
  label: { trackingNumber: string; orderNumber: string },
  mark: { by: string; reason: string },
  at?: string,
): string {
  return `${label.trackingNumber} was marked voided at the carrier${at ? ` at ${at}` : ''} by ${mark.by} (${mark.reason}): it must not go on a parcel, so it is not reprinted. To ship order ${label.orderNumber}, buy another label at Pack (scan it, then Ctrl+Shift+A).`;
}

/**
 * Labels voided at the carrier's portal or the platform's console (the Shipping Platform API
 * shows no void, so the station never voids one itself): a shift lead marks them here so End of
 * day leaves them out of the day's labels and cost and off the manifest, and no reprint puts one
 * on a parcel. A mark made in error is taken back (the row goes; the station's log keeps both).
 */
export class LabelVoids {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare<[number, string, string, string]>(
        `INSERT INTO label_voids (label_id, voided_by, reason, voided_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (label_id) DO NOTHING`,
      ),
      get: db.prepare<[number], VoidRow>(`SELECT * FROM label_voids WHERE label_id = ?`),
      remove: db.prepare<[number]>(`DELETE FROM label_voids WHERE label_id = ?`),
      among: db.prepare<[string], VoidRow>(
        `SELECT * FROM label_voids WHERE label_id IN (SELECT value FROM json_each(?))`,
      ),
      ofOrders: db.prepare<[string], { order_id: number } & Partial<VoidRow>>(
        `SELECT l.order_id, v.* FROM labels l LEFT JOIN label_voids v ON v.label_id = l.id
          WHERE l.order_id IN (SELECT value FROM json_each(?)) ORDER BY l.id`,
      ),
    };
  }

  /** Marks the label voided; a label already marked keeps its first mark (returned). */
  mark(labelId: number, by: string, reason: string, now = new Date()): LabelVoid {
    this.s.insert.run(labelId, by, reason, now.toISOString());
    return this.get(labelId)!;
  }

  /** Takes the mark back; false when the label had none. */
  unmark(labelId: number): boolean {
    return this.s.remove.run(labelId).changes > 0;
  }

  get(labelId: number): LabelVoid | null {
    const row = this.s.get.get(labelId);
    return row ? fromRow(row) : null;
  }

  /**
   * Among these orders, those whose every label is marked voided: each with its newest label's
   * mark (one query for a page of Orders). An order with a label still standing is not listed.
   */
  allVoidedOf(orderIds: readonly number[]): Map<number, LabelVoid> {
    const last = new Map<number, LabelVoid | null>();
    if (orderIds.length === 0) return new Map();
    for (const r of this.s.ofOrders.all(JSON.stringify(orderIds))) {
      if (last.get(r.order_id) === null) continue;
      last.set(r.order_id, r.label_id != null ? fromRow(r as VoidRow) : null);
    }
    const out = new Map<number, LabelVoid>();
    for (const [id, v] of last) if (v) out.set(id, v);
    return out;
  }

  /** The marks among these labels (one query for a page of History). */
  of(labelIds: readonly number[]): Map<number, LabelVoid> {
    const out = new Map<number, LabelVoid>();
    if (labelIds.length === 0) return out;
    for (const r of this.s.among.all(JSON.stringify(labelIds))) out.set(r.label_id, fromRow(r));
    return out;
  }
}
