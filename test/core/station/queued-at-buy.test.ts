import { describe, expect, it } from 'vitest';
import { call, demoStationsPerTest, weighAndRate } from './support.js';

/**
 * Trial J: rates shown, then the platform went away before Ctrl+Enter. Pack said only "QUEUED
 * The platform at 127.0.0.1:59315 could not be reached for the label (ECONNREFUSED: nothing
 * answers at that address and port)": not whether anything was bought, nor what happens next.
 * A rating queued the same way always said it.
 */
const stations = demoStationsPerTest();

describe('a purchase queued at Ctrl+Enter because the platform does not answer', () => {
  it('says nothing was bought and that the queue labels it when the platform answers', async () => {
    const { s, sandbox } = await stations.start();
    const quote = await weighAndRate(s, 'LUM-10421');
    // The background ratings of the other orders would find the platform away first (three
    // failures: the buy is then queued without being tried, said in other words): stopped here.
    await s.context.runtime().preRater.stop();
    await sandbox().close();
    // The station's idle keep-alive socket to it is cut too: once its client has seen that, the
    // next call finds nothing listening (ECONNREFUSED: nothing sent, so nothing may be bought)
    // rather than a reset on the old socket (a purchase that may have happened).
    await new Promise((r) => setTimeout(r, 300));
    const bought = await call(s, 'pack.buy', { shipmentId: quote.shipmentId });
    expect(bought).toMatchObject({ outcome: 'queued-offline', label: null });
    expect(bought.message).toMatch(
      /^The platform at 127\.0\.0\.1:\d+ could not be reached for the label \(ECONNREFUSED: nothing answers at that address and port\)\. Nothing was bought: the shipment waits in the offline queue and is labelled when the platform answers again\.$/,
    );
    const queue = await call(s, 'queue.list', {});
    expect(queue.shipments.map((q) => q.orderNumber)).toEqual(['LUM-10421']);
  });
});
