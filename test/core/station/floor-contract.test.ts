import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, demoStationsPerTest, scanOrder } from './support.js';

/** Issue 15 points 3–6 through the facade: what Pack, History and Settings call. */
const stations = demoStationsPerTest();
const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '../../fixtures/orders', name), 'utf8');

describe('orders from store exports and saved mappings', () => {
  it('says which export a file was read as; an unknown header comes back to be mapped, and a saved mapping reads it', async () => {
    const { s } = await stations.start();
    const shopify = await call(s, 'orders.import', {
      fileName: 'orders_export.csv',
      content: fixture('shopify-orders-export.csv'),
    });
    expect(shopify).toMatchObject({ imported: 3, format: 'Shopify orders export' });
    // One of them goes abroad without its customs data: imported, and said now, not at Pack.
    expect(shopify.errorCount).toBe(0);
    expect(shopify.notices).toHaveLength(1);
    expect(shopify.notices![0]).toMatchObject({
      field: '(customs)',
      reason: expect.stringMatching(
        /^imported, but it goes to [A-Z]{2} and its customs declaration lacks .*harmonized code.*: Pack will refuse it until the file gives them/,
      ),
    });
    const amazon = await call(s, 'orders.import', {
      fileName: 'unshipped.txt',
      content: fixture('amazon-unshipped-orders.txt'),
    });
    expect(amazon).toMatchObject({ imported: 2, format: 'Amazon unshipped orders report' });

    const unknown = await call(s, 'orders.import', {
      fileName: 'erp.csv',
      content: fixture('unknown-erp.csv'),
    });
    expect(unknown.imported).toBe(0);
    expect(unknown.unmappedHeader).toEqual([
      'Ref',
      'Customer',
      'Street',
      'Town',
      'Region',
      'Post code',
      'Country',
      'Article',
      'Pieces',
    ]);
    // Near no known export: nothing is suggested (the form's own hints are a guess to check).
    expect(unknown.suggestedColumns).toEqual({});

    // A Shopify export with its "Name" (the order number) missing: the form starts from what
    // Shopify's export reads, so the person only picks the order number's column.
    const noName = await call(s, 'orders.import', {
      fileName: 'orders_export_1.csv',
      content: fixture('shopify-export-without-name.csv'),
    });
    expect(noName.imported).toBe(0);
    expect(noName.suggestedColumns).toMatchObject({
      ship_to_name: 'Shipping Name',
      ship_to_address1: 'Shipping Address1',
      ship_to_city: 'Shipping City',
      ship_to_postal_code: 'Shipping Zip',
      ship_to_country: 'Shipping Country',
      sku: 'Lineitem sku',
      item_name: 'Lineitem name',
      quantity: 'Lineitem quantity',
    });
    expect(noName.suggestedColumns).not.toHaveProperty('order_number');

    const incomplete = await s.dispatch('orders.saveMapping', {
      name: 'ERP',
      columns: { order_number: 'Ref', ship_to_address1: 'Street' },
    });
    expect(incomplete).toMatchObject({
      ok: false,
      error: {
        code: 'validation',
        message: 'The mapping needs a column for the city, the postal code, the country.',
      },
    });
    await call(s, 'orders.saveMapping', {
      name: 'ERP',
      columns: {
        order_number: 'Ref',
        ship_to_name: 'Customer',
        ship_to_address1: 'Street',
        ship_to_city: 'Town',
        ship_to_state: 'Region',
        ship_to_postal_code: 'Post code',
        ship_to_country: 'Country',
        sku: 'Article',
        quantity: 'Pieces',
      },
    });
    const mapped = await call(s, 'orders.import', {
      fileName: 'erp.csv',
      content: fixture('unknown-erp.csv'),
    });
    expect(mapped).toMatchObject({ imported: 2, errorCount: 0, format: 'saved mapping "ERP"' });
    expect((await scanOrder(s, 'ERP-501')).order.items.map((i) => i.sku)).toEqual([
      'LUM-CEDAR-8',
      'LUM-TRIM-1',
    ]);
  });
});

describe('options, customs and returns', () => {
  it('Pack sees the order options and customs; the packer options reach the label; a return label is linked in History', async () => {
    const { s } = await stations.start();
    await call(s, 'orders.import', {
      fileName: 'lumen-options.csv',
      content: fixture('lumen-options.csv'),
    });
    const abroad = (await scanOrder(s, 'LUM-20002')).order;
    expect(abroad.international).toBe(true);
    expect(abroad.items[0]).toMatchObject({
      harmonizedCode: '3406.00',
      countryOfOrigin: 'US',
      valueUsd: 24,
      weightLbs: 0.9,
      description: 'Soy wax candle in a glass jar',
    });
    const refused = await s.dispatch('pack.rate', {
      orderId: abroad.id,
      packages: [{ weightLbs: 2.5 }],
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(!refused.ok && refused.error.message).toContain('no incoterm');
    const quote = await call(s, 'pack.rate', {
      orderId: abroad.id,
      packages: [{ weightLbs: 2.5 }],
      options: { ...abroad.options!, incoTerm: 'DDP' },
    });
    const bought = await call(s, 'pack.buy', { shipmentId: quote.shipmentId });
    const detail = await call(s, 'labels.get', { id: bought.label!.id });
    expect(detail.zpl).toContain('INCOTERM DDP');

    const signed = (await scanOrder(s, 'LUM-20001')).order;
    expect(signed.options).toMatchObject({
      deliveryConfirmation: 'ADULT_SIGNATURE',
      customMessage1: 'Gift: do not open',
      saturdayDelivery: false,
    });

    const back = await call(s, 'labels.returnLabel', { labelId: bought.label!.id });
    expect(back.label?.returnOfLabelId).toBe(bought.label!.id);
    const again = await s.dispatch('labels.returnLabel', { labelId: bought.label!.id });
    expect(again).toMatchObject({ ok: false, error: { code: 'already-labelled' } });
    const page = await call(s, 'labels.search', { query: 'LUM-20002', limit: 50, offset: 0 });
    expect(page.labels.map((l) => [l.returnOfLabelId, l.returnTrackingNumbers])).toEqual([
      [bought.label!.id, []],
      [null, [back.label!.trackingNumber]],
    ]);
    // End of day counts the return label among the day's labels, and says how many were returns.
    const today = new Date().toISOString().slice(0, 10);
    const day = await call(s, 'endOfDay.summary', { from: today, to: today });
    expect(day.returns).toBe(1);
    expect(day.returnCost).toBe(back.label!.cost);
    expect(day.days[0]).toMatchObject({ returns: 1, returnCost: back.label!.cost });
    expect(day.labels).toBe(2);
    // The dock's manifest closes out the outbound label only: the return label travels with
    // the customer's parcel, which the driver does not pick up here.
    const manifest = await call(s, 'endOfDay.manifest', { from: today, to: today });
    const sent = manifest.manifests.reduce((n, m) => n + m.labels, 0);
    expect(sent).toBe(day.labels - day.returns);
  });
});

describe('an order limited to service levels its brand does not offer', () => {
  it('is imported and said at once, naming what the carrier accounts offer; one they offer is not', async () => {
    const { s } = await stations.start();
    // The brand's carrier accounts as the platform lists them (a station does this at start).
    const accounts = await call(s, 'carriers.list', { refresh: true });
    expect(accounts.length).toBeGreaterThan(0);
    const csv = [
      'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs,sku,quantity,service_levels',
      'SL-1,Ana Ruiz,1 Main St,Austin,TX,78701,US,2,CNDL-1,1,FOO_BAR',
      'SL-2,Bo Lind,2 Main St,Austin,TX,78701,US,2,CNDL-1,1,UPS_GROUND',
    ].join('\n');
    const report = await call(s, 'orders.import', { fileName: 'limited.csv', content: csv });
    expect(report).toMatchObject({ imported: 2, errorCount: 0 });
    expect(report.notices).toEqual([
      expect.objectContaining({
        orderNumber: 'SL-1',
        field: 'service_levels',
        reason: expect.stringMatching(
          /^imported, but it may only ship FOO_BAR, which no carrier account of its brand offers \(they offer .*UPS_GROUND.*, as the platform last listed them\): Pack will find no rate for it until the file or the brand's carrier accounts change$/,
        ),
      }),
    ]);
  });
});

describe('a hazmat item without its required fields', () => {
  it('is imported and said at once, naming what it lacks, as Pack will refuse it; a complete one is not', async () => {
    const { s } = await stations.start();
    const csv = [
      'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs,sku,item_name,quantity,hazmat,hazmat_un_number,hazmat_class,hazmat_packing_group,hazmat_proper_shipping_name',
      'HZ-1,Ana Ruiz,1 Main St,Dallas,TX,75201,US,2,LUM-OIL,Lamp oil,1,yes,UN1223,,,',
      'HZ-2,Bo Lind,2 Main St,Dallas,TX,75201,US,2,LUM-OIL,Lamp oil,1,yes,UN1223,3,III,Kerosene',
    ].join('\n');
    const report = await call(s, 'orders.import', { fileName: 'oil.csv', content: csv });
    expect(report).toMatchObject({ imported: 2, errorCount: 0 });
    expect(report.notices).toEqual([
      expect.objectContaining({
        orderNumber: 'HZ-1',
        field: '(hazmat)',
        reason:
          'imported, but its hazmat declaration lacks LUM-OIL: hazard class, packing group, proper shipping name: Pack will refuse it until the file gives them (import it again with them)',
      }),
    ]);
  });
});
