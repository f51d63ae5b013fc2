import { describe, expect, it } from 'vitest';
import type { EventName, Events } from '../../../src/shared/contract.js';
import type { Station } from '../../../src/core/station/index.js';
import {
  call,
  demoStationsPerTest,
  packOrder,
  rateOrder,
  refuseEveryRate,
  until,
} from './support.js';

/**
 * Issue 11 point 3: every event says what changed (the list as it is now, or the rows that
 * changed), so the renderer shows it without asking again and nothing polls.
 */

const stations = demoStationsPerTest();

/** The order numbers of each attention-changed event among `all`, in order. */
function attentionOrders(all: { name: EventName; payload: unknown }[]): (string | null)[][] {
  return all
    .filter((e) => e.name === 'attention-changed')
    .map((e) => (e.payload as Events['attention-changed']).items.map((i) => i.orderNumber));
}

/** Every event the station sends from now on, in order. */
function heard(s: Station) {
  const all: { name: EventName; payload: unknown }[] = [];
  s.onEvent((name, payload) => all.push({ name, payload }));
  return {
    all,
    /**
     * Waits until every change signalled so far has gone out: the station is asked for one
     * more queue-changed, which leaves with (or after) anything already due.
     */
    async settled(): Promise<void> {
      const from = all.length;
      s.context.changed('queue');
      await until(() => all.slice(from).some((e) => e.name === 'queue-changed'));
    },
    /** Waits for an event of that name whose payload passes `check`, and returns its payload. */
    async next<E extends EventName>(
      name: E,
      check: (payload: Events[E]) => boolean = () => true,
    ): Promise<Events[E]> {
      return until(() => {
        const hit = all.find((e) => e.name === name && check(e.payload as Events[E]));
        return hit ? { payload: hit.payload as Events[E] } : null;
      }).then((h) => h.payload);
    },
  };
}

describe('events carry what changed', () => {
  it('attention-changed carries the items the page lists, the status event the same count', async () => {
    const { s } = await stations.start();
    const events = heard(s);
    await refuseEveryRate(s);
    expect(await rateOrder(s, 'LUM-10421')).toMatchObject({
      ok: true,
      value: { ruleRefused: true },
    });

    const { items } = await events.next('attention-changed', (p) => p.items.length > 0);
    expect(items.map((i) => [i.kind, i.orderNumber])).toEqual([['purchase-failed', 'LUM-10421']]);
    expect(items).toEqual(await call(s, 'attention.list', {}));
    const status = await events.next('status', (p) => p.needsAttention > 0);
    expect(status.needsAttention).toBe(1);
  });

  it('queue-changed carries the queue: a shipment waiting for the platform, by order number', async () => {
    const { s, sandbox } = await stations.start();
    const events = heard(s);
    const scan = await call(s, 'pack.scan', { value: 'LUM-10422' });
    if (scan.kind !== 'order') throw new Error(`LUM-10422 scanned as ${scan.kind}`);
    s.context.runtime().client.tokens.forget();
    sandbox().faults.add({ method: 'POST', path: '/api/v1/tokens/m2m', kind: 'hang' });
    // The packer pressed Ctrl+Enter (queue): with the platform away the order is queued.
    const quote = await call(s, 'pack.rate', {
      orderId: scan.order.id,
      packages: [{ weightLbs: 1.8 }],
      queue: true,
    });
    expect(quote.queued).toBe(true);

    const queue = await events.next('queue-changed', (q) => q.shipments.length > 0);
    expect(queue.shipments).toEqual([
      expect.objectContaining({ orderNumber: 'LUM-10422', state: 'waiting' }),
    ]);
    expect(queue.shipments).toEqual((await call(s, 'queue.list', {})).shipments);
    const status = await events.next('status', (p) => p.queue.shipments > 0);
    expect(status.queue.shipments).toBe(1);
  });

  it('labels-changed carries a bought label; tracking-changed the trackers a poll changed and the sync state, not the board', async () => {
    const { s } = await stations.start();
    const events = heard(s);
    const bought = await packOrder(s, 'LUM-10423');
    const trackingNumber = bought.label!.trackingNumber;
    // The new label itself, as History lists it (its print job may have moved on since: a
    // slow printer's first attempt is History's "not printed yet" by the time it is asked).
    const { labels } = await events.next('labels-changed');
    const asListed = (await call(s, 'labels.search', { query: 'LUM-10423' })).labels;
    const unprinted = (ls: typeof labels) => ls.map(({ notPrinted: _, ...l }) => l);
    expect(unprinted(labels)).toEqual(unprinted(asListed));
    await s.context.runtime().poller.pollNow();

    const change = await events.next('tracking-changed', (c) =>
      c.rows.some((r) => r.trackingNumber === trackingNumber),
    );
    const row = change.rows.find((r) => r.trackingNumber === trackingNumber)!;
    expect(row).toMatchObject({ trackingNumber, status: expect.stringMatching(/^[A-Z_]+$/) });
    expect(change.more).toBe(0);
    expect(change.sync).toMatchObject({ delayed: false, lastSuccessAt: expect.any(String) });
    // The row is the one the board shows for that tracker.
    const board = await call(s, 'tracking.board', { search: trackingNumber });
    expect(board.rows).toEqual([row]);
  });

  it('carriers-changed carries the accounts; orders-changed the file and how many came in', async () => {
    const { s } = await stations.start();
    const events = heard(s);
    const accounts = await call(s, 'carriers.list', { refresh: true });
    expect(accounts.length).toBeGreaterThan(0);
    const { accounts: sent } = await events.next('carriers-changed');
    expect(sent).toEqual(accounts);

    await call(s, 'orders.import', {
      fileName: 'evening.csv',
      content: [
        'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_postal_code,ship_to_country,weight_lbs',
        'EVE-1,Ann,1 Main St,Austin,78701,US,1.5',
        'EVE-2,Bob,2 Main St,Austin,78701,US,2',
      ].join('\n'),
    });
    expect(await events.next('orders-changed')).toEqual({
      fileName: 'evening.csv',
      imported: 2,
      orderIds: [],
    });
  });

  it('a label bought (by any path) sends orders-changed, so an open Orders view reads its statuses again', async () => {
    const { s } = await stations.start();
    const events = heard(s);
    await events.settled();
    expect(await packOrder(s, 'LUM-10422')).toMatchObject({ label: expect.anything() });
    expect(await events.next('orders-changed')).toEqual({
      fileName: null,
      imported: 0,
      orderIds: [],
    });
  });

  it('a good rating sends no attention-changed; a failed one does, and so does the rating that clears it', async () => {
    const { s } = await stations.start();
    const events = heard(s);
    const attention = () => attentionOrders(events.all);
    await events.settled();
    const before = attention().length;

    // A good scan: Needs attention is as it was, so neither it nor the header is read again.
    expect(await rateOrder(s, 'LUM-10421')).toMatchObject({ ok: true });
    await events.settled();
    expect(attention().slice(before)).toEqual([]);

    // A failing one is an attention item: one event, with the order in it.
    await refuseEveryRate(s);
    await events.settled();
    const refused = attention().length;
    expect(await rateOrder(s, 'LUM-10421')).toMatchObject({
      ok: true,
      value: { ruleRefused: true },
    });
    await events.settled();
    expect(attention().slice(refused)).toEqual([['LUM-10421']]);

    // Rated again under a rule that lets a rate through: the entry goes, and the page is told.
    await call(s, 'profiles.update', {
      id: 'demo',
      rateRule: {
        strategy: 'cheapest',
        preferredServiceLevels: [],
        maxTransitDays: null,
        excludedCarriers: [],
      },
    });
    await events.settled();
    const cleared = attention().length;
    expect(await rateOrder(s, 'LUM-10421')).toMatchObject({ ok: true });
    await events.settled();
    expect(attention().slice(cleared)).toEqual([[]]);

    // And a good rating of another order after that: nothing again.
    expect(await rateOrder(s, 'LUM-10422')).toMatchObject({ ok: true });
    await events.settled();
    expect(attention().slice(cleared + 1)).toEqual([]);
  });

  it('a label bought and printed sends no attention-changed; a refused purchase does', async () => {
    const { s, sandbox } = await stations.start();
    const events = heard(s);
    const attention = () => attentionOrders(events.all);
    await events.settled();
    const before = attention().length;
    expect(await packOrder(s, 'LUM-10421')).toMatchObject({ outcome: 'printing' });
    await events.settled();
    expect(attention().slice(before)).toEqual([]);

    sandbox().faults.add({
      method: 'POST',
      path: '/api/v1/labels',
      kind: 'status',
      status: 422,
      times: 1,
    });
    const refused = attention().length;
    const scan = await call(s, 'pack.scan', { value: 'LUM-10422' });
    if (scan.kind !== 'order') throw new Error('LUM-10422 is not an order');
    const quote = await call(s, 'pack.rate', {
      orderId: scan.order.id,
      packages: scan.order.packages.map((p) => ({ weightLbs: p.weightLbs ?? 2, boxId: null })),
    });
    const bought = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
    expect(bought).toMatchObject({ ok: false, error: { code: 'purchase-failed' } });
    await events.settled();
    expect(attention().slice(refused)).toEqual([['LUM-10422']]);
  });
});
