import { describe, expect, it } from 'vitest';
import { pageOf, TrackerSchema } from '../../../src/core/platform/schemas.js';
import { readTrackerPage } from '../../../src/core/platform/tracker-page.js';

const schema = pageOf('trackers', TrackerSchema);

const tracker = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `trk_${n}`,
  trackingNumber: `1Z${n}`,
  carrier: 'UPS',
  status: 'IN_TRANSIT',
  statusDetail: null,
  updatedAt: '2026-11-24T10:00:00.000Z',
  events: [{ status: 'PRE_TRANSIT', description: 'Label created', occurredAt: null }],
  somethingNew: { nested: true },
  ...extra,
});

describe('the tracker list read without the schema', () => {
  it('gives what the schema gives for every shape of a valid page', () => {
    const valid: unknown[] = [
      [tracker(1), tracker(2)],
      { trackers: [tracker(1)], nextCursor: 'c2', hasMore: true },
      { items: [tracker(1)], nextCursor: 7 },
      { data: [], hasMore: null },
      { trackers: [tracker(3, { events: null, carrier: undefined })], nextCursor: null },
      { trackers: [tracker(4)], items: [tracker(5)], extraField: 1 },
    ];
    for (const body of valid) expect(readTrackerPage(body)).toEqual(schema.parse(body));
  });

  it('leaves every page the schema refuses to the schema', () => {
    const invalid: unknown[] = [
      null,
      'trackers',
      {},
      { trackers: null },
      { trackers: [tracker(1, { trackingNumber: '' })] },
      { trackers: [tracker(1, { updatedAt: 'yesterday' })] },
      { trackers: [tracker(1, { status: 3 })] },
      { trackers: [tracker(1, { events: [{ status: 1 }] })] },
      { trackers: [tracker(1, { events: {} })] },
      { trackers: [tracker(1)], items: 'not a list' },
      { trackers: [tracker(1)], nextCursor: true },
      { trackers: [tracker(1)], hasMore: 'yes' },
      [tracker(1), 'x'],
    ];
    for (const body of invalid) {
      expect(schema.safeParse(body).success).toBe(false);
      expect(readTrackerPage(body)).toBeUndefined();
    }
  });
});
