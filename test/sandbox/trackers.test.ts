/* eslint-disable @typescript-eslint/no-explicit-any -- black-box responses */
import { describe, expect, it } from 'vitest';
import { planFor } from '../../src/sandbox/trackers.js';
import { useSandbox } from '../support/sandbox.js';
import { call, expectEnvelope, labelBody } from './helpers.js';
import { type KeyName, conformanceSandbox, envelope, http, labelRequest } from './spec-world.js';

const sbx = useSandbox({ tokenTtlSeconds: 30 * 86_400 });

interface Tracker {
  id: string;
  trackingNumber: string;
  tenantId: string;
  status: string;
  updatedAt: string;
  events: { status: string; occurredAt: string }[];
}

async function buy(count: number, who: 'lumen' | 'pinecrest' = 'lumen'): Promise<string[]> {
  const headers =
    who === 'lumen'
      ? await sbx.headers('demo-lumen-full')
      : await sbx.headers('demo-harbor-full', 'tnt_pinecrest');
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const body =
      who === 'lumen'
        ? labelBody('ca_lumen_ups', 'UPS_GROUND', { orderReference: `ORD-${i}` })
        : labelBody(
            'ca_pinecrest_usps',
            'USPS_PRIORITY',
            {},
            { shipFrom: { siteId: 'site_harbor_edison' } },
          );
    const res = await call(sbx.url, 'POST', '/api/v1/labels', { headers, body });
    expect(res.status).toBe(201);
    out.push(res.body.trackingNumber);
  }
  return out;
}

async function allTrackers(headers: Record<string, string>, query = ''): Promise<Tracker[]> {
  const res = await call(sbx.url, 'GET', `/api/v1/trackers?limit=1000${query}`, { headers });
  expect(res.status).toBe(200);
  return res.body.trackers;
}

describe('trackers', () => {
  it('advance with the sandbox clock to DELIVERED within a few days; a deterministic subset takes an EXCEPTION', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const numbers = await buy(20);
    let trackers = await allTrackers(headers);
    expect(
      trackers
        .filter((t) => numbers.includes(t.trackingNumber))
        .every((t) => t.status === 'PRE_TRANSIT'),
    ).toBe(true);
    await sbx.advance(9 * 3600);
    trackers = await allTrackers(headers);
    expect(trackers.every((t) => t.status === 'IN_TRANSIT')).toBe(true);
    await sbx.advance(6 * 86_400);
    trackers = await allTrackers(headers);
    const byNumber = new Map(trackers.map((t) => [t.trackingNumber, t]));
    const final = numbers.map((n) => byNumber.get(n)!.status);
    // The 7th and 17th trackers of the sandbox hit an exception and are still delivered.
    expect(final[6]).toBe('DELIVERED');
    expect(byNumber.get(numbers[6]!)!.events.map((e) => e.status)).toEqual([
      'PRE_TRANSIT',
      'IN_TRANSIT',
      'EXCEPTION',
      'OUT_FOR_DELIVERY',
      'DELIVERED',
    ]);
    expect(byNumber.get(numbers[16]!)!.events.map((e) => e.status)).toContain('EXCEPTION');
    expect(final.filter((s) => s === 'DELIVERED')).toHaveLength(20);
    // One tracker in a hundred (the 57th, 157th…) is returned instead.
    expect(planFor(57, 3).map((step) => step.status)).toEqual([
      'IN_TRANSIT',
      'EXCEPTION',
      'RETURNED',
    ]);
    expect(planFor(157, 3).at(-1)?.status).toBe('RETURNED');
    expect(planFor(37, 3).at(-1)?.status).toBe('DELIVERED');
    const normal = byNumber.get(numbers[0]!)!;
    expect(normal.events.map((e) => e.status)).toEqual([
      'PRE_TRANSIT',
      'IN_TRANSIT',
      'OUT_FOR_DELIVERY',
      'DELIVERED',
    ]);
    const times = normal.events.map((e) => Date.parse(e.occurredAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(Date.parse(normal.updatedAt)).toBe(times.at(-1));
  });

  it('filters by updatedSince (exclusive) and pages in updatedAt order with a cursor', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const since = (await call(sbx.url, 'GET', '/sandbox/clock')).body.now as string;
    await sbx.advance(1);
    const numbers = await buy(5);
    const changed = await allTrackers(headers, `&updatedSince=${encodeURIComponent(since)}`);
    expect(changed.map((t) => t.trackingNumber).sort()).toEqual([...numbers].sort());
    const newest = changed.at(-1)!.updatedAt;
    expect(await allTrackers(headers, `&updatedSince=${encodeURIComponent(newest)}`)).toHaveLength(
      0,
    );

    const seen: Tracker[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { trackers: Tracker[]; nextCursor: string | null } } = await call(
        sbx.url,
        'GET',
        `/api/v1/trackers?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
        { headers },
      );
      expect(res.body.trackers.length).toBeLessThanOrEqual(4);
      seen.push(...res.body.trackers);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(25);
    const keys = seen.map((t) => `${t.updatedAt}|${t.id}`);
    expect([...keys].sort()).toEqual(keys);
    expectEnvelope(
      await call(sbx.url, 'GET', '/api/v1/trackers?updatedSince=yesterday', { headers }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await call(sbx.url, 'GET', '/api/v1/trackers?limit=5000', { headers }),
      400,
      'VALIDATION_ERROR',
    );
    // Said in words a person reads: "an integer", not zod's "a int".
    const fraction = expectEnvelope(
      await call(sbx.url, 'GET', '/api/v1/trackers?limit=2.5', { headers }),
      400,
      'VALIDATION_ERROR',
    );
    expect(JSON.stringify(fraction.errors)).toContain('must be an integer');
  });

  it('a 3PL token sees every merchant below it; a brand sees only its own', async () => {
    const [pine] = await buy(1, 'pinecrest');
    const harbor = await sbx.headers('demo-harbor-full');
    const asHarbor = await allTrackers(harbor);
    expect(asHarbor.map((t) => t.trackingNumber)).toContain(pine);
    expect(asHarbor.every((t) => t.tenantId === 'tnt_pinecrest')).toBe(true);
    const nexus = await allTrackers(await sbx.headers('demo-nexus-full'));
    expect(nexus.map((t) => t.trackingNumber)).toContain(pine);
    const lumen = await allTrackers(await sbx.headers('demo-lumen-full'));
    expect(lumen.map((t) => t.trackingNumber)).not.toContain(pine);
    const driftwood = await allTrackers(await sbx.headers('demo-harbor-full', 'tnt_driftwood'));
    expect(driftwood).toHaveLength(0);
  });

  it('a status set by hand bumps updatedAt and stops the automatic plan', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const [tn] = await buy(1);
    const before = (await allTrackers(headers, `&trackingNumber=${tn}`))[0]!;
    await sbx.advance(1);
    const res = await call(sbx.url, 'POST', `/sandbox/trackers/${tn}/events`, {
      body: { status: 'EXCEPTION', description: 'Damaged' },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('EXCEPTION');
    expect(res.body.updatedAt > before.updatedAt).toBe(true);
    await sbx.advance(10 * 86_400);
    const after = (await allTrackers(headers, `&trackingNumber=${tn}`))[0]!;
    expect(after.status).toBe('EXCEPTION');
    expectEnvelope(
      await call(sbx.url, 'POST', `/sandbox/trackers/${tn}/events`, { body: { status: 'LOST' } }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await call(sbx.url, 'POST', '/sandbox/trackers/NOPE/events', {
        body: { status: 'DELIVERED' },
      }),
      404,
      'NOT_FOUND',
    );
  });
});

/**
 * Conformance: GET /api/v1/trackers (spec part 4, issue 2 "Trackers"), on a sandbox whose clock
 * starts at a fixed instant.
 */
describe('from the specification alone, on the conformance world (test/fixtures/conformance-world.json)', () => {
  const sb = conformanceSandbox({ startTime: '2031-03-02T09:00:00.000Z' });

  const STATUSES = [
    'PRE_TRANSIT',
    'IN_TRANSIT',
    'OUT_FOR_DELIVERY',
    'DELIVERED',
    'EXCEPTION',
    'RETURNED',
  ];

  async function buy(key: KeyName, account: string, level: string, ref: string): Promise<string> {
    const res = await sb.api.as(key, 'POST', '/api/v1/labels', {
      ...labelRequest(account, level),
      orderReference: ref,
    });
    expect(res.status).toBeLessThan(300);
    return res.body.trackingNumber as string;
  }

  async function all(key: KeyName, query = '', tenant?: string): Promise<any[]> {
    const out: any[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 100; page++) {
      const q = new URLSearchParams(query);
      q.set('limit', '2');
      if (cursor) q.set('cursor', cursor);
      const res = await sb.api.as(key, 'GET', `/api/v1/trackers?${q}`, undefined, tenant);
      expect(res.status).toBe(200);
      out.push(...res.body.trackers);
      cursor = res.body.nextCursor;
      if (!cursor) return out;
    }
    throw new Error('paging never ended');
  }

  const numbersOf = (list: any[]) => list.map((t) => t.trackingNumber as string);

  describe('GET /api/v1/trackers', () => {
    const solo: string[] = [];
    let fern = '';

    it('pages through every tracker of the tenant, each once', async () => {
      for (let i = 0; i < 5; i++)
        solo.push(await buy('solo', 'cw-ca-solo-acme', 'ACME_GROUND', `CW-T-${i}`));
      fern = await buy('fern', 'cw-ca-fern-zippy', 'ZIPPY_GROUND', 'CW-T-FERN');
      const first = await sb.api.as('solo', 'GET', '/api/v1/trackers?limit=2');
      expect(first.body.trackers).toHaveLength(2);
      expect(first.body.nextCursor).toBeTruthy();
      const list = await all('solo');
      expect(numbersOf(list).sort()).toEqual([...solo].sort());
      for (const t of list) {
        expect(STATUSES).toContain(t.status);
        expect(t.status).toBe('PRE_TRANSIT');
        expect(Number.isNaN(Date.parse(t.updatedAt))).toBe(false);
      }
    });

    it('a 3PL token sees the trackers of every merchant below it; a brand only its own', async () => {
      const keel = await all('keel');
      expect(numbersOf(keel)).toContain(fern);
      expect(numbersOf(keel)).not.toContain(solo[0]);
      const orbit = await all('orbit');
      expect(numbersOf(orbit)).toContain(fern);
      const fernOnly = await all('fern');
      expect(numbersOf(fernOnly)).toEqual([fern]);
      const mast = await all('mast');
      expect(numbersOf(mast)).toEqual([]);
    });

    it('statuses advance with the sandbox clock and carry updatedAt; DELIVERED within a few days', async () => {
      const before = (await all('solo')).find((t) => t.trackingNumber === solo[0]);
      await sb.api.advance(12 * 3600);
      const moving = (await all('solo')).find((t) => t.trackingNumber === solo[0]);
      expect(moving.status).toBe('IN_TRANSIT');
      expect(Date.parse(moving.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
      await sb.api.advance(3 * 86_400);
      sb.api.forget();
      const done = await all('solo');
      for (const t of done) expect(t.status).toBe('DELIVERED');
      const fernDone = await all('fern');
      expect(fernDone[0].status).toBe('DELIVERED');
    });

    it('updatedSince returns only trackers changed after it', async () => {
      const now = (await http(sb.sandbox.url, 'GET', '/sandbox/clock')).body.now as string;
      expect(await all('solo', `updatedSince=${encodeURIComponent(now)}`)).toEqual([]);
      const fresh = await buy('solo', 'cw-ca-solo-zippy', 'ZIPPY_GROUND', 'CW-T-FRESH');
      const since = await all('solo', `updatedSince=${encodeURIComponent(now)}`);
      expect(numbersOf(since)).toEqual([fresh]);
      const everything = await all('solo', 'updatedSince=2000-01-01T00:00:00.000Z');
      expect(everything.length).toBe(solo.length + 1);
      const bad = await sb.api.as('solo', 'GET', '/api/v1/trackers?updatedSince=yesterday');
      envelope(bad, 400);
    });
  });
});
