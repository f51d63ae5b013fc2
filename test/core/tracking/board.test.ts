import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Tracker } from '../../../src/core/platform/index.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import {
  TrackerBoard,
  TrackerStore,
  trackerStatuses,
  type TrackingScope,
} from '../../../src/core/tracking/index.js';
import { eventsJson } from '../../../src/core/tracking/store.js';
import { tempDir } from '../../support/tmp.js';

const scope: TrackingScope = { profileId: 'p1', environment: 'sandbox', tenantId: 'tnt_harbor' };
const NOW = '2026-11-21T12:00:00.000Z';

function tracker(i: number, overrides: Partial<Tracker> = {}): Tracker {
  return {
    id: `trk_${i}`,
    trackingNumber: `1Z${String(i).padStart(8, '0')}`,
    carrier: i % 3 === 0 ? 'UPS' : 'FEDEX',
    tenantId: i % 2 === 0 ? 'tnt_driftwood' : 'tnt_pinecrest',
    orderReference: `ORD-${i}`,
    status: trackerStatuses[i % trackerStatuses.length],
    updatedAt: new Date(Date.parse('2026-11-01T00:00:00Z') + i * 60_000).toISOString(),
    events: [{ status: 'PRE_TRANSIT', occurredAt: '2026-11-01T00:00:00Z' }],
    ...overrides,
  };
}

function open() {
  const db = openDatabase(join(tempDir(), 'station.db'));
  return { db, store: new TrackerStore(db), board: new TrackerBoard(db) };
}

describe('tracker store: newer wins', () => {
  it('ignores an older or equal updatedAt, even within one page', () => {
    const { store, board } = open();
    const newer = tracker(1, { status: 'IN_TRANSIT', updatedAt: '2026-11-21T10:00:00.000Z' });
    const older = tracker(1, { status: 'PRE_TRANSIT', updatedAt: '2026-11-21T09:00:00.000Z' });
    const changes = store.ingest(scope, [newer, older, newer], NOW);
    expect(changes.map((c) => c.status)).toEqual(['IN_TRANSIT']);
    expect(store.ingest(scope, [older], NOW)).toEqual([]);
    expect(board.get(scope, newer.trackingNumber)?.status).toBe('IN_TRANSIT');
    const later = tracker(1, { status: 'DELIVERED', updatedAt: '2026-11-21T11:00:00.000Z' });
    expect(store.ingest(scope, [later], NOW)).toEqual([
      expect.objectContaining({
        kind: 'updated',
        previousStatus: 'IN_TRANSIT',
        status: 'DELIVERED',
      }),
    ]);
  });

  it('keeps a tracker without a status or tenant, under UNKNOWN and the polled tenant', () => {
    const { store, board } = open();
    store.ingest(scope, [{ trackingNumber: 'X1', updatedAt: '2026-11-21T10:00:00Z' }], NOW);
    expect(board.get(scope, 'X1')).toMatchObject({ status: 'UNKNOWN', tenantId: 'tnt_harbor' });
    expect(board.counts(scope).at(-1)).toEqual({ status: 'UNKNOWN', count: 1 });
  });

  it('gives times in one form whatever form the platform wrote them in, and keeps events in order', () => {
    const { store, board } = open();
    const [change] = store.ingest(
      scope,
      [
        {
          trackingNumber: 'X2',
          updatedAt: '2026-11-21T10:00:00+02:00',
          events: [
            { status: 'PRE_TRANSIT', description: 'Label "created"', extra: 1 },
            { status: 'IN_TRANSIT', location: 'Reno, NV', occurredAt: '2026-11-21T08:00:00Z' },
          ],
        } as Tracker,
      ],
      NOW,
    );
    expect(change?.updatedAt).toBe('2026-11-21T08:00:00.000Z');
    expect(board.get(scope, 'X2')).toMatchObject({
      updatedAt: '2026-11-21T08:00:00.000Z',
      firstSeenAt: NOW,
      lastChangedAt: NOW,
      events: [
        { status: 'PRE_TRANSIT', description: 'Label "created"', location: null, occurredAt: null },
        {
          status: 'IN_TRANSIT',
          description: null,
          location: 'Reno, NV',
          occurredAt: '2026-11-21T08:00:00Z',
        },
      ],
    });
  });
});

describe('tracker board at 12,000 trackers', () => {
  const N = 12_000;
  const { store, board } = open();
  const all = Array.from({ length: N }, (_, i) => tracker(i));
  for (let i = 0; i < N; i += 1000) store.ingest(scope, all.slice(i, i + 1000), NOW);
  // The same tracking numbers in another profile and environment: never visible here.
  store.ingest({ ...scope, environment: 'production' }, all.slice(0, 500), NOW);
  store.ingest({ ...scope, profileId: 'p2' }, all.slice(0, 500), NOW);

  it('counts by status, every known status in board order', () => {
    const counts = board.counts(scope);
    expect(counts.map((c) => c.status)).toEqual([...trackerStatuses]);
    expect(counts.every((c) => c.count === N / trackerStatuses.length)).toBe(true);
    const brand = board.counts(scope, { tenantId: 'tnt_driftwood' });
    expect(brand.reduce((n, c) => n + c.count, 0)).toBe(N / 2);
  });

  it('lists one status newest first, filtered by brand and carrier', () => {
    const rows = board.list(scope, {
      status: 'PRE_TRANSIT',
      tenantId: 'tnt_driftwood',
      carrier: 'UPS',
      limit: 5,
    });
    expect(rows).toHaveLength(5);
    for (const r of rows)
      expect(r).toMatchObject({ status: 'PRE_TRANSIT', tenantId: 'tnt_driftwood', carrier: 'UPS' });
    const times = rows.map((r) => Date.parse(r.updatedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(rows[0]?.trackingNumber).toBe(
      all
        .filter(
          (t) =>
            t.status === 'PRE_TRANSIT' && t.tenantId === 'tnt_driftwood' && t.carrier === 'UPS',
        )
        .at(-1)?.trackingNumber,
    );
  });

  it('searches tracking numbers and order references, case-insensitively, wildcards literal', () => {
    expect(
      board
        .list(scope, { search: 'ord-1234' })
        .map((r) => r.orderReference)
        .sort(),
    ).toEqual(
      [
        'ORD-1234',
        'ORD-12340',
        'ORD-12341',
        'ORD-12342',
        'ORD-12343',
        'ORD-12344',
        'ORD-12345',
        'ORD-12346',
        'ORD-12347',
        'ORD-12348',
        'ORD-12349',
      ]
        .filter((o) => Number(o.slice(4)) < N)
        .sort(),
    );
    expect(board.list(scope, { search: '1z00000042' }).map((r) => r.trackingNumber)).toEqual([
      '1Z00000042',
    ]);
    expect(board.list(scope, { search: '%' })).toEqual([]);
  });

  it('pages with limit and offset', () => {
    const page1 = board.list(scope, { status: 'IN_TRANSIT', limit: 10 });
    const page2 = board.list(scope, { status: 'IN_TRANSIT', limit: 10, offset: 10 });
    expect(new Set([...page1, ...page2].map((r) => r.trackingNumber)).size).toBe(20);
  });

  it('uses an index for the board queries, not a table scan', () => {
    expect(board.explainList(scope, { status: 'IN_TRANSIT' })).toMatch(
      /USING INDEX trackers_by_status/,
    );
    expect(board.explainList(scope, { status: 'IN_TRANSIT', tenantId: 'tnt_driftwood' })).toMatch(
      /USING INDEX trackers_by_(tenant|status)/,
    );
    expect(board.explainList(scope, { status: 'IN_TRANSIT' })).not.toMatch(/^SCAN trackers$/m);
  });
});

describe('tracker events as stored', () => {
  it('are the JSON of [status, description, location, occurredAt] whatever the text holds', () => {
    const texts = [
      'Picked up by carrier',
      'Zürich, CH — São Paulo',
      'He said "left at door"',
      'C:\\depot\\bay 4',
      'line one\nline two\ttab',
      'bell \u0007',
      'emoji 📦',
      'lone \ud800 surrogate',
      '',
    ];
    const events = [
      ...texts.map((t, i) => ({
        status: i % 2 ? t : 'IN_TRANSIT',
        description: t,
        location: i % 3 ? null : t,
        ...(i % 4 ? { occurredAt: '2026-11-21T08:00:00Z' } : {}),
      })),
      // All four fields text: each one in turn holds what JSON escapes, the others plain.
      ...texts.flatMap((t) =>
        [0, 1, 2, 3].map((k) => {
          const fields = ['IN_TRANSIT', 'Departed facility', 'Memphis, TN', '2026-11-21T09:00:00Z'];
          fields[k] = t;
          const [status, description, location, occurredAt] = fields;
          return { status, description, location, occurredAt };
        }),
      ),
    ];
    const expected = JSON.stringify(
      events.map((e) => [e.status, e.description, e.location, e.occurredAt ?? null]),
    );
    expect(eventsJson(events)).toBe(expected);
    expect(JSON.parse(eventsJson(events))).toEqual(JSON.parse(expected));
    expect(eventsJson([])).toBe('[]');
    expect(eventsJson(undefined)).toBe('[]');
  });
});
