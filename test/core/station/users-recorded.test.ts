import { describe, expect, it } from 'vitest';
import { badgeDigest, hashPin } from '../../../src/core/users/pin.js';
import { call, demoStationsPerTest, labelsFor, until } from './support.js';

// A shift lead's trial (2026-11-29, evening): Ana Ruiz signed in at Station A bought a batch and
// a return label; all seven were recorded as bought by "packer" (the station's user name from
// Settings), and the console's "Labels today by packer" listed a packer named "packer".

const stations = demoStationsPerTest();

describe('what a signed-in user does is recorded under their name', () => {
  it("a batch's labels, a return label and the items scanned into the box", async () => {
    const { s, sandbox } = await stations.start();
    s.context.users.upsert({
      userId: 'ana',
      name: 'Ana Ruiz',
      role: 'packer',
      badgeSha256: badgeDigest('BADGE-0017'),
      pinHash: await hashPin('4821'),
      active: true,
    });
    await s.context.session.signIn({ badge: 'BADGE-0017' });

    const ids: string[] = [];
    for (const n of ['LUM-10421', 'LUM-10422'])
      ids.push((await call(s, 'orders.page', { search: n })).rows[0]!.id);
    const batch = await call(s, 'batch.start', { orderIds: ids, description: 'evening' });
    await until(async () =>
      (await call(s, 'batch.list', {})).find((b) => b.id === batch.id && b.state === 'done'),
    );
    expect(labelsFor(sandbox, 'LUM-10421')).toBe(1);

    const page = await call(s, 'labels.search', { query: 'LUM-10421' });
    const original = page.labels.find((l) => l.orderNumber === 'LUM-10421')!;
    await call(s, 'labels.returnLabel', { labelId: original.id });

    const scan = await call(s, 'pack.scan', { value: 'LUM-10423' });
    if (scan.kind !== 'order') throw new Error(scan.kind);
    await call(s, 'verify.scan', {
      orderId: scan.order.id,
      value: scan.order.packages[0]!.items[0]!.sku,
      quantity: 1,
    });

    const bought = s.context.db
      .prepare<[], { order_number: string; station_user: string | null }>(
        `SELECT o.order_number, s.station_user FROM shipments s JOIN orders o ON o.id = s.order_id
          WHERE s.state <> 'rated' ORDER BY s.id`,
      )
      .all();
    expect(bought).toEqual([
      { order_number: 'LUM-10421', station_user: 'Ana Ruiz' },
      { order_number: 'LUM-10422', station_user: 'Ana Ruiz' },
      { order_number: 'LUM-10421', station_user: 'Ana Ruiz' },
    ]);
    const scanned = s.context.db
      .prepare<[], { station_user: string | null }>(
        `SELECT station_user FROM verification_events WHERE kind = 'counted'`,
      )
      .all();
    expect(scanned).toEqual([{ station_user: 'Ana Ruiz' }]);
  });
});
