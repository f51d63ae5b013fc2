import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import type { LabelSummary } from '../../../src/shared/views.js';
import { call, demoStationsPerTest, orderIdOf, type Sandbox } from './support.js';

const stations = demoStationsPerTest();
async function started(): Promise<{ s: Station; sandbox: Sandbox }> {
  const { s, sandbox } = await stations.start();
  return { s, sandbox: sandbox() };
}

describe('small things a packer reads', () => {
  it('says once that a queued order is labelled when the platform answers again', async () => {
    const { s, sandbox } = await started();
    sandbox.faults.add({ method: 'POST', path: '/api/v1/rates', kind: 'status', status: 503 });
    for (const order of ['LUM-10421', 'LUM-10422']) {
      const quote = await call(s, 'pack.rate', {
        orderId: await orderIdOf(s, order),
        packages: [{ weightLbs: 2 }],
        queue: true,
      });
      expect(quote.queued).toBe(true);
      expect(quote.reason.match(/answers again/g) ?? []).toHaveLength(1);
      const sentences = quote.reason.split(/(?<=\.)\s+/);
      expect(new Set(sentences).size).toBe(sentences.length);
    }
  });

  it("names the brand in an already-labelled order's details", async () => {
    const { s } = await started();
    const id = await orderIdOf(s, 'LUM-10421');
    const quote = await call(s, 'pack.rate', { orderId: id, packages: [{ weightLbs: 1.8 }] });
    const bought = await call(s, 'pack.buy', { shipmentId: quote.shipmentId });
    expect(bought.label?.brandName).toBeTruthy();
    const again = await s.dispatch('pack.rate', { orderId: id, packages: [{ weightLbs: 1.8 }] });
    expect(again).toMatchObject({ ok: false, error: { code: 'already-labelled' } });
    const labels = (!again.ok && (again.error.details as { labels: LabelSummary[] }).labels) || [];
    expect(labels.map((l) => l.brandName)).toEqual([bought.label!.brandName]);
  });

  it("does not say the demo profile's secret is 'held in memory': it comes with the embedded sandbox", async () => {
    const { s } = await started();
    const status = await call(s, 'station.status', {});
    expect(status.profile?.environment).toBe('embedded-sandbox');
    expect(status.profile?.secretSource).toMatch(/embedded sandbox/);
    const listed = await call(s, 'profiles.list', {});
    expect(listed[0]?.secretSource).toMatch(/embedded sandbox/);
    expect(listed[0]?.secretSource).not.toMatch(/memory/);
  });
});
