import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { PlatformClient } from '../../../src/core/platform/index.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import {
  TrackerBoard,
  TrackerPoller,
  TrackerStore,
  type TrackerChange,
  type TrackingScope,
} from '../../../src/core/tracking/index.js';
import { DEMO, useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/tmp.js';
import { buyLumenLabel, clientFor } from '../platform/support.js';

const sb = useSandbox();

const lumen: TrackingScope = {
  profileId: 'p-lumen',
  environment: 'embedded-sandbox',
  tenantId: 'tnt_lumen',
};

function setup(options: { pageSize?: number; client?: PlatformClient } = {}) {
  const db = openDatabase(join(tempDir(), 'station.db'));
  const client = options.client ?? clientFor(sb, DEMO.directBrand).client;
  const store = new TrackerStore(db);
  const poller = new TrackerPoller({
    client,
    store,
    scope: lumen,
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
  });
  const emitted: TrackerChange[][] = [];
  poller.onChanges((c) => emitted.push(c));
  return { db, client, store, poller, emitted, board: new TrackerBoard(db) };
}

async function setStatus(trackingNumber: string, status: string): Promise<void> {
  const res = await fetch(`${sb.url}/sandbox/trackers/${trackingNumber}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status }),
  });
  expect(res.status).toBe(200);
}

describe('TrackerPoller against the sandbox', () => {
  it('ingests new trackers, then only what changed, and emits the changes', async () => {
    const { client, poller, emitted, board } = setup();
    const labels = [
      await buyLumenLabel(client, 'ORD-P1'),
      await buyLumenLabel(client, 'ORD-P2'),
      await buyLumenLabel(client, 'ORD-P3'),
    ];
    const numbers = labels.map((l) => l.trackingNumber);

    const first = await poller.pollNow();
    expect(first.updatedSince).toBeNull();
    const firstMine = first.changes.filter((c) => numbers.includes(c.trackingNumber));
    expect(firstMine.map((c) => [c.kind, c.status])).toEqual([
      ['new', 'PRE_TRANSIT'],
      ['new', 'PRE_TRANSIT'],
      ['new', 'PRE_TRANSIT'],
    ]);
    expect(emitted.flat()).toEqual(first.changes);

    await setStatus(numbers[1]!, 'IN_TRANSIT');
    const second = await poller.pollNow();
    expect(second.updatedSince).not.toBeNull();
    expect(second.changes).toEqual([
      expect.objectContaining({
        kind: 'updated',
        trackingNumber: numbers[1],
        previousStatus: 'PRE_TRANSIT',
        status: 'IN_TRANSIT',
        orderReference: 'ORD-P2',
      }),
    ]);
    expect(board.get(lumen, numbers[1]!)?.events.map((e) => e.status)).toEqual([
      'PRE_TRANSIT',
      'IN_TRANSIT',
    ]);

    // Nothing new: the overlap re-reads recent trackers, and nothing changes.
    const third = await poller.pollNow();
    expect(third.received).toBeGreaterThan(0);
    expect(third.changes).toEqual([]);
  });

  it('follows the sandbox clock: a day later every tracker has moved on', async () => {
    const { client, poller, board } = setup();
    const label = await buyLumenLabel(client, 'ORD-CLOCK');
    await poller.pollNow();
    await sb.advance(9 * 3600);
    const result = await poller.pollNow();
    const mine = result.changes.find((c) => c.trackingNumber === label.trackingNumber);
    expect(mine).toMatchObject({ previousStatus: 'PRE_TRANSIT', status: 'IN_TRANSIT' });
    expect(board.get(lumen, label.trackingNumber)?.status).toBe('IN_TRANSIT');
  });

  it('pages through every page', async () => {
    const { client, poller, board } = setup({ pageSize: 2 });
    for (let i = 0; i < 3; i++) await buyLumenLabel(client, `ORD-PAGE-${i}`);
    const total = (await client.listTrackers({ limit: 1000 })).items.length;
    expect(total).toBeGreaterThanOrEqual(5);
    const result = await poller.pollNow();
    expect(result.pages).toBe(Math.ceil(total / 2));
    expect(result.received).toBe(total);
    expect(board.counts(lumen).reduce((n, c) => n + c.count, 0)).toBe(total);
  });

  it('a page that fails mid-pass fails the pass and keeps the watermark; the next pass reads it all again', async () => {
    const base = clientFor(sb, DEMO.directBrand).client;
    for (let i = 0; i < 3; i++) await buyLumenLabel(base, `ORD-MIDPASS-${i}`);
    let calls = 0;
    let failSecondPage = true;
    const flaky = {
      environment: base.environment,
      listTrackers: (query: Parameters<PlatformClient['listTrackers']>[0] = {}, opts = {}) => {
        calls++;
        if (failSecondPage && query.cursor) return Promise.reject(new Error('connection reset'));
        return base.listTrackers(query, opts);
      },
    } as unknown as PlatformClient;
    const { poller, store, board } = setup({ client: flaky, pageSize: 2 });
    await expect(poller.pollNow()).rejects.toThrow('connection reset');
    // The first page is stored; the pass did not complete, so no watermark was recorded.
    expect(board.counts(lumen).reduce((n, c) => n + c.count, 0)).toBe(2);
    expect(store.syncState(lumen).watermarkMs).toBeNull();
    expect(poller.status().consecutiveFailures).toBe(1);

    failSecondPage = false;
    const again = await poller.pollNow();
    expect(again.updatedSince).toBeNull();
    expect(again.received).toBeGreaterThan(2);
    expect(board.counts(lumen).reduce((n, c) => n + c.count, 0)).toBe(again.received);
    expect(calls).toBeGreaterThan(2);
  });

  it('copes with a server that ignores updatedSince: nothing changes twice', async () => {
    const base = clientFor(sb, DEMO.directBrand).client;
    const seen: (string | undefined)[] = [];
    const ignoring = {
      environment: base.environment,
      listTrackers: (query: Parameters<PlatformClient['listTrackers']>[0] = {}, opts = {}) => {
        seen.push(query.updatedSince);
        return base.listTrackers({ ...query, updatedSince: undefined }, opts);
      },
    } as unknown as PlatformClient;
    const { poller } = setup({ client: ignoring });
    const first = await poller.pollNow();
    expect(first.changes.length).toBe(first.received);
    const again = await poller.pollNow();
    expect(seen.at(-1)).toBeDefined(); // it was asked for, the server ignored it
    expect(again.received).toBe(first.received);
    expect(again.changes).toEqual([]);
  });

  it('resumes from the stored watermark after a restart', async () => {
    const { db, client, poller } = setup();
    await buyLumenLabel(client, 'ORD-RESTART');
    const first = await poller.pollNow();
    const again = new TrackerPoller({ client, store: new TrackerStore(db), scope: lumen });
    const resumed = await again.pollNow();
    expect(resumed.updatedSince).toBe(new Date(first.watermarkMs! - 60_000).toISOString());
    expect(resumed.changes).toEqual([]);
  });

  it('sees the trackers of every brand of a 3PL, each with its own tenant', async () => {
    const harbor = clientFor(sb, DEMO.threePl).client;
    const shipment = {
      shipTo: {
        name: 'A',
        addressLine1: '1 Elm St',
        city: 'Denver',
        postalCode: '80202',
        countryCode: 'US',
      },
      shipFrom: { siteId: 'site_harbor_edison' },
      packages: [{ weightLbs: 3 }],
    };
    const label = await harbor.purchaseLabel(
      {
        carrierAccountId: 'ca_driftwood_fedex',
        serviceLevel: 'FEDEX_GROUND',
        shipment,
        orderReference: 'DW-1',
      },
      { tenantId: 'tnt_driftwood' },
    );
    const db = openDatabase(join(tempDir(), 'station.db'));
    const scope: TrackingScope = {
      profileId: 'p-harbor',
      environment: 'embedded-sandbox',
      tenantId: 'tnt_harbor',
    };
    const poller = new TrackerPoller({ client: harbor, store: new TrackerStore(db), scope });
    await poller.pollNow();
    const board = new TrackerBoard(db);
    expect(board.get(scope, label.trackingNumber)?.tenantId).toBe('tnt_driftwood');
    expect(board.list(scope, { tenantId: 'tnt_driftwood' }).map((t) => t.orderReference)).toEqual([
      'DW-1',
    ]);
    expect(board.list(scope, { tenantId: 'tnt_pinecrest' })).toEqual([]);
    // Lumen's profile never sees Harbor's brands.
    expect(board.get(lumen, label.trackingNumber)).toBeNull();
  });
});

describe('TrackerPoller schedule', () => {
  function fakeTimers() {
    const scheduled: { fn: () => void; ms: number }[] = [];
    return {
      scheduled,
      timers: {
        setTimeout: (fn: () => void, ms: number) => scheduled.push({ fn, ms }),
        clearTimeout: () => undefined,
      },
    };
  }

  it('backs off exponentially on failures, up to the ceiling, and returns to the interval', async () => {
    const db = openDatabase(join(tempDir(), 'station.db'));
    const { client } = clientFor(sb, DEMO.directBrand, { retry: { attempts: 1 } });
    const store = new TrackerStore(db);
    const { scheduled, timers } = fakeTimers();
    const poller = new TrackerPoller({
      client,
      store,
      scope: lumen,
      intervalMs: 1000,
      maxBackoffMs: 6000,
      jitter: 0.2,
      random: () => 0.5, // the middle of the jitter range: the base delay itself
      timers,
    });
    const errors: Error[] = [];
    poller.onError((e) => errors.push(e));
    sb.fault({ method: 'GET', path: '/api/v1/trackers', kind: 'status', status: 500, times: 3 });
    poller.start();
    expect(scheduled.map((s) => s.ms)).toEqual([0]);
    for (let i = 0; i < 4; i++) {
      scheduled.at(-1)!.fn();
      await vi.waitFor(() => expect(scheduled).toHaveLength(i + 2));
    }
    expect(scheduled.map((s) => s.ms)).toEqual([0, 2000, 4000, 6000, 1000]);
    expect(errors).toHaveLength(3);
    expect(errors[0]?.message).toMatch(/tracker list/);
    expect(poller.status()).toMatchObject({ consecutiveFailures: 0, running: true });
    expect(store.syncState(lumen)).toMatchObject({ consecutiveFailures: 0, lastError: null });
    await poller.stop();
    expect(poller.status()).toMatchObject({ running: false, nextDelayMs: null });
  });

  it('waits as long as a 429 or 503 says (Retry-After) before polling again, then returns to the interval', async () => {
    const db = openDatabase(join(tempDir(), 'station.db'));
    const { client } = clientFor(sb, DEMO.directBrand, { retry: { attempts: 1 } });
    const store = new TrackerStore(db);
    const { scheduled, timers } = fakeTimers();
    const poller = new TrackerPoller({
      client,
      store,
      scope: lumen,
      intervalMs: 1000,
      jitter: 0.2,
      random: () => 0.5,
      timers,
    });
    const errors: Error[] = [];
    poller.onError((e) => errors.push(e));
    sb.fault({
      method: 'GET',
      path: '/api/v1/trackers',
      kind: 'status',
      status: 429,
      retryAfterSeconds: 90,
      times: 1,
    });
    sb.fault({
      method: 'GET',
      path: '/api/v1/trackers',
      kind: 'status',
      status: 503,
      retryAfterSeconds: 1,
      times: 1,
    });
    poller.start();
    for (let i = 0; i < 3; i++) {
      scheduled.at(-1)!.fn();
      await vi.waitFor(() => expect(scheduled).toHaveLength(i + 2));
    }
    // 90 s as the 429 asked (not the 2 s backoff); the 503's 1 s is shorter than the 4 s
    // backoff, so the backoff; then the interval.
    expect(scheduled.map((s) => s.ms)).toEqual([0, 90_000, 4000, 1000]);
    expect(errors[0]?.message).toMatch(
      /too many requests \(HTTP 429\) and asked the station to wait 90 s before trying the tracker list again/,
    );
    expect(errors[1]?.message).toMatch(/HTTP 503\) and asked the station to wait 1 s/);
    await poller.stop();
  });

  it('records failures so the screen can say since when tracking is stale', async () => {
    const db = openDatabase(join(tempDir(), 'station.db'));
    const { client } = clientFor(sb, DEMO.directBrand, { retry: { attempts: 1 } });
    const store = new TrackerStore(db);
    const poller = new TrackerPoller({ client, store, scope: lumen });
    sb.fault({ method: 'GET', path: '/api/v1/trackers', kind: 'status', status: 500, times: 2 });
    await expect(poller.pollNow()).rejects.toThrow(/HTTP 500/);
    await expect(poller.pollNow()).rejects.toThrow(/HTTP 500/);
    expect(store.syncState(lumen)).toMatchObject({ consecutiveFailures: 2, watermarkMs: null });
    expect(store.syncState(lumen).lastError).toMatch(/HTTP 500/);
  });

  it('jitter spreads the interval within ±jitter', () => {
    const db = openDatabase(join(tempDir(), 'station.db'));
    const { client } = clientFor(sb, DEMO.directBrand);
    const make = (r: number) =>
      new TrackerPoller({
        client,
        store: new TrackerStore(db),
        scope: lumen,
        intervalMs: 10_000,
        jitter: 0.2,
        random: () => r,
      });
    expect(make(0).delayAfter(0)).toBe(8000);
    expect(make(0.999999).delayAfter(0)).toBe(12_000);
    expect(make(0.5).delayAfter(20)).toBe(15 * 60_000);
  });
});
