import { expect } from 'vitest';
import {
  PlatformClient,
  PlatformError,
  type PlatformClientOptions,
  type PlatformRequestEvent,
} from '../../../src/core/platform/index.js';
import type { PlatformEnvironment } from '../../../src/core/platform/types.js';
import type { SandboxHandle } from '../../support/sandbox.js';

/** A client for a demo-world API client, its secret read from the fixtures (the "vault"). */
export function clientFor(
  sb: SandboxHandle,
  who: { clientId: string; tenantId: string },
  extra: Partial<PlatformClientOptions> & { environment?: PlatformEnvironment } = {},
): { client: PlatformClient; events: PlatformRequestEvent[] } {
  const events: PlatformRequestEvent[] = [];
  const client = new PlatformClient({
    baseUrl: sb.url,
    clientId: who.clientId,
    tenantId: who.tenantId,
    environment: 'embedded-sandbox',
    getSecret: () => {
      const c = sb.sandbox.fixtures.apiClients.find((a) => a.clientId === who.clientId);
      if (!c) throw new Error(`no client ${who.clientId}`);
      return c.clientSecret;
    },
    // Token lifetimes are read on the sandbox clock, so advancing it is seen by both sides.
    now: () => sb.sandbox.clock.now().getTime(),
    proactiveTokenRefresh: false,
    retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
    onRequest: (e) => events.push(e),
    ...extra,
  });
  return { client, events };
}

export const chicagoTo = {
  name: 'Ann Rivera',
  addressLine1: '500 E 6th St',
  city: 'Austin',
  stateProvince: 'TX',
  postalCode: '78701',
  countryCode: 'US',
  isResidential: true,
};

/** A one-package shipment from Lumen's Chicago site. */
export function lumenShipment(orderReference = 'ORD-1001', weightLbs = 2) {
  return {
    shipTo: chicagoTo,
    shipFrom: { siteId: 'site_lumen_chicago' },
    packages: [{ weightLbs, lengthIn: 10, widthIn: 8, heightIn: 4 }],
    orderReference,
  };
}

/** Rates a Lumen shipment and buys the first rate: one label in the ledger, one tracker. */
export async function buyLumenLabel(client: PlatformClient, orderReference: string) {
  const shipment = lumenShipment(orderReference);
  const rates = await client.getRates({ shipment });
  const rate =
    rates.shipmentRates.find((r) => r.serviceLevel === 'UPS_GROUND') ?? rates.shipmentRates[0]!;
  return client.purchaseLabel({
    carrierAccountId: rate.carrierAccount.id,
    serviceLevel: rate.serviceLevel!,
    shipment,
    orderReference,
  });
}

/** The PlatformError a call rejects with (fails the test when it resolves or throws another). */
export async function rejection(p: Promise<unknown>): Promise<PlatformError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}
