import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inlineZpl } from '../../../src/core/platform/index.js';
import { DEMO, useSandbox } from '../../support/sandbox.js';
import { buyLumenLabel, clientFor, lumenShipment, rejection } from './support.js';

const sb = useSandbox({ allowHttpWebhooks: true });

describe('PlatformClient against the sandbox: every endpoint', () => {
  it('lists the tenant tree of a 3PL and reads one tenant', async () => {
    const { client } = clientFor(sb, DEMO.threePl);
    const tree = await client.listTenants();
    expect(tree.map((t) => t.tenantId)).toEqual(['tnt_harbor']);
    const brands = (tree[0]?.children ?? []).map((c) => c.tenantId).sort();
    expect(brands).toEqual(['tnt_driftwood', 'tnt_pinecrest']);
    const one = await client.getTenant('tnt_driftwood');
    expect(one).toMatchObject({ tenantId: 'tnt_driftwood', type: 'brand' });
  });

  it('creates a shipping site and lists it', async () => {
    const { client } = clientFor(sb, DEMO.directBrand);
    const site = await client.createShippingSite({
      name: 'Lumen Overflow',
      address: {
        addressLine1: '1 Main St',
        city: 'Chicago',
        postalCode: '60601',
        countryCode: 'US',
      },
    });
    expect(site.id).toMatch(/\S/);
    const sites = await client.listShippingSites();
    expect(sites.map((s) => s.id)).toContain(site.id);
    expect(sites.map((s) => s.id)).toContain('site_lumen_chicago');
  });

  it('rates a shipment: rates to buy with, and the PENDING FedEx account under rateErrors', async () => {
    const { client } = clientFor(sb, DEMO.directBrand);
    const rates = await client.getRates({ shipment: lumenShipment() });
    expect(rates.shipmentRates.length).toBeGreaterThan(0);
    for (const r of rates.shipmentRates) expect(r.carrierAccount.id).toMatch(/^ca_/);
    expect(rates.rateErrors.map((e) => e.carrierAccount?.id)).toContain('ca_lumen_fedex');
  });

  it('buys a label (once, in the ledger), reads its ZPL by id and by labelUrl', async () => {
    const { client } = clientFor(sb, DEMO.directBrand);
    const before = sb.sandbox.ledger().length;
    const rates = await client.getRates({ shipment: lumenShipment('ORD-LBL') });
    const rate = rates.shipmentRates[0]!;
    const label = await client.purchaseLabel({
      carrierAccountId: rate.carrierAccount.id,
      serviceLevel: rate.serviceLevel!,
      shipment: lumenShipment('ORD-LBL'),
      orderReference: 'ORD-LBL',
      ...(rate.rateQuoteId ? { rateQuoteId: rate.rateQuoteId } : {}),
      labelOptions: { type: 'ZPL', size: '4x6', inline: true },
    });
    const ledger = sb.sandbox.ledger();
    expect(ledger).toHaveLength(before + 1);
    expect(ledger.at(-1)?.trackingNumber).toBe(label.trackingNumber);
    const zpl = inlineZpl(label);
    expect(zpl).toMatch(/^\^XA[\s\S]*\^XZ\s*$/);
    expect(await client.getLabelZpl(label.id)).toBe(zpl);
    expect(await client.getLabelZpl(label.labelUrl!)).toBe(zpl);
  });

  it('manages carrier accounts: create, get, update, list, delete', async () => {
    const { client } = clientFor(sb, DEMO.directBrand);
    const created = await client.createCarrierAccount({
      name: 'Lumen OnTrac',
      carrierAccountConnection: {
        name: 'Lumen OnTrac connection',
        ownershipType: 'BRAND',
        connectionDetails: { carrier: 'ONTRAC', accountNumber: 'OT-1', apiKey: 'k' },
      },
    });
    expect(created.carrierAccountConnection?.authorizationStatus).toBe('AUTHORIZED');
    expect((await client.getCarrierAccount(created.id)).name).toBe('Lumen OnTrac');
    const updated = await client.updateCarrierAccount(created.id, {
      name: 'Lumen OnTrac (east)',
      isActive: false,
    });
    expect(updated).toMatchObject({ name: 'Lumen OnTrac (east)', isActive: false });
    expect((await client.listCarrierAccounts()).map((a) => a.id)).toContain(created.id);
    await client.deleteCarrierAccount(created.id);
    const gone = await rejection(client.getCarrierAccount(created.id));
    expect(gone.kind).toBe('not-found');
  });

  it('manages webhooks: create, get, patch, list, delete; secrets never come back', async () => {
    const { client } = clientFor(sb, DEMO.directBrand);
    const hook = await client.createWebhook({
      uri: 'http://127.0.0.1:9/hooks/tracking',
      email: 'ops@lumen.example',
      registeredEvents: ['tracking.updated'],
      secret: 'whsec-test-secret',
    });
    expect(hook.id).toMatch(/\S/);
    expect(hook.hasSecret).toBe(true);
    expect(JSON.stringify(hook)).not.toContain('whsec-test-secret');
    expect((await client.getWebhook(hook.id)).uri).toBe('http://127.0.0.1:9/hooks/tracking');
    const patched = await client.updateWebhook(hook.id, { isActive: false });
    expect(patched.isActive).toBe(false);
    expect((await client.listWebhooks()).map((w) => w.id)).toContain(hook.id);
    await client.deleteWebhook(hook.id);
    expect((await client.listWebhooks()).map((w) => w.id)).not.toContain(hook.id);
  });

  it('pages trackers', async () => {
    const { client } = clientFor(sb, DEMO.directBrand);
    const a = await buyLumenLabel(client, 'ORD-TRK-A');
    const b = await buyLumenLabel(client, 'ORD-TRK-B');
    const all = await client.listTrackers({ limit: 1000 });
    expect(all.hasMore).toBe(false);
    expect(all.nextCursor).toBeNull();
    const numbers = all.items.map((t) => t.trackingNumber);
    expect(numbers).toEqual(expect.arrayContaining([a.trackingNumber, b.trackingNumber]));
    const first = await client.listTrackers({ limit: 1 });
    expect(first.items).toHaveLength(1);
    expect(first.hasMore).toBe(true);
    const second = await client.listTrackers({ limit: 1, cursor: first.nextCursor! });
    expect(second.items[0]?.trackingNumber).not.toBe(first.items[0]?.trackingNumber);
    const one = await client.listTrackers({ trackingNumber: b.trackingNumber });
    expect(one.items.map((t) => t.orderReference)).toEqual(['ORD-TRK-B']);
  });

  it('pages the webhook events the platform sent', async () => {
    // A local receiver that accepts every delivery, so tracker changes become sent events.
    const received: string[] = [];
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(String(req.headers['x-service-event-id']));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = receiver.address() as AddressInfo;
      const { client } = clientFor(sb, DEMO.directBrand);
      await client.createWebhook({
        uri: `http://127.0.0.1:${port}/events`,
        email: 'ops@lumen.example',
        registeredEvents: ['tracking.updated'],
        secret: 'events-paging-secret',
      });
      await buyLumenLabel(client, 'ORD-EVT-A');
      await buyLumenLabel(client, 'ORD-EVT-B');
      await sb.sandbox.clock.advance(3 * 86_400);
      expect(received.length).toBeGreaterThanOrEqual(2);

      const first = await client.listWebhookEvents({ limit: 1 });
      expect(first.items).toHaveLength(1);
      expect(first.items[0]).toMatchObject({
        eventType: 'tracking.updated',
        tenantId: 'tnt_lumen',
      });
      expect(first.nextCursor).not.toBeNull();
      const second = await client.listWebhookEvents({ limit: 1, cursor: first.nextCursor! });
      expect(second.items[0]?.id).not.toBe(first.items[0]?.id);
      expect(received).toContain(first.items[0]?.id);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe('PlatformClient errors for the person at the station', () => {
  it('a 400 names the field problem and the reference, and is not retried', async () => {
    const { client, events } = clientFor(sb, DEMO.directBrand);
    const error = await rejection(
      client.purchaseLabel({
        carrierAccountId: 'ca_lumen_ups',
        serviceLevel: 'UPS_GROUND',
        shipment: lumenShipment('ORD-ZERO', 0),
      }),
    );
    expect(error).toMatchObject({ kind: 'validation', status: 400, operation: 'purchaseLabel' });
    expect(error).toMatchObject({ method: 'POST', path: '/api/v1/labels', tenantId: 'tnt_lumen' });
    expect(error.errorCode).toBe('VALIDATION_ERROR');
    expect(error.fieldErrors.map((f) => f.field)).toContain('shipment.packages[0].weightLbs');
    expect(error.correlationId).toMatch(/^cor_/);
    expect(error.message).toMatch(/^The platform refused the label: Package 1 weight /);
    expect(error.message).toContain(`(ref ${error.correlationId})`);
    expect(events.filter((e) => e.operation === 'purchaseLabel')).toHaveLength(1);
  });

  it("a 404 says what the platform could not find in the platform's own words", async () => {
    const { client } = clientFor(sb, DEMO.directBrand);
    const error = await rejection(
      client.getRates({
        shipment: { ...lumenShipment('ORD-NOSITE'), shipFrom: { siteId: 'site_does_not_exist' } },
      }),
    );
    expect(error).toMatchObject({ kind: 'not-found', status: 404 });
    expect(error.message).toContain('site_does_not_exist');
    expect(error.message).not.toMatch(/it does not exist, or it belongs to another tenant/);
    expect(error.message).toContain(`(ref ${error.correlationId})`);
  });

  it('a 403 on the tenant names the tenant and says it may be wrong', async () => {
    const { client } = clientFor(sb, DEMO.directBrand);
    const error = await rejection(client.listCarrierAccounts({ tenantId: 'tnt_harbor' }));
    expect(error.kind).toBe('wrong-tenant');
    expect(error.status).toBe(403);
    expect(error.tenantId).toBe('tnt_harbor');
    expect(error.message).toContain('tnt_harbor');
    expect(error.message).toMatch(/tenant id may be wrong/);
    // Said to the packer too (a label refused so): nothing was bought, and who puts it right.
    expect(error.message).toContain(
      "nothing was bought or changed; site IT checks the profile's tenant and API key (Settings → Profiles)",
    );
    expect(error.message).toContain(`(ref ${error.correlationId})`);
  });

  it('a grant to an owner outside the 3PL names the owner, not the 3PL, as wrong', async () => {
    const { client } = clientFor(sb, DEMO.threePl);
    const error = await rejection(
      client.createCarrierAccount({
        name: 'Lumen via Harbor DHL',
        ownerTenantId: 'tnt_lumen',
        carrierAccountConnectionId: 'conn_harbor_dhl',
      }),
    );
    expect(error).toMatchObject({ kind: 'wrong-tenant', status: 403, tenantId: 'tnt_harbor' });
    expect(error.message).toMatch(
      /^The platform refused the new carrier account: the owner tenant/,
    );
    expect(error.message).toContain('tnt_lumen');
    // tnt_harbor is right: nothing tells site IT to change the profile's tenant or key.
    expect(error.message).not.toMatch(/tenant id may be wrong|Settings → Profiles/);
    expect(error.message).toContain(`(ref ${error.correlationId})`);
  });

  it('a token for a tenant outside the key is a wrong-tenant error naming it', async () => {
    const { client } = clientFor(sb, {
      clientId: DEMO.directBrand.clientId,
      tenantId: 'tnt_pinecrest',
    });
    const error = await rejection(client.listShippingSites());
    expect(error.kind).toBe('wrong-tenant');
    expect(error.message).toContain('tnt_pinecrest');
  });

  it('a wrong secret is an auth error that never shows the secret', async () => {
    const { client } = clientFor(sb, DEMO.directBrand, { getSecret: () => 'not-the-secret-xyz' });
    const error = await rejection(client.listShippingSites());
    expect(error.kind).toBe('auth');
    expect(error.message).toContain(DEMO.directBrand.clientId);
    expect(JSON.stringify(error)).not.toContain('not-the-secret-xyz');
    expect(error.message).not.toContain('not-the-secret-xyz');
    expect(client.stats().tokenFetches).toBe(1);
  });

  it('a read-only key changing something is an auth error about the key', async () => {
    const { client } = clientFor(sb, DEMO.directBrandReadOnly);
    const error = await rejection(
      client.createWebhook({
        uri: 'http://127.0.0.1:9/ro',
        email: 'ro@lumen.example',
        registeredEvents: ['tracking.updated'],
        secret: 's',
      }),
    );
    expect(error.kind).toBe('auth');
    expect(error.errorCode).toBe('READ_ONLY_KEY');
  });

  it('keyAccess tells a read-only key from a full one, and creates nothing to find out', async () => {
    const before = (await clientFor(sb, DEMO.directBrand).client.listWebhooks()).length;
    const full = clientFor(sb, DEMO.directBrand);
    expect(await full.client.keyAccess()).toBe('full');
    expect(await clientFor(sb, DEMO.directBrandReadOnly).client.keyAccess()).toBe('read-only');
    // One request, refused for its empty body; nothing was subscribed.
    const asked = full.events.find((e) => e.operation === 'keyAccess')!;
    expect(asked).toMatchObject({ method: 'POST', path: '/api/v1/webhooks', status: 400 });
    expect((await full.client.listWebhooks()).length).toBe(before);
    // An answer that tells neither is not read as either.
    sb.fault({ method: 'POST', path: '/api/v1/webhooks', kind: 'status', status: 500, times: 1 });
    expect(await full.client.keyAccess()).toBe('unknown');
  });

  it('naming a PENDING account when rating is connection-not-authorized', async () => {
    const { client } = clientFor(sb, DEMO.directBrand);
    const error = await rejection(
      client.getRates({
        shipment: lumenShipment(),
        options: { carrierAccountIds: ['ca_lumen_fedex'] },
      }),
    );
    expect(error.kind).toBe('connection-not-authorized');
    expect(error.message).toMatch(/PENDING/);
  });

  it('an unknown id is not-found', async () => {
    const { client } = clientFor(sb, DEMO.directBrand);
    const error = await rejection(client.getWebhook('wh_nope'));
    expect(error.kind).toBe('not-found');
    expect(error.status).toBe(404);
  });
});
