import { describe, expect, it } from 'vitest';
import { siteStations, synced } from './site-stations.js';
import { buyWithLostAnswer, ratedShipment } from './support.js';

// A shift lead's trial (2026-11-29, evening): Station A's purchase of EVE-2021 lost the
// platform's answer (outcome unknown, under A's Needs attention). Minutes later a packer at
// Station B was told the order "is being labelled at Station A right now … find its label in
// History (whole site) to reprint it": there was no label, and nothing happening right now.

const { sandbox, stationsAandB } = siteStations();

describe("another station's purchase whose outcome is unknown", () => {
  it('is said as unknown, with where a shift lead settles it, not as a label to reprint', async () => {
    const { a, b } = await stationsAandB();
    try {
      await Promise.all([synced(a), synced(b)]);
      await buyWithLostAnswer(a, sandbox(), 'LUM-10422');
      await synced(a);

      const refused = await b.dispatch('pack.buy', {
        shipmentId: await ratedShipment(b, 'LUM-10422'),
      });
      expect(refused).toMatchObject({ ok: false, error: { code: 'order-claimed-elsewhere' } });
      const message = (refused as { error: { message: string } }).error.message;
      expect(message).toMatch(
        /^Order LUM-10422 was being labelled at Station A \(since \d\d:\d\d by packer\), and the platform did not confirm that purchase: its label may or may not exist\. Nothing was bought here\. A shift lead settles it at Station A under Needs attention \(look it up on the platform, then keep it or mark it not bought\); if it was not bought, scan the order here again after that\.$/,
      );
      expect(message).not.toMatch(/right now|History/);
      expect(
        sandbox()
          .ledger()
          .filter((l) => l.orderReference?.startsWith('LUM-10422')),
      ).toHaveLength(1);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
