import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openDatabase, schemaVersion } from '../../../src/core/storage/database.js';
import { migrations } from '../../../src/core/storage/migrations/index.js';
import { TrackerBoard } from '../../../src/core/tracking/board.js';
import { TrackerStore } from '../../../src/core/tracking/store.js';
import { tempDir } from '../../support/tmp.js';

const scope = { profileId: 'lumen', environment: 'sandbox' as const, tenantId: 'tnt_lumen' };

/** A station database as version 8 left it: trackers keyed by text, events as objects. */
function databaseAtVersion8(file: string) {
  const db = openDatabase(file, { migrations: migrations.slice(0, 8) });
  const insert = db.prepare(`
    INSERT INTO trackers (profile_id, environment, scope_tenant_id, tracking_number, tracker_id,
      tenant_id, carrier, service_level, label_id, order_reference, status, status_detail,
      estimated_delivery_date, events_json, created_at, updated_at, updated_at_ms,
      first_seen_at, last_changed_at)
    VALUES (?, ?, ?, ?, ?, ?, 'UPS', 'UPS_GROUND', ?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?, ?)`);
  insert.run(
    'lumen',
    'sandbox',
    'tnt_lumen',
    '1Z0001',
    'trk_1',
    'tnt_lumen',
    'lbl_1',
    'A-1',
    'IN_TRANSIT',
    JSON.stringify([
      {
        status: 'PRE_TRANSIT',
        description: 'Label created',
        location: 'Austin, TX',
        occurredAt: '2026-11-20T10:00:00.000Z',
      },
      {
        status: 'IN_TRANSIT',
        description: 'Picked up',
        location: null,
        occurredAt: '2026-11-21T08:30:00.000Z',
      },
    ]),
    '2026-11-20T10:00:00.000Z',
    '2026-11-21T08:30:00.000Z',
    Date.parse('2026-11-21T08:30:00.000Z'),
    '2026-11-20T10:05:00.123Z',
    '2026-11-21T08:31:00.456Z',
  );
  // The same number in another environment and a brand of a 3PL's scope stay apart.
  insert.run(
    'lumen',
    'production',
    'tnt_lumen',
    '1Z0001',
    'trk_9',
    'tnt_lumen',
    'lbl_9',
    'A-1',
    'DELIVERED',
    '[]',
    null,
    '2026-11-22T00:00:00.000Z',
    Date.parse('2026-11-22T00:00:00.000Z'),
    '2026-11-22T00:00:01.000Z',
    '2026-11-22T00:00:01.000Z',
  );
  db.prepare(
    `INSERT INTO tracker_sync (profile_id, environment, scope_tenant_id, watermark_ms, consecutive_failures)
     VALUES ('lumen', 'sandbox', 'tnt_lumen', ?, 0)`,
  ).run(Date.parse('2026-11-21T08:30:00.000Z'));
  db.close();
}

describe('migration 9: the trackers table by rowid', () => {
  it('keeps every tracker, its events in order, its times and the watermark', () => {
    const file = join(tempDir(), 'station.db');
    databaseAtVersion8(file);
    const db = openDatabase(file);
    expect(schemaVersion(db)).toBe(migrations.length);
    const board = new TrackerBoard(db);
    expect(board.get(scope, '1Z0001')).toEqual({
      trackingNumber: '1Z0001',
      trackerId: 'trk_1',
      tenantId: 'tnt_lumen',
      carrier: 'UPS',
      serviceLevel: 'UPS_GROUND',
      labelId: 'lbl_1',
      orderReference: 'A-1',
      status: 'IN_TRANSIT',
      statusDetail: null,
      estimatedDeliveryDate: null,
      events: [
        {
          status: 'PRE_TRANSIT',
          description: 'Label created',
          location: 'Austin, TX',
          occurredAt: '2026-11-20T10:00:00.000Z',
        },
        {
          status: 'IN_TRANSIT',
          description: 'Picked up',
          location: null,
          occurredAt: '2026-11-21T08:30:00.000Z',
        },
      ],
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-21T08:30:00.000Z',
      firstSeenAt: '2026-11-20T10:05:00.123Z',
      lastChangedAt: '2026-11-21T08:31:00.456Z',
    });
    expect(board.get({ ...scope, environment: 'production' }, '1Z0001')?.status).toBe('DELIVERED');
    expect(board.get({ ...scope, environment: 'production' }, '1Z0001')?.events).toEqual([]);
    const store = new TrackerStore(db);
    expect(store.syncState(scope).watermarkMs).toBe(Date.parse('2026-11-21T08:30:00.000Z'));
    // The newer-wins rule holds across the migration: an older copy changes nothing, a newer one does.
    const tracker = {
      trackingNumber: '1Z0001',
      status: 'PRE_TRANSIT',
      updatedAt: '2026-11-20T10:00:00.000Z',
    };
    expect(store.ingest(scope, [tracker], new Date().toISOString())).toEqual([]);
    const changes = store.ingest(
      scope,
      [{ ...tracker, status: 'DELIVERED', updatedAt: '2026-11-23T12:00:00.000Z' }],
      new Date().toISOString(),
    );
    expect(changes).toMatchObject([
      { kind: 'updated', previousStatus: 'IN_TRANSIT', status: 'DELIVERED' },
    ]);
    expect(board.counts(scope).find((c) => c.status === 'DELIVERED')?.count).toBe(1);
    db.close();
  });
});
