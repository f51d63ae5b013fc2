import { afterEach, describe, expect, it } from 'vitest';
import {
  startVirtualPrinter,
  type VirtualPrinter,
} from '../../../src/core/printing/virtual-printer/server.js';
import type { Station } from '../../../src/core/station/index.js';
import { tempDir } from '../../support/tmp.js';
import { call, demoStation, type Sandbox } from './support.js';

/**
 * Issue 13, what a shift lead hits on the first day, through the station's contract: a demo
 * station on its embedded sandbox, real SQLite, real TCP printers.
 */

const open: Station[] = [];
const printers: VirtualPrinter[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.stop();
  for (const p of printers.splice(0)) await p.close();
});

async function station(): Promise<{ s: Station; sandbox: () => Sandbox; dataDir: string }> {
  const dataDir = tempDir();
  const made = demoStation(dataDir);
  open.push(made.station);
  await made.station.start();
  return { s: made.station, sandbox: made.sandbox, dataDir };
}

async function until<T>(check: () => Promise<T | null | undefined | false>): Promise<T> {
  for (;;) {
    const v = await check();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function rate(s: Station, number: string) {
  const scan = await call(s, 'pack.scan', { value: number });
  if (scan.kind !== 'order') throw new Error(`${number} is not an order`);
  return s.dispatch('pack.rate', {
    orderId: scan.order.id,
    packages: scan.order.packages.map((p) => ({ weightLbs: p.weightLbs ?? 2, boxId: null })),
  });
}

async function pack(s: Station, number: string) {
  const quote = await rate(s, number);
  if (!quote.ok) throw new Error(quote.error.message);
  return call(s, 'pack.buy', { shipmentId: (quote.value as { shipmentId: string }).shipmentId });
}

const demoOrders = ['LUM-10421', 'LUM-10422', 'LUM-10423', 'LUM-10424', 'LUM-10425'];

describe('History pages with a real total (#13.13)', () => {
  it('counts every match and pages through them with offset', async () => {
    const { s } = await station();
    for (const n of demoOrders) await pack(s, n);

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
  });
});

describe('Needs attention keeps its promises (#13.16)', () => {
  it('offers "mark it printed" for a print job that may not have printed, and does it', async () => {
    const { s } = await station();
    const vp = await startVirtualPrinter({ dpi: 203 });
    printers.push(vp);
    await call(s, 'profiles.update', {
      id: 'demo',
      printers: [
        { id: 'vp', name: 'ZD421', kind: 'network', address: `127.0.0.1:${vp.port}`, dpi: 203 },
      ],
      defaultPrinterId: 'vp',
    });
    vp.dropAfterNextLabel();
    await pack(s, 'LUM-10421');
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
    // The demo brand's FedEx connection is PENDING; UPS and USPS rate, and the rule refuses both.
    await call(s, 'profiles.update', {
      id: 'demo',
      rateRule: {
        strategy: 'cheapest',
        preferredServiceLevels: [],
        maxTransitDays: null,
        excludedCarriers: ['UPS', 'USPS'],
      },
    });
    for (let i = 0; i < 3; i++) {
      const r = await rate(s, 'LUM-10421');
      expect(r).toMatchObject({
        ok: false,
        error: { code: 'no-rates', message: expect.stringMatching(/fits the rule/) },
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
    expect((await rate(s, 'LUM-10421')).ok).toBe(true);
    expect(
      (await call(s, 'attention.list', {})).filter((i) => i.kind === 'purchase-failed'),
    ).toEqual([]);
  });

  it('one dismissal clears every failed attempt of the order', async () => {
    const { s } = await station();
    await call(s, 'profiles.update', {
      id: 'demo',
      rateRule: {
        strategy: 'cheapest',
        preferredServiceLevels: [],
        maxTransitDays: null,
        excludedCarriers: ['UPS', 'USPS'],
      },
    });
    await rate(s, 'LUM-10423');
    await rate(s, 'LUM-10423');
    const [item] = await call(s, 'attention.list', {});
    await call(s, 'attention.resolve', { id: item!.id, action: 'dismiss' });
    expect(await call(s, 'attention.list', {})).toEqual([]);
  });
});
