import { describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../support/sandbox.js';
import { DEMO } from '../../support/sandbox.js';
import { buyLumenLabel, clientFor } from '../platform/support.js';
import { call, demoStationsPerTest, packOrder } from './support.js';

const stations = demoStationsPerTest();

describe('the Tracking board names the order the shift lead knows', () => {
  it("shows the order number, not the platform's order reference, and a search by order number finds it", async () => {
    const { s, sandbox } = await stations.start();
    const bought = await packOrder(s, 'LUM-10423');
    const own = bought.label!.trackingNumber;
    // Labels bought outside this station, on the same platform account: one by another station
    // of the site (Shipping Station's reference), one by another tool (its own reference).
    const sb = { url: sandbox().url, sandbox: sandbox() } as SandboxHandle;
    const { client } = clientFor(sb, DEMO.directBrand);
    const otherStation = await buyLumenLabel(client, 'LUM-20001-0A1B2C3D');
    const otherTool = await buyLumenLabel(client, 'PO 88812/3');
    await s.context.runtime().poller.pollNow();

    const board = await call(s, 'tracking.board', {});
    const rowOf = (tn: string) => board.rows.find((r) => r.trackingNumber === tn)!;
    expect(rowOf(own)).toMatchObject({
      orderNumber: 'LUM-10423',
      orderReference: expect.stringMatching(/^LUM-10423-[0-9A-F]{8}$/),
    });
    expect(rowOf(otherStation.trackingNumber)).toMatchObject({
      orderNumber: 'LUM-20001',
      orderReference: 'LUM-20001-0A1B2C3D',
    });
    expect(rowOf(otherTool.trackingNumber)).toMatchObject({
      orderNumber: 'PO 88812/3',
      orderReference: 'PO 88812/3',
    });

    // The shift lead types the order number they know.
    for (const [query, tn] of [
      ['LUM-10423', own],
      ['LUM-20001', otherStation.trackingNumber],
      ['PO 88812', otherTool.trackingNumber],
    ] as const) {
      const found = await call(s, 'tracking.board', { search: query });
      expect([query, found.rows.map((r) => r.trackingNumber)]).toEqual([query, [tn]]);
      expect(found.rows[0]!.orderNumber).toBe(rowOf(tn).orderNumber);
    }
  });

  it("this station's label keeps its order number when the platform's tracker carries no reference", async () => {
    const { s } = await stations.start();
    const bought = await packOrder(s, 'LUM-10424');
    const trackingNumber = bought.label!.trackingNumber;
    const rt = s.context.runtime();
    await rt.poller.pollNow();
    // A newer copy of the tracker without orderReference (the API's tracker guarantees only
    // updatedAt), as a platform that leaves the field out would send it.
    const seen = rt.board.get(rt.trackingScope, trackingNumber)!;
    rt.trackers.ingest(
      rt.trackingScope,
      [
        {
          id: seen.trackerId ?? undefined,
          trackingNumber,
          tenantId: seen.tenantId,
          carrier: seen.carrier ?? undefined,
          status: 'IN_TRANSIT',
          updatedAt: new Date(Date.parse(seen.updatedAt) + 60_000).toISOString(),
        },
      ],
      new Date().toISOString(),
    );
    const { rows } = await call(s, 'tracking.board', { search: trackingNumber });
    expect(rows).toEqual([
      expect.objectContaining({ orderNumber: 'LUM-10424', orderReference: null }),
    ]);
  });
});
