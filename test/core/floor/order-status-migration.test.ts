import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { OrderList } from '../../../src/core/orders/order-list.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import { useSandbox } from '../../support/sandbox.js';
import { orderId, stationFor, statusDrift } from '../packing/support/harness.js';
import { lumenProfile } from '../packing/support/station.js';

// Migration 12 keeps each order's status for the Orders view. A station upgraded to it works
// every existing order's status out once: the view then shows what it showed before.

const sb = useSandbox();

describe('the Orders view after the upgrade to kept statuses (migration 12)', () => {
  it("gives every existing order the status its rows give, and the view's pages are unchanged", async () => {
    sb.clearFaults();
    const s = await stationFor((printers) => lumenProfile(sb.url, printers));
    s.importSamples();
    expect((await s.workflow.ship(orderId(s, 'LUM-10421'), { stationUser: 'ana' })).outcome).toBe(
      'printed',
    );
    s.workflow.verification.scan(s.workflow.orders.get(orderId(s, 'LUM-10422'))!, 'CNDL-SEA-12', {
      quantity: 3,
    });
    sb.fault({ method: 'POST', path: '/api/v1/labels', times: 1, kind: 'status', status: 400 });
    expect((await s.workflow.ship(orderId(s, 'LUM-10423'), { stationUser: 'ana' })).outcome).toBe(
      'failed',
    );
    const scope = s.workflow.scope;
    const before = new OrderList(s.db).page(scope, { limit: 200 });
    expect(before.counts).toEqual({
      open: 3,
      verified: 1,
      labelled: 1,
      queued: 0,
      failed: 1,
      cancelled: 0,
    });
    await s.spool.stop();
    s.close();

    // The same database as schema 11 had it: no kept statuses (nor the later migrations' tables).
    const raw = new Database(s.dbFile);
    const triggers = raw
      .prepare<[], string>(
        `SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'order_status_%'`,
      )
      .pluck()
      .all();
    expect(triggers.length).toBeGreaterThan(0);
    for (const name of triggers) raw.exec(`DROP TRIGGER ${name}`);
    raw.exec(
      'DROP VIEW order_status_now; DROP TABLE order_status; DROP TABLE platform_names; ' +
        'ALTER TABLE orders DROP COLUMN search_text; DROP TABLE import_alerts; DROP TABLE site_labelled_elsewhere; ' +
        'DROP TRIGGER site_outbox_order_cancel; ALTER TABLE orders DROP COLUMN cancelled; ' +
        'DROP INDEX reprints_by_time; ALTER TABLE site_sync DROP COLUMN store_identity; ' +
        'DROP TRIGGER site_outbox_label_void; DROP TRIGGER site_outbox_label_unvoid; DROP TABLE label_voids; ' +
        'ALTER TABLE orders DROP COLUMN shipping_changed_at; ALTER TABLE orders DROP COLUMN shipping_changed; ' +
        'DROP TABLE manifest_labels; ' +
        'PRAGMA user_version = 11',
    );
    raw.close();

    const db = openDatabase(s.dbFile);
    try {
      expect(statusDrift(db)).toEqual([]);
      const after = new OrderList(db).page(scope, { limit: 200 });
      expect(after).toEqual(before);
    } finally {
      db.close();
    }
  });
});
