import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importOrders, formatOf } from '../orders/order-import.js';
import { startVirtualPrinter } from '../printing/virtual-printer/server.js';
import { tenantsOf, type Profile } from '../profiles/profile-schema.js';
import { PlatformClient } from '../platform/index.js';
import type { StationContext } from './context.js';

export const DEMO_PROFILE_ID = 'demo';
const DEMO_PRINTER_ID = 'virtual-printer';

/** A few orders so a newcomer can scan at once, when resources/orders has no samples. */
const fallbackOrders = [
  {
    orderNumber: 'DEMO-1001',
    shipTo: {
      name: 'Ada Lovelace',
      addressLine1: '12 Analytical Way',
      city: 'Portland',
      stateProvince: 'OR',
      postalCode: '97201',
      countryCode: 'US',
    },
    packages: [
      { weightLbs: 2.4, items: [{ sku: 'CNDL-LAV-8', name: 'Lavender candle 8 oz', quantity: 2 }] },
    ],
  },
  {
    orderNumber: 'DEMO-1002',
    shipTo: {
      name: 'Grace Hopper',
      addressLine1: '1 Compiler Ct',
      city: 'Arlington',
      stateProvince: 'VA',
      postalCode: '22201',
      countryCode: 'US',
    },
    packages: [
      { weightLbs: 1.1, items: [{ sku: 'CNDL-CED-4', name: 'Cedar candle 4 oz', quantity: 1 }] },
    ],
  },
  {
    orderNumber: 'DEMO-1003',
    shipTo: {
      name: 'Alan Turing',
      addressLine1: '78 Enigma Rd',
      city: 'Austin',
      stateProvince: 'TX',
      postalCode: '78701',
      countryCode: 'US',
    },
    packages: [
      { weightLbs: 3.8, items: [{ sku: 'GIFT-SET-3', name: 'Gift set of three', quantity: 1 }] },
    ],
  },
];

/**
 * The embedded-sandbox profile: opened on first run (no profile yet) and on every start after
 * that, with the sandbox and a virtual printer started in-process. The printer's port changes
 * with each start, so the profile's printer is rewritten each time.
 */
export async function openDemoProfile(ctx: StationContext, firstRun: boolean): Promise<Profile> {
  const sandbox = await ctx.embeddedSandbox();
  const printer = await startVirtualPrinter({
    port: 0,
    host: '127.0.0.1',
    outDir: join(ctx.options.dataDir, 'virtual-printer'),
  });
  ctx.closers.push(() => printer.close());
  ctx.virtualPrinter = printer;

  const existing = ctx.profiles.get(DEMO_PROFILE_ID);
  let shipFrom: Profile['shipFrom'] | undefined = existing?.shipFrom;
  let siteId = existing?.shippingSiteId;
  if (!shipFrom) {
    const client = new PlatformClient({
      baseUrl: sandbox.baseUrl,
      clientId: sandbox.clientId,
      tenantId: sandbox.tenantId,
      environment: 'embedded-sandbox',
      getSecret: () => sandbox.clientSecret,
      proactiveTokenRefresh: false,
    });
    try {
      const site = (await client.listShippingSites())[0];
      siteId = site?.id;
      shipFrom = (site?.address ?? {
        addressLine1: '1 Demo Way',
        city: 'Chicago',
        postalCode: '60607',
        countryCode: 'US',
      }) as unknown as Profile['shipFrom'];
    } finally {
      client.close();
    }
  }
  const printerConfig = {
    id: DEMO_PRINTER_ID,
    name: 'Virtual printer',
    kind: 'network' as const,
    host: '127.0.0.1',
    port: printer.port,
    dpi: 203 as const,
  };
  const profile = ctx.profiles.save({
    ...(existing ?? {}),
    id: DEMO_PROFILE_ID,
    name: existing?.name ?? 'Demo station (embedded sandbox)',
    environment: 'embedded-sandbox',
    clientId: sandbox.clientId,
    tenantId: sandbox.tenantId,
    ...(siteId ? { shippingSiteId: siteId } : {}),
    shipFrom: shipFrom!,
    printers: [
      ...(existing?.printers ?? []).filter((p) => p.id !== DEMO_PRINTER_ID),
      printerConfig,
    ],
    labelPrinterId: existing?.labelPrinterId ?? DEMO_PRINTER_ID,
  });
  await ctx.profiles.setClientSecret(profile.id, sandbox.clientSecret);

  if (firstRun) {
    const runtime = await ctx.activate(profile);
    const dir = ctx.options.resourcesDir ? join(ctx.options.resourcesDir, 'orders') : null;
    const files =
      dir && existsSync(dir)
        ? readdirSync(dir)
            .filter((f) => formatOf(f))
            .sort()
        : [];
    const tenants = {
      defaultTenantId: profile.tenantId,
      allowedTenantIds: tenantsOf(profile),
      shipFromCountry: profile.shipFrom.countryCode,
    };
    let imported = 0;
    for (const f of files) {
      const report = importOrders(runtime.orders, runtime.scope, tenants, {
        text: readFileSync(join(dir!, f), 'utf8'),
        format: formatOf(f)!,
        source: f,
      });
      imported += report.imported.length;
    }
    if (imported === 0)
      importOrders(runtime.orders, runtime.scope, tenants, {
        text: JSON.stringify(fallbackOrders),
        format: 'json',
        source: 'demo orders',
      });
    ctx.log(
      `first run: demo profile on the embedded sandbox, virtual printer on port ${printer.port}`,
    );
  }
  return profile;
}
