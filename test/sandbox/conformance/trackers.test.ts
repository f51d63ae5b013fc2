/* eslint-disable @typescript-eslint/no-explicit-any -- black-box responses */
/**
 * Conformance: GET /api/v1/trackers (spec part 4, issue 2 "Trackers"), on a sandbox whose clock
 * starts at a fixed instant.
 */
import { describe, expect, it } from 'vitest';
import { type KeyName, conformanceSandbox, envelope, http, labelRequest } from './support.js';

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

  it('some trackers take an EXCEPTION', async () => {
    const numbers: string[] = [];
    for (let i = 0; i < 14; i++)
      numbers.push(await buy('solo', 'cw-ca-solo-zippy', 'ZIPPY_GROUND', `CW-X-${i}`));
    const seen = new Map<string, Set<string>>();
    for (let hour = 0; hour < 4 * 24; hour += 6) {
      await sb.api.advance(6 * 3600);
      sb.api.forget();
      for (const t of await all('solo')) {
        const set = seen.get(t.trackingNumber) ?? new Set<string>();
        set.add(t.status);
        seen.set(t.trackingNumber, set);
      }
    }
    const exceptions = numbers.filter((n) => seen.get(n)?.has('EXCEPTION'));
    expect(exceptions.length).toBeGreaterThan(0);
    expect(exceptions.length).toBeLessThan(numbers.length);
    const delivered = numbers.filter((n) => seen.get(n)?.has('DELIVERED'));
    expect(delivered.length).toBeGreaterThan(numbers.length / 2);
  });

  it('the admin route sets a status, which shows with a newer updatedAt', async () => {
    const tn = await buy('solo', 'cw-ca-solo-acme', 'ACME_OVERNIGHT', 'CW-T-ADMIN');
    const before = (await all('solo')).find((t) => t.trackingNumber === tn);
    await sb.api.advance(1);
    const set = await http(sb.sandbox.url, 'POST', `/sandbox/trackers/${tn}/events`, {
      json: { status: 'EXCEPTION' },
    });
    expect(set.status).toBe(200);
    const after = (await all('solo')).find((t) => t.trackingNumber === tn);
    expect(after.status).toBe('EXCEPTION');
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    const unknown = await http(sb.sandbox.url, 'POST', '/sandbox/trackers/NOPE123/events', {
      json: { status: 'DELIVERED' },
    });
    envelope(unknown, 404);
    const badStatus = await http(sb.sandbox.url, 'POST', `/sandbox/trackers/${tn}/events`, {
      json: { status: 'LOST_IN_SPACE' },
    });
    envelope(badStatus, 400);
  });
});
