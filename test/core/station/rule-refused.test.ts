import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { call, demoStationsPerTest, scanOrder } from './support.js';

/**
 * No rate fits the profile's rate rule (a maximum of 2 transit days, an order whose only rate
 * is a cross-country UPS Ground): the rates that came back are shown, none as the rule's, and
 * only a rate the packer picks is bought. A demo station on its embedded sandbox, real SQLite.
 */

const stations = demoStationsPerTest();

const groundOnly = [
  'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs,sku,quantity,service_levels',
  'LUM-30001,Ada Lovelace,1 Market St,San Francisco,CA,94105,US,2,CNDL-AMB-8,1,UPS_GROUND',
].join('\n');

async function atMostTwoDays(s: Station) {
  await call(s, 'orders.import', { fileName: 'ground.csv', content: groundOnly });
  await call(s, 'profiles.update', {
    id: 'demo',
    rateRule: {
      strategy: 'cheapest',
      preferredServiceLevels: [],
      maxTransitDays: 2,
      excludedCarriers: [],
    },
  });
  const scan = await scanOrder(s, 'LUM-30001');
  return call(s, 'pack.rate', {
    orderId: scan.order.id,
    packages: [{ weightLbs: 2, boxId: null }],
  });
}

describe('no rate fits the rule (Pack)', () => {
  it('shows the rates with none as the rule’s choice, and says the packer may pick one or ask a shift lead', async () => {
    const { s } = await stations.start();
    const quote = await atMostTwoDays(s);
    expect(quote.ruleRefused).toBe(true);
    expect(quote.chosenRateId).toBeNull();
    expect(quote.rates.map((r) => r.serviceLevel)).toEqual(['UPS_GROUND']);
    expect(quote.rates[0]!.transitDays).toBeGreaterThan(2);
    // The demo's FedEx (PENDING) could not rate: said too, between the two.
    expect(quote.reason).toMatch(
      /^The only rate does not fit the rule \(at most 2 transit days; order asks for UPS_GROUND\)\. .*Pick one with ↑\/↓ \(or click it\) and Ctrl\+Enter buys it as your choice, or ask a shift lead\.$/,
    );
    // Still something for the shift lead to see: the rule turned every rate down.
    expect(
      (await call(s, 'attention.list', {})).filter((i) => i.kind === 'purchase-failed'),
    ).toHaveLength(1);
  });

  it('buys nothing without a pick, and buys the packer’s pick as their choice', async () => {
    const { s } = await stations.start();
    const quote = await atMostTwoDays(s);

    // Ctrl+Enter with nothing picked: the rule chose nothing, so nothing is bought.
    const unpicked = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
    expect(unpicked).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/nothing was bought\. Pick one with ↑\/↓/) },
    });
    expect((await call(s, 'labels.search', { query: 'LUM-30001' })).total).toBe(0);

    const [rate] = quote.rates;
    const bought = await call(s, 'pack.buy', {
      shipmentId: quote.shipmentId,
      rate: { carrierAccountId: rate!.carrierAccountId, serviceLevel: rate!.serviceLevel },
    });
    expect(bought.label?.orderNumber).toBe('LUM-30001');
    expect(bought.label?.serviceLevel).toBe('UPS_GROUND');
    const shipment = s.context.runtime().workflow.shipments.get(Number(quote.shipmentId))!;
    expect(shipment.selection).toMatchObject({
      chosenBy: 'packer',
      reason: expect.stringMatching(/chosen by packer at the station, as no rate fits the rule/),
    });
    // Bought: no longer an order whose rating failed.
    expect(
      (await call(s, 'attention.list', {})).filter((i) => i.kind === 'purchase-failed'),
    ).toEqual([]);
    // One label, not two: buying again with the same shipment is refused.
    const twice = await s.dispatch('pack.buy', {
      shipmentId: quote.shipmentId,
      rate: { carrierAccountId: rate!.carrierAccountId, serviceLevel: rate!.serviceLevel },
    });
    expect(twice.ok).toBe(false);
    expect((await call(s, 'labels.search', { query: 'LUM-30001' })).total).toBe(1);
  });
});
