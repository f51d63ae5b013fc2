// Builds a station (database, platform client, packing workflow) for the demo world, without
// vitest, so both the tests and the child processes of the crash tests can use it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LabelPrintQueue } from '../../../../src/core/labels/print-queue.js';
import { NeedsAttention } from '../../../../src/core/packing/needs-attention.js';
import {
  classifyPlatformError,
  packingPlatformFrom,
} from '../../../../src/core/packing/platform-adapter.js';
import type { PurchaseHooks } from '../../../../src/core/packing/label-purchase.js';
import { PackingWorkflow } from '../../../../src/core/packing/packing-workflow.js';
import { PlatformClient } from '../../../../src/core/platform/index.js';
import type { PrinterConfig } from '../../../../src/core/printing/types.js';
import {
  profileSchema,
  tenantsOf,
  type Profile,
  type ProfileInput,
} from '../../../../src/core/profiles/profile-schema.js';
import { openDatabase, type Db } from '../../../../src/core/storage/database.js';
import type { Clock, Environment } from '../../../../src/core/storage/scope.js';
import type { OrderClaims } from '../../../../src/core/site/link.js';
import { CarrierHealth } from '../../../../src/core/tracking/carrier-health.js';

const repo = join(import.meta.dirname, '../../../..');
const world = JSON.parse(
  readFileSync(join(repo, 'resources/fixtures/demo-world.json'), 'utf8'),
) as { apiClients: { clientId: string; clientSecret: string }[] };

export const samples = {
  csv: readFileSync(join(repo, 'resources/orders/sample-orders.csv'), 'utf8'),
  json: readFileSync(join(repo, 'resources/orders/sample-orders.json'), 'utf8'),
};

export function secretOf(clientId: string): string {
  const client = world.apiClients.find((c) => c.clientId === clientId);
  if (!client) throw new Error(`no demo client ${clientId}`);
  return client.clientSecret;
}

/** Lumen Candle Works: a brand shipping for itself from its Chicago workshop. */
export function lumenProfile(
  baseUrl: string,
  printers: PrinterConfig[] = [],
  overrides: Partial<ProfileInput> = {},
): Profile {
  return profileSchema.parse({
    id: 'lumen-chicago-1',
    name: 'Lumen Chicago station 1',
    environment: 'sandbox',
    baseUrl,
    clientId: 'demo-lumen-full',
    tenantId: 'tnt_lumen',
    tenantType: 'brand',
    shippingSiteId: 'site_lumen_chicago',
    shipFrom: {
      company: 'Lumen Candle Works',
      addressLine1: '1200 W Fulton Market',
      city: 'Chicago',
      stateProvince: 'IL',
      postalCode: '60607',
      countryCode: 'US',
    },
    printers,
    ...overrides,
  } satisfies ProfileInput);
}

/** Harbor Fulfillment: a 3PL shipping for Driftwood Coffee and Pinecrest Outdoor from Edison. */
export function harborProfile(
  baseUrl: string,
  printers: PrinterConfig[] = [],
  overrides: Partial<ProfileInput> = {},
): Profile {
  return profileSchema.parse({
    id: 'harbor-edison-3',
    name: 'Harbor Edison station 3',
    environment: 'sandbox',
    baseUrl,
    clientId: 'demo-harbor-full',
    tenantId: 'tnt_harbor',
    tenantType: 'thirdPartyLogistic',
    brandTenants: [
      { tenantId: 'tnt_driftwood', name: 'Driftwood Coffee Co.' },
      { tenantId: 'tnt_pinecrest', name: 'Pinecrest Outdoor Supply' },
    ],
    shippingSiteId: 'site_harbor_edison',
    shipFrom: {
      company: 'Harbor Fulfillment',
      addressLine1: '100 Raritan Center Pkwy',
      city: 'Edison',
      stateProvince: 'NJ',
      postalCode: '08837',
      countryCode: 'US',
    },
    printers,
    ...overrides,
  } satisfies ProfileInput);
}

export interface Station {
  db: Db;
  client: PlatformClient;
  workflow: PackingWorkflow;
  /** The carrier accounts as last read (refresh() reads them), which the workflow consults. */
  health: CarrierHealth;
  attention: NeedsAttention;
  close(): void;
}

export function openStation(options: {
  dbFile: string;
  profile: Profile;
  printQueue: LabelPrintQueue;
  hooks?: PurchaseHooks;
  labelTimeoutMs?: number;
  environment?: Environment;
  /** The station's clock (rates go stale after RATES_FRESH_MS of it). */
  clock?: Clock;
  /** The site store's order claim (issue 12). */
  orderClaims?: OrderClaims;
  /** How far a lost purchase's look-up reads the tracker list (the adapter's default otherwise). */
  trackerSearch?: { pageSize: number; maxPages: number };
}): Station {
  const { profile } = options;
  const db = openDatabase(options.dbFile);
  const client = new PlatformClient({
    baseUrl: profile.baseUrl!,
    clientId: profile.clientId,
    tenantId: profile.tenantId,
    environment: profile.environment,
    getSecret: () => secretOf(profile.clientId),
    proactiveTokenRefresh: false,
    labelTimeoutMs: options.labelTimeoutMs ?? 10_000,
    timeoutMs: 5_000,
    retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 20 },
    // A test that moves the station's clock moves the client's too (a Retry-After's hold).
    ...(options.clock ? { now: () => options.clock!().getTime() } : {}),
  });
  // As the station wires it (runtime.ts): the carrier accounts' last known state.
  const health = new CarrierHealth(client, db, {
    profileId: profile.id,
    environment: profile.environment,
    tenantId: profile.tenantId,
  });
  const workflow = new PackingWorkflow({
    db,
    profile,
    lapsedAccount: (tenantId, accountId) => health.lapsed(tenantId, accountId),
    platform: packingPlatformFrom(client, Date.now, options.trackerSearch),
    classify: classifyPlatformError,
    printQueue: options.printQueue,
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.orderClaims ? { orderClaims: options.orderClaims } : {}),
  });
  return {
    db,
    client,
    workflow,
    health,
    attention: new NeedsAttention(workflow),
    close() {
      client.close();
      db.close();
    },
  };
}

export function tenantPolicy(profile: Profile) {
  return { defaultTenantId: profile.tenantId, allowedTenantIds: tenantsOf(profile) };
}
