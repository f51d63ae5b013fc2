import type { ShipOptionsView } from '../../../src/shared/views.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Fixtures } from '../../../src/sandbox/fixtures.js';
import { demoStationsPerTest, scanOrder } from './support.js';

/**
 * A rating the platform refuses with NO_RATES while the packer asked for options (Saturday
 * delivery, a signature, additional handling): the refusal names them and how to take them off,
 * keeping the platform's words and reference. A demo station on its embedded sandbox, whose
 * Lumen accounts offer ground services only (none delivers on Saturday).
 */

const stations = demoStationsPerTest();

const demo = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../resources/fixtures/demo-world.json'), 'utf8'),
) as Fixtures;
const groundOnly: Fixtures = {
  ...demo,
  carrierAccounts: demo.carrierAccounts.map((a) =>
    a.tenantId === 'tnt_lumen'
      ? { ...a, serviceLevels: a.serviceLevels.filter((l) => /GROUND/.test(l)) }
      : a,
  ),
};

const noOptions: ShipOptionsView = {
  deliveryConfirmation: null,
  saturdayDelivery: false,
  additionalHandling: false,
  customMessage1: '',
  customMessage2: '',
  customMessage3: '',
  incoTerm: null,
};

async function rateWith(options: Partial<typeof noOptions>) {
  const { s } = await stations.start({}, { fixtures: groundOnly });
  const scan = await scanOrder(s, 'LUM-10421');
  return s.dispatch('pack.rate', {
    orderId: scan.order.id,
    packages: [{ weightLbs: 2, boxId: null }],
    options: { ...noOptions, ...options },
  });
}

describe('no rates for an order rated with packer options', () => {
  it('says Saturday delivery is what no carrier rated, and to untick it (Alt+O), with the platform’s words and reference', async () => {
    const r = await rateWith({ saturdayDelivery: true });
    if (r.ok) throw new Error('rated');
    expect(r.error.message).toMatch(
      /^No carrier rated this order with Saturday delivery: untick it \(Alt\+O\) and rate again\. The platform said: .+\(ref cor_[\w-]+\)$/,
    );
    // Its words blame the demo's PENDING FedEx, which is not why the ground accounts rated nothing.
    const { correlationId } = r.error.details as { correlationId?: string };
    expect(correlationId).toMatch(/^cor_[\w-]+$/);
    expect(r.error.message).toContain(correlationId);
  });

  it('names every option asked, and the same order rates without them', async () => {
    const r = await rateWith({ saturdayDelivery: true, deliveryConfirmation: 'ADULT_SIGNATURE' });
    if (r.ok) throw new Error('rated');
    expect(r.error.message).toMatch(
      /^No carrier rated this order with Saturday delivery and adult signature: take them off \(Alt\+O\) and rate again\. The platform said: /,
    );
    expect((await rateWith({})).ok).toBe(true);
  });
});
