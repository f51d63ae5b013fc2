import { describe, expect, it } from 'vitest';
import { startVirtualPrinter } from '../../../src/core/printing/virtual-printer/server.js';
import {
  call,
  demoStationsPerTest,
  packOrder,
  rateOrder,
  refuseEveryRate,
  scanOrder,
  until,
  type Sandbox,
} from './support.js';

/**
 * Issue 13, what a shift lead hits on the first day, through the station's contract: a demo
 * station on its embedded sandbox, real SQLite, real TCP printers.
 */

const stations = demoStationsPerTest();
const station = () => stations.start();

const demoOrders = ['LUM-10421', 'LUM-10422', 'LUM-10423', 'LUM-10424', 'LUM-10425'];

describe('History pages with a real total (#13.13)', () => {
  it('counts every match and pages through them with offset', async () => {
    const { s } = await station();
    for (const n of demoOrders) await packOrder(s, n);

    const first = await call(s, 'labels.search', { limit: 2, offset: 0 });
    expect(first.total).toBe(5);
    expect(first.offset).toBe(0);
    expect(first.labels).toHaveLength(2);
    const second = await call(s, 'labels.search', { limit: 2, offset: 2 });
    const third = await call(s, 'labels.search', { limit: 2, offset: 4 });
    expect(second.total).toBe(5);
    expect(second.labels).toHaveLength(2);
    expect(third.labels).toHaveLength(1);
    const seen = [...first.labels, ...second.labels, ...third.labels].map((l) => l.orderNumber);
    expect([...seen].sort()).toEqual(demoOrders);

    // A search counts its own matches, and a package's tracking number finds its label.
    const one = await call(s, 'labels.search', { query: 'LUM-10424' });
    expect(one.total).toBe(1);
    const byTracking = await call(s, 'labels.search', {
      query: one.labels[0]!.packageTrackingNumbers[1]!,
    });
    expect(byTracking.labels.map((l) => l.orderNumber)).toEqual(['LUM-10424']);
    expect(byTracking.total).toBe(1);

    // Typed as people type it: lower case, the label's REF, the beginning of a number.
    const found = async (query: string) =>
      (await call(s, 'labels.search', { query })).labels.map((l) => l.orderNumber).sort();
    expect(await found('lum-10424')).toEqual(['LUM-10424']);
    const ref = (await call(s, 'labels.get', { id: one.labels[0]!.id })).zpl!;
    const printedRef = /REF (LUM-10424-[0-9A-F]{8})/.exec(ref)![1]!;
    expect(await found(printedRef.toLowerCase())).toEqual(['LUM-10424']);
    expect(await found('LUM-1042')).toEqual([...demoOrders].sort());
    expect(await found('lum-1042')).toEqual([...demoOrders].sort());
    expect(await found('LUM-10429')).toEqual([]);
    expect(await found('LU')).toEqual([]); // two characters: too little to be a beginning
    // A part in the middle, from four characters: of an order number, or a tracking number's
    // last digits; said as found that way.
    const middle = await call(s, 'labels.search', { query: '0424' });
    expect(middle.labels.map((l) => l.orderNumber)).toContain('LUM-10424');
    // Any other label found has the part in a tracking number (the sandbox's carry a random
    // four-digit run: one run in a thousand has "0424" in a USPS number, 9400 + 424x).
    for (const l of middle.labels.filter((x) => x.orderNumber !== 'LUM-10424'))
      expect([l.trackingNumber, ...l.packageTrackingNumbers].join(' ')).toContain('0424');
    expect(middle.note).toMatch(/^found by a part of the number, among the newest 100,000 labels$/);
    expect(await found('um-1042')).toEqual([...demoOrders].sort());
    const tail = one.labels[0]!.trackingNumber.slice(-6);
    expect(await found(tail)).toContain('LUM-10424');
    expect(await found('042')).toEqual([]); // three characters: too little for a part
    // Nothing found is said with why, not a bare "No labels".
    expect((await call(s, 'labels.search', { query: 'LU' })).note).toBe(
      'No label has the order or tracking number LU: from 3 characters, order numbers that begin with them are found too.',
    );
    expect((await call(s, 'labels.search', { query: 'ZZZZ-1' })).note).toBe(
      'No label has ZZZZ-1 in its order or tracking number.',
    );
    const backwards = await call(s, 'labels.search', { from: '2026-11-30', to: '2026-11-28' });
    expect(backwards).toMatchObject({ total: 0, labels: [] });
    expect(backwards.note).toBe(
      'The first day (2026-11-30) is after the last (2026-11-28): no label can match.',
    );
  });
});

describe('Needs attention keeps its promises (#13.16)', () => {
  it('offers "mark it printed" for a print job that may not have printed, and does it', async () => {
    const { s } = await station();
    const vp = await startVirtualPrinter({ dpi: 203 });
    stations.onEnd(() => vp.close());
    await call(s, 'profiles.update', {
      id: 'demo',
      printers: [
        { id: 'vp', name: 'ZD421', kind: 'network', address: `127.0.0.1:${vp.port}`, dpi: 203 },
      ],
      defaultPrinterId: 'vp',
    });
    vp.dropAfterNextLabel();
    await packOrder(s, 'LUM-10421');
    const item = await until(async () =>
      (await call(s, 'attention.list', {})).find((i) => i.kind === 'print-failed'),
    );
    expect(item.detail).toMatch(/mark it printed/);
    expect(item.actions).toContain('mark-printed');

    await call(s, 'attention.resolve', {
      id: item.id,
      action: 'mark-printed',
      note: 'saw it come out',
    });
    expect((await call(s, 'attention.list', {})).filter((i) => i.kind === 'print-failed')).toEqual(
      [],
    );
    const job = s.context.spool.get(Number(item.id.split(':')[1]));
    expect(job?.state).toBe('printed');
    expect(s.context.spool.history(job!.id).map((e) => e.message)).toContain(
      'marked printed by packer: saw it come out',
    );
  });

  it('keeps the note typed with "mark not bought"', async () => {
    const { s, sandbox } = await station();
    const scan = await call(s, 'pack.scan', { value: 'LUM-10422' });
    if (scan.kind !== 'order') throw new Error('no order');
    sandbox().faults.add({
      method: 'POST',
      path: '/api/v1/labels',
      kind: 'reset',
      after: false,
      times: 1,
    });
    const quote = await call(s, 'pack.rate', {
      orderId: scan.order.id,
      packages: [{ weightLbs: 3.4, boxId: null }],
    });
    const lost = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
    expect(lost).toMatchObject({ ok: false, error: { code: 'purchase-outcome-unknown' } });
    const [item] = await call(s, 'attention.list', {});
    await call(s, 'attention.resolve', {
      id: item!.id,
      action: 'mark-not-bought',
      note: 'nothing on the carrier portal',
    });
    const purchase = s.context.runtime().workflow.shipments.purchase(item!.id.split(':')[1]!);
    expect(purchase?.state).toBe('not-bought');
    expect(purchase?.resolution).toBe('checked: not bought — nothing on the carrier portal');
  });
});

describe('a failed rating is one entry per order, with the right code (#13.17)', () => {
  it('rating the same order three times without a fitting rate lists it once, and never as connection-not-authorized', async () => {
    const { s } = await station();
    await refuseEveryRate(s);
    for (let i = 0; i < 3; i++) {
      const r = await rateOrder(s, 'LUM-10421');
      // The rates are shown for the packer to pick from (rule-refused.test.ts), none chosen.
      expect(r).toMatchObject({
        ok: true,
        value: {
          ruleRefused: true,
          chosenRateId: null,
          reason: expect.stringMatching(/fits the rule/),
        },
      });
    }
    const failed = (await call(s, 'attention.list', {})).filter(
      (i) => i.kind === 'purchase-failed',
    );
    expect(failed.map((i) => i.orderNumber)).toEqual(['LUM-10421']);
    expect((await call(s, 'station.status', {})).needsAttention).toBe(1);

    // Rated fine afterwards: the order is no longer stuck.
    await call(s, 'profiles.update', {
      id: 'demo',
      rateRule: {
        strategy: 'cheapest',
        preferredServiceLevels: [],
        maxTransitDays: null,
        excludedCarriers: [],
      },
    });
    expect((await rateOrder(s, 'LUM-10421')).ok).toBe(true);
    expect(
      (await call(s, 'attention.list', {})).filter((i) => i.kind === 'purchase-failed'),
    ).toEqual([]);
  });

  it('one dismissal clears every failed attempt of the order', async () => {
    const { s } = await station();
    await refuseEveryRate(s);
    await rateOrder(s, 'LUM-10423');
    await rateOrder(s, 'LUM-10423');
    const [item] = await call(s, 'attention.list', {});
    await call(s, 'attention.resolve', { id: item!.id, action: 'dismiss' });
    expect(await call(s, 'attention.list', {})).toEqual([]);
  });
});

async function setConnection(sandbox: Sandbox, id: string, authorizationStatus: string) {
  const res = await fetch(`${sandbox.url}/sandbox/connections/${id}/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ authorizationStatus }),
  });
  expect(res.status).toBe(200);
}

describe('carrier accounts during a shift (#13.18)', () => {
  it('raises the EXPIRED banner when a connection expires mid-shift, without a manual refresh', async () => {
    const { s, sandbox } = await station();
    await until(async () => (await call(s, 'carriers.list', {})).length > 0);
    expect((await call(s, 'station.status', {})).expiredAccounts).toEqual([]);

    await setConnection(sandbox(), 'conn_lumen_ups', 'EXPIRED');
    // The packer weighs the next order (its file's weight was pre-rated before the expiry, so
    // another weight makes a rating of its own); the platform says UPS could not rate (EXPIRED).
    const scan = await scanOrder(s, 'LUM-10421');
    await call(s, 'pack.rate', {
      orderId: scan.order.id,
      packages: scan.order.packages.map((p) => ({
        weightLbs: (p.weightLbs ?? 2) + 0.5,
        boxId: null,
      })),
    });
    const status = await until(async () => {
      const st = await call(s, 'station.status', {});
      return st.expiredAccounts.length ? st : null;
    });
    expect(status.expiredAccounts.map((a) => a.name)).toEqual(['Lumen UPS']);
    const accounts = await call(s, 'carriers.list', {});
    expect(accounts.find((a) => a.id === 'ca_lumen_ups')?.status).toBe('EXPIRED');
  });

  it('a scan on rates pre-rated before the expiry shows them at once, reads that brand’s accounts again, and raises the banner; the next rating has no UPS', async () => {
    const { s, sandbox } = await station();
    await until(async () => (await call(s, 'carriers.list', {})).length > 0);
    // The sample orders were rated in the background at import, UPS among them.
    await s.context.runtime().preRater.settled();
    await setConnection(sandbox(), 'conn_lumen_ups', 'EXPIRED');

    const before = (await call(s, 'station.status', {})).expiredAccounts;
    expect(before).toEqual([]);
    const stale = await call(s, 'pack.rate', {
      orderId: (await scanOrder(s, 'LUM-10422')).order.id,
      packages: [{ weightLbs: 3.4, boxId: 'box-m' }],
    });
    // Taken over from pre-rating (no round trip): rated before the expiry, UPS still listed.
    expect(stale.rates.some((r) => r.carrierAccountId === 'ca_lumen_ups')).toBe(true);
    // Nobody refreshes anything: the station reads Lumen's accounts again by itself.
    const status = await until(async () => {
      const st = await call(s, 'station.status', {});
      return st.expiredAccounts.length ? st : null;
    });
    expect(status.expiredAccounts.map((a) => a.name)).toEqual(['Lumen UPS']);
    // Rated again, the platform is asked (the lapsed account's rates are not taken over).
    const again = await call(s, 'pack.rate', {
      orderId: stale.orderId,
      packages: [{ weightLbs: 3.4, boxId: 'box-m' }],
    });
    expect(again.ratedAt).not.toBe(stale.ratedAt);
    expect(again.rates.map((r) => r.carrierAccountId)).not.toContain('ca_lumen_ups');
    expect(again.rates.length).toBeGreaterThan(0);
  });

  it('a connection in ERROR or UNAUTHORIZED raises the banner too; a PENDING one (never authorized) does not', async () => {
    const { s, sandbox } = await station();
    await until(async () => (await call(s, 'carriers.list', {})).length > 0);
    await setConnection(sandbox(), 'conn_lumen_ups', 'ERROR');
    await setConnection(sandbox(), 'conn_lumen_usps', 'UNAUTHORIZED');
    await call(s, 'carriers.list', { refresh: true });
    const status = await call(s, 'station.status', {});
    expect(status.expiredAccounts.map((a) => [a.name, a.status]).sort()).toEqual([
      ['Lumen UPS', 'ERROR'],
      ['Lumen USPS', 'UNAUTHORIZED'],
    ]);
    // The demo's FedEx is PENDING from the start: Carrier accounts says so, no banner.
    expect(status.expiredAccounts.map((a) => a.name)).not.toContain('Lumen FedEx');
  });

  it('refreshes carrier accounts by itself on a timer', async () => {
    const { ProfileRuntime } = await import('../../../src/core/station/runtime.js');
    const before = ProfileRuntime.carrierRefreshMs;
    ProfileRuntime.carrierRefreshMs = 200;
    try {
      const { s, sandbox } = await station();
      await until(async () => (await call(s, 'carriers.list', {})).length > 0);
      await setConnection(sandbox(), 'conn_lumen_usps', 'EXPIRED');
      const status = await until(async () => {
        const st = await call(s, 'station.status', {});
        return st.expiredAccounts.length ? st : null;
      });
      expect(status.expiredAccounts.map((a) => a.name)).toEqual(['Lumen USPS']);
    } finally {
      ProfileRuntime.carrierRefreshMs = before;
    }
  });

  it("shows a 3PL its brands' carrier accounts with their PENDING and EXPIRED states", async () => {
    const { s, sandbox } = await station();
    const credentials = {
      environment: 'sandbox' as const,
      baseUrl: sandbox().url,
      clientId: 'demo-harbor-full',
      clientSecret: 'demo-harbor-full-secret',
    };
    await call(s, 'profiles.create', {
      ...credentials,
      name: 'Harbor Edison',
      tenantId: 'tnt_harbor',
      shippingSiteId: 'site_harbor_edison',
      brandTenantIds: ['tnt_driftwood', 'tnt_pinecrest'],
    });
    const accounts = await until(async () => {
      const list = await call(s, 'carriers.list', { refresh: true });
      return list.some((a) => a.tenantId === 'tnt_driftwood') ? list : null;
    });
    expect(new Set(accounts.map((a) => a.tenantId))).toEqual(
      new Set(['tnt_harbor', 'tnt_driftwood', 'tnt_pinecrest']),
    );
    expect(accounts.find((a) => a.id === 'ca_driftwood_ups')?.status).toBe('EXPIRED');
    const status = await call(s, 'station.status', {});
    expect(status.expiredAccounts.map((a) => a.id).sort()).toEqual([
      'ca_driftwood_ups',
      'ca_harbor_ups',
    ]);
  });
});

describe('label retention (#13.20)', () => {
  it('drops the ZPL of labels older than labelRetentionDays when the station runs, keeping the record', async () => {
    // A platform whose clock is 40 days behind: the labels it sells are 40 days old here.
    const { s } = await stations.start({}, { startTime: Date.now() - 40 * 86_400_000 });
    const bought = await packOrder(s, 'LUM-10421');
    expect((await call(s, 'labels.get', { id: bought.label!.id })).zpl).toContain('^XA');

    // Site IT sets 30 days; the running station applies it as soon as the profile reopens.
    const ctx = s.context;
    ctx.profiles.save({ ...ctx.profiles.get('demo')!, labelRetentionDays: 30 });
    await ctx.reload();
    const label = await call(s, 'labels.get', { id: bought.label!.id });
    expect(label.zpl).toBeNull();
    expect(label.zplAvailable).toBe(false);
    expect(label.trackingNumber).toBe(bought.label!.trackingNumber);
    // A reprint still works (once the label has printed): the ZPL is fetched again from the
    // platform.
    await until(async () => (await call(s, 'queue.list', {})).printJobs.length === 0);
    await call(s, 'labels.reprint', { id: bought.label!.id, reason: 'customer lost it' });

    // And it keeps running: the hourly pass drops labels that have aged since.
    expect(ctx.runtime().applyRetention(new Date(Date.now() + 60 * 86_400_000))).toBe(1);
  });

  it('keeps every label when no retention is set', async () => {
    const { s } = await station();
    const bought = await packOrder(s, 'LUM-10421');
    expect(s.context.runtime().applyRetention(new Date(Date.now() + 3650 * 86_400_000))).toBe(0);
    expect((await call(s, 'labels.get', { id: bought.label!.id })).zpl).toContain('^XA');
  });
});
