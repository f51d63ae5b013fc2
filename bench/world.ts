// The demo world's direct brand, as the benchmarks use it (resources/fixtures/demo-world.json).
import type { PrinterConfig } from '../src/core/printing/types.js';
import type { ProfileInput } from '../src/core/profiles/profile-schema.js';

export const lumen = {
  clientId: 'demo-lumen-full',
  clientSecret: 'demo-lumen-full-secret',
  tenantId: 'tnt_lumen',
  siteId: 'site_lumen_chicago',
} as const;

/** A Lumen Candle Works station profile against a sandbox at `baseUrl`. */
export function lumenProfile(
  id: string,
  baseUrl: string,
  printers: PrinterConfig[] = [],
): ProfileInput {
  return {
    id,
    name: 'Bench station',
    environment: 'sandbox',
    baseUrl,
    clientId: lumen.clientId,
    tenantId: lumen.tenantId,
    tenantType: 'brand',
    shippingSiteId: lumen.siteId,
    shipFrom: {
      company: 'Lumen Candle Works',
      addressLine1: '1200 W Fulton Market',
      city: 'Chicago',
      stateProvince: 'IL',
      postalCode: '60607',
      countryCode: 'US',
    },
    printers,
  };
}

/** A bearer token for Lumen's full key. */
export async function lumenToken(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/tokens/m2m`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grantType: 'clientCredentials',
      clientId: lumen.clientId,
      clientSecret: lumen.clientSecret,
    }),
  });
  if (!res.ok) throw new Error(`token request: ${res.status}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}
