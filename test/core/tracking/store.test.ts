import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Tracker } from '../../../src/core/platform/schemas.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import {
  TrackerBoard,
  TrackerStore,
  type TrackingScope,
} from '../../../src/core/tracking/index.js';
import { tempDir } from '../../support/tmp.js';

const scope: TrackingScope = {
  profileId: 'p',
  environment: 'embedded-sandbox',
  tenantId: 'tnt_3pl',
};
const NOW = '2026-11-25T12:00:00.000Z';

function tracker(n: number, minute: number, status = 'IN_TRANSIT'): Tracker {
  return {
    id: `trk_${n}`,
    trackingNumber: `1ZTEST${String(n).padStart(4, '0')}`,
    carrier: 'UPS',
    serviceLevel: 'UPS_GROUND',
    tenantId: n % 2 ? 'tnt_a' : 'tnt_b',
    labelId: `lbl_${n}`,
    orderReference: `ORD-${n}`,
    status,
    statusDetail: `detail "${n}"`,
    estimatedDeliveryDate: '2026-11-28T00:00:00.000Z',
    events: [
      {
        status: 'PRE_TRANSIT',
        description: 'Label created',
        location: 'Chicago, IL, US',
        occurredAt: '2026-11-24T10:00:00.000Z',
      },
      { status, description: `Step ${n}\n"quoted"`, location: null, occurredAt: null },
    ],
    createdAt: '2026-11-24T10:00:00.000Z',
    updatedAt: `2026-11-25T10:${String(minute).padStart(2, '0')}:00.000Z`,
  } as Tracker;
}

const total = (board: TrackerBoard) => board.counts(scope).reduce((n, c) => n + c.count, 0);

function setup() {
  const db = openDatabase(join(tempDir(), 'station.db'));
  return { db, store: new TrackerStore(db), board: new TrackerBoard(db) };
}

describe('TrackerStore pages', () => {
  it('stores every tracker of a page of any length as it came (rows written ten to a statement)', () => {
    const { store, board } = setup();
    // 27 trackers: two statements of ten, then seven one by one.
    const page = Array.from({ length: 27 }, (_, i) => tracker(i + 1, i));
    const { changes, newestMs } = store.ingestPage(scope, page, NOW);
    expect(changes).toHaveLength(27);
    expect(newestMs).toBe(Date.parse(page[26]!.updatedAt));
    for (const t of page) {
      // Every field read back as it came: a value written to another column shows here.
      expect(board.get(scope, t.trackingNumber)).toEqual({
        trackingNumber: t.trackingNumber,
        trackerId: t.id,
        tenantId: t.tenantId,
        carrier: t.carrier,
        serviceLevel: t.serviceLevel,
        labelId: t.labelId,
        orderReference: t.orderReference,
        status: t.status,
        statusDetail: t.statusDetail,
        estimatedDeliveryDate: t.estimatedDeliveryDate,
        events: t.events,
        createdAt: t.createdAt,
        updatedAt: t.updatedAt,
        firstSeenAt: NOW,
        lastChangedAt: NOW,
      });
    }
  });

  it('a tracking number listed twice in one page keeps the newer entry, whichever comes first', () => {
    const { store, board } = setup();
    const page = Array.from({ length: 12 }, (_, i) => tracker(i + 1, 10));
    // Within the first statement of ten: older then newer; and newer then older.
    page[2] = tracker(1, 5, 'PRE_TRANSIT');
    page[3] = tracker(1, 20, 'DELIVERED');
    page[6] = tracker(2, 30, 'OUT_FOR_DELIVERY');
    page[7] = tracker(2, 1, 'PRE_TRANSIT');
    const { changes } = store.ingestPage(scope, page, NOW);
    expect(board.get(scope, tracker(1, 0).trackingNumber)?.status).toBe('DELIVERED');
    expect(board.get(scope, tracker(2, 0).trackingNumber)?.status).toBe('OUT_FOR_DELIVERY');
    // Each change the store reports happened: no entry older than one already taken.
    const forOne = changes.filter((c) => c.trackingNumber === tracker(1, 0).trackingNumber);
    expect(forOne.at(-1)?.status).toBe('DELIVERED');
    const forTwo = changes.filter((c) => c.trackingNumber === tracker(2, 0).trackingNumber);
    expect(forTwo.map((c) => c.status)).toEqual(['IN_TRANSIT', 'OUT_FOR_DELIVERY']);
  });

  it('a tracking number listed in two statements of one page keeps the newer entry', () => {
    const { store, board } = setup();
    const page = Array.from({ length: 25 }, (_, i) => tracker(i + 1, 10));
    page[5] = tracker(3, 50, 'DELIVERED'); // first statement of ten: the newer
    page[15] = tracker(3, 20, 'EXCEPTION'); // second statement: older, changes nothing
    page[22] = tracker(4, 5, 'PRE_TRANSIT'); // written one by one after the two statements…
    page[8] = tracker(4, 40, 'OUT_FOR_DELIVERY'); // …older than this one in the first
    store.ingestPage(scope, page, NOW);
    expect(board.get(scope, tracker(3, 0).trackingNumber)?.status).toBe('DELIVERED');
    expect(board.get(scope, tracker(4, 0).trackingNumber)?.status).toBe('OUT_FOR_DELIVERY');
  });

  it('the next page changes only what is newer, and says what it was before', () => {
    const { store, board } = setup();
    const first = Array.from({ length: 15 }, (_, i) => tracker(i + 1, 10));
    store.ingestPage(scope, first, NOW);
    const again = first.map((t, i) => (i % 3 === 0 ? tracker(i + 1, 40, 'DELIVERED') : t));
    const { changes } = store.ingestPage(scope, again, '2026-11-25T13:00:00.000Z');
    expect(changes.map((c) => [c.kind, c.previousStatus, c.status])).toEqual(
      Array.from({ length: 5 }, () => ['updated', 'IN_TRANSIT', 'DELIVERED']),
    );
    expect(board.counts(scope).find((c) => c.status === 'DELIVERED')?.count).toBe(5);
    const moved = board.get(scope, first[0]!.trackingNumber)!;
    expect(moved.firstSeenAt).toBe(NOW);
    expect(moved.lastChangedAt).toBe('2026-11-25T13:00:00.000Z');
  });

  it('a page that fails part way stores none of it', () => {
    const { store, board } = setup();
    const page = Array.from({ length: 14 }, (_, i) => tracker(i + 1, 10));
    // A tracker the database refuses (a tracking number that is not text) after the first ten.
    page[12] = { ...tracker(13, 10), trackingNumber: { not: 'text' } } as unknown as Tracker;
    expect(() => store.ingestPage(scope, page, NOW)).toThrow();
    expect(total(board)).toBe(0);
    // …and the store is usable afterwards (nothing of the failed page left queued).
    store.ingestPage(scope, page.slice(0, 3), NOW);
    expect(total(board)).toBe(3);
  });
});
