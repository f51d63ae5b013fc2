import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import {
  call,
  demoStationsPerTest,
  labelsOf,
  loseNextLabelAnswer,
  online,
  queued,
  until,
  weighAndRate,
  type Sandbox,
} from './support.js';

/**
 * A shipment the offline queue bought while the answer was lost (the platform reset the
 * connection after buying): the Queue says its outcome is unknown and sends the shift lead to
 * Needs attention; each resolution there takes it off the Queue; Retry and Cancel on it say why
 * they do nothing. A demo station on its embedded sandbox.
 */

const stations = demoStationsPerTest();

/** The packer weighs the order and presses Ctrl+Enter while the platform is away: queued. */
const queueOrder = (s: Station, orderNumber: string) => weighAndRate(s, orderNumber, true);

/** Queued while rates fail, then bought by the queue with its answer lost: unknown. */
async function boughtUnanswered(s: Station, sandbox: () => Sandbox, orderNumber: string) {
  await online(s);
  const away = sandbox().faults.add({ method: 'POST', path: '/api/v1/rates', kind: 'reset' });
  expect((await queueOrder(s, orderNumber)).queued).toBe(true);
  expect(away.hits).toBeGreaterThan(0);
  sandbox().faults.clear();
  loseNextLabelAnswer(sandbox());
  await call(s, 'queue.retry', { kind: 'shipment', id: (await queued(s, orderNumber))!.id });
  const entry = await until(async () => {
    const q = await queued(s, orderNumber);
    return q?.state === 'needs-attention' ? q : null;
  });
  expect(labelsOf(sandbox(), orderNumber)).toHaveLength(1);
  const item = (await call(s, 'attention.list', {})).find(
    (i) => i.kind === 'purchase-unknown' && i.orderNumber === orderNumber,
  )!;
  expect(item).toBeDefined();
  return { entry, item };
}

const entryState = (s: Station, shipmentId: number) =>
  s.context.runtime().queue.forShipment(shipmentId)?.state;

describe('the Queue and a queued purchase whose outcome is unknown', () => {
  it('says so in words, with no Retry or Cancel that cannot work; the header counts it once on each page', async () => {
    const { s, sandbox } = await stations.start();
    const { entry } = await boughtUnanswered(s, sandbox, 'LUM-10421');
    expect(entry.lastError).toMatch(/Do not buy again/);
    const status = await call(s, 'station.status', {});
    // The header's Queue count is the Queue page's rows; Needs attention has one item.
    expect(status.queue.shipments).toBe((await call(s, 'queue.list', {})).shipments.length);
    expect(status.needsAttention).toBe((await call(s, 'attention.list', {})).length);

    // Retry and Cancel say why they do nothing, and nothing is bought or cancelled.
    const retry = await s.dispatch('queue.retry', { kind: 'shipment', id: entry.id });
    expect(retry).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message:
          'The queue bought order LUM-10421 but never heard whether the label went through: decide it under Needs attention (Alt+2), not here. Nothing was sent again.',
      },
    });
    const cancel = await s.dispatch('queue.cancel', { kind: 'shipment', id: entry.id });
    expect(cancel).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message:
          'The queue bought order LUM-10421 but never heard whether the label went through: decide it under Needs attention (Alt+2), not here. Nothing was cancelled.',
      },
    });
    expect((await queued(s, 'LUM-10421'))?.state).toBe('needs-attention');
    expect(labelsOf(sandbox(), 'LUM-10421')).toHaveLength(1);
  });

  it('found on the platform: the entry is done and leaves the Queue and both header counts', async () => {
    const { s, sandbox } = await stations.start();
    const { item } = await boughtUnanswered(s, sandbox, 'LUM-10421');
    const found = await call(s, 'attention.resolve', { id: item.id, action: 'check-trackers' });
    expect(found.message).toMatch(/^Found on the platform: label \S+ of order LUM-10421, stored/);

    expect(await queued(s, 'LUM-10421')).toBeUndefined();
    const status = await call(s, 'station.status', {});
    expect(status.queue.shipments).toBe(0);
    expect(status.needsAttention).toBe(0);
    const shipmentId = s.context
      .runtime()
      .workflow.shipments.purchase(item.id.slice('purchase:'.length))!.shipmentId;
    expect(entryState(s, shipmentId)).toBe('done');
    expect(labelsOf(sandbox(), 'LUM-10421')).toHaveLength(1);

    // A station before this fix left such an entry open in its database: the Queue does not
    // list it either, and its buttons say it is over.
    const entry = s.context.runtime().queue.forShipment(shipmentId)!;
    s.context
      .runtime()
      .workflow.shipments.db.prepare(
        `UPDATE offline_queue SET state = 'needs-attention' WHERE id = ?`,
      )
      .run(entry.id);
    expect(await queued(s, 'LUM-10421')).toBeUndefined();
    expect((await call(s, 'station.status', {})).queue.shipments).toBe(0);
    expect(
      await s.dispatch('queue.cancel', { kind: 'shipment', id: String(entry.id) }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message:
          'Order LUM-10421 is no longer in the queue (bought, cancelled or decided under Needs attention): nothing was cancelled.',
      },
    });
  });

  it.each([
    ['released as not bought', 'mark-not-bought', 1],
    ['bought again', 'buy-again', 2],
  ] as const)('%s: the entry is closed and leaves the Queue', async (_, action, labels) => {
    const { s, sandbox } = await stations.start();
    const { item } = await boughtUnanswered(s, sandbox, 'LUM-10422');
    const shipmentId = s.context
      .runtime()
      .workflow.shipments.purchase(item.id.slice('purchase:'.length))!.shipmentId;
    await call(s, 'attention.resolve', { id: item.id, action });
    expect(await queued(s, 'LUM-10422')).toBeUndefined();
    expect(entryState(s, shipmentId)).toBe('failed');
    const status = await call(s, 'station.status', {});
    expect(status.queue.shipments).toBe(0);
    expect(status.needsAttention).toBe(0);
    expect(labelsOf(sandbox(), 'LUM-10422')).toHaveLength(labels);
  });

  it('Cancel takes a failed entry off the Queue (nothing was bought); the header agrees', async () => {
    const { s, sandbox } = await stations.start();
    await online(s);
    sandbox().faults.add({ method: 'POST', path: '/api/v1/rates', kind: 'reset' });
    expect((await queueOrder(s, 'LUM-10424')).queued).toBe(true);
    sandbox().faults.clear();
    sandbox().faults.add({ method: 'POST', path: '/api/v1/labels', kind: 'status', status: 422 });
    await call(s, 'queue.retry', { kind: 'shipment', id: (await queued(s, 'LUM-10424'))!.id });
    const failed = await until(async () => {
      const q = await queued(s, 'LUM-10424');
      return q?.state === 'failed' ? q : null;
    });
    // The header's Queue count is the page's rows, the failed one included.
    expect((await call(s, 'station.status', {})).queue.shipments).toBe(1);

    await call(s, 'queue.cancel', { kind: 'shipment', id: failed.id });
    expect(await queued(s, 'LUM-10424')).toBeUndefined();
    expect((await call(s, 'station.status', {})).queue.shipments).toBe(0);
    expect(labelsOf(sandbox(), 'LUM-10424')).toHaveLength(0);
  });
});
