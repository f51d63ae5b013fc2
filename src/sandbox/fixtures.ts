import { readFileSync } from 'node:fs';
import { z } from 'zod';
import demoWorldJson from '../../resources/fixtures/demo-world.json';
import { fieldPath } from './validation.js';

export const TENANT_TYPES = ['thirdPartyLogisticParent', 'thirdPartyLogistic', 'brand'] as const;
export const AUTHORIZATION_STATUSES = [
  'UNAUTHORIZED',
  'PENDING',
  'AUTHORIZED',
  'EXPIRED',
  'ERROR',
] as const;
export type AuthorizationStatus = (typeof AUTHORIZATION_STATUSES)[number];
export type TenantType = (typeof TENANT_TYPES)[number];

/** `<CARRIER>_<SERVICE>` in upper case. */
export const SERVICE_LEVEL_PATTERN = /^[A-Z0-9]+_[A-Z0-9_]+$/;
export const CARRIER_PATTERN = /^[A-Z0-9]+$/;

export const addressSchema = z.object({
  company: z.string().optional(),
  name: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  addressLine1: z.string().optional(),
  addressLine2: z.string().optional(),
  addressLine3: z.string().optional(),
  city: z.string().optional(),
  stateProvince: z.string().optional(),
  postalCode: z.string().optional(),
  countryCode: z.string().optional(),
  isResidential: z.boolean().optional(),
  siteId: z.string().optional(),
});
export type Address = z.infer<typeof addressSchema>;

const id = z.string().min(1);

const fixturesSchema = z.object({
  tenants: z.array(
    z.object({
      tenantId: id,
      name: z.string().min(1),
      type: z.enum(TENANT_TYPES),
      parentTenantId: id.nullish(),
    }),
  ),
  apiClients: z.array(
    z.object({
      clientId: id,
      clientSecret: id,
      tenantId: id,
      access: z.enum(['full', 'readOnly']),
    }),
  ),
  shippingSites: z.array(
    z.object({
      id,
      tenantId: id,
      // The issue gives a site's address as an Address, whose fields are all optional; what a
      // rate or a label needs from it is checked when it is used.
      name: z.string().min(1),
      address: addressSchema,
    }),
  ),
  connections: z.array(
    z.object({
      id,
      name: z.string().min(2).max(100),
      ownerTenantId: id,
      ownershipType: z.enum(['BRAND', 'PARTNER']),
      carrier: z.string().regex(CARRIER_PATTERN, 'must be an upper-case carrier code'),
      accountNumber: z.string().min(1),
      authorizationType: z.enum(['OAUTH2', 'APIKEY']),
      authorizationStatus: z.enum(AUTHORIZATION_STATUSES),
    }),
  ),
  carrierAccounts: z.array(
    z.object({
      id,
      name: z.string().min(2).max(100),
      tenantId: id,
      carrierAccountConnectionId: id,
      serviceLevels: z
        .array(z.string().regex(SERVICE_LEVEL_PATTERN, 'must have the form <CARRIER>_<SERVICE>'))
        .min(1),
      isActive: z.boolean().default(true),
      locationIds: z.array(z.string()).optional(),
      allowedLocationIds: z.array(z.string()).optional(),
    }),
  ),
});

export type Fixtures = z.infer<typeof fixturesSchema>;

export class FixtureError extends Error {
  constructor(
    readonly problems: string[],
    source: string,
  ) {
    super(`invalid sandbox fixtures (${source}):\n  ${problems.join('\n  ')}`);
    this.name = 'FixtureError';
  }
}

const ID_KEYS: Record<string, string> = {
  tenants: 'tenantId',
  apiClients: 'clientId',
  shippingSites: 'id',
  connections: 'id',
  carrierAccounts: 'id',
};

/**
 * A problem as `tenants[3].type: <message> (tenantId "cw-quill")`: the path into the file, and
 * the id of the entry when it has one, so the message names the bad entry.
 */
function problemAt(input: unknown, path: readonly PropertyKey[], message: string): string {
  const text = `${fieldPath(path) || '(root)'}: ${message}`;
  const [kind, index] = path;
  if (typeof kind !== 'string' || typeof index !== 'number') return text;
  const key = ID_KEYS[kind];
  const list = (input as Record<string, unknown> | null)?.[kind];
  const entry = Array.isArray(list) ? (list[index] as unknown) : undefined;
  const id =
    key && entry && typeof entry === 'object' ? (entry as Record<string, unknown>)[key] : undefined;
  return typeof id === 'string' && id !== '' ? `${text} (${key} "${id}")` : text;
}

function checkReferences(f: Fixtures): string[] {
  const problems: string[] = [];
  // The location stays in front; the entry's id is added at the end.
  const push = (location: string, message: string) => {
    const m = /^(\w+)\[(\d+)\]/.exec(location);
    const tail = m ? problemAt(f, [m[1]!, Number(m[2])], message) : `: ${message}`;
    problems.push(`${location}${tail.slice(tail.indexOf(': '))}`);
  };
  const dup = (kind: string, ids: string[]) => {
    const seen = new Set<string>();
    ids.forEach((value, i) => {
      if (seen.has(value)) push(`${kind}[${i}]`, `duplicate id "${value}"`);
      seen.add(value);
    });
  };
  dup(
    'tenants',
    f.tenants.map((t) => t.tenantId),
  );
  dup(
    'apiClients',
    f.apiClients.map((c) => c.clientId),
  );
  dup(
    'shippingSites',
    f.shippingSites.map((s) => s.id),
  );
  dup(
    'connections',
    f.connections.map((c) => c.id),
  );
  dup(
    'carrierAccounts',
    f.carrierAccounts.map((a) => a.id),
  );

  const tenants = new Map(f.tenants.map((t) => [t.tenantId, t]));
  f.tenants.forEach((t, i) => {
    if (t.parentTenantId == null) return;
    if (!tenants.has(t.parentTenantId))
      push(`tenants[${i}].parentTenantId`, `unknown tenant "${t.parentTenantId}"`);
    // Walk up to catch cycles.
    const seen = new Set<string>([t.tenantId]);
    let cur = tenants.get(t.parentTenantId);
    while (cur) {
      if (seen.has(cur.tenantId)) {
        push(`tenants[${i}].parentTenantId`, 'the tenant hierarchy has a cycle');
        break;
      }
      seen.add(cur.tenantId);
      cur = cur.parentTenantId ? tenants.get(cur.parentTenantId) : undefined;
    }
  });
  const tenantRef = (location: string, value: string) => {
    if (!tenants.has(value)) push(location, `unknown tenant "${value}"`);
  };
  f.apiClients.forEach((c, i) => tenantRef(`apiClients[${i}].tenantId`, c.tenantId));
  f.shippingSites.forEach((s, i) => tenantRef(`shippingSites[${i}].tenantId`, s.tenantId));
  f.connections.forEach((c, i) => tenantRef(`connections[${i}].ownerTenantId`, c.ownerTenantId));
  const connections = new Map(f.connections.map((c) => [c.id, c]));
  const sites = new Set(f.shippingSites.map((s) => s.id));
  f.carrierAccounts.forEach((a, i) => {
    tenantRef(`carrierAccounts[${i}].tenantId`, a.tenantId);
    const conn = connections.get(a.carrierAccountConnectionId);
    if (!conn) {
      push(
        `carrierAccounts[${i}].carrierAccountConnectionId`,
        `unknown connection "${a.carrierAccountConnectionId}"`,
      );
      return;
    }
    a.serviceLevels.forEach((level, j) => {
      if (!level.startsWith(`${conn.carrier}_`))
        push(
          `carrierAccounts[${i}].serviceLevels[${j}]`,
          `"${level}" is not a service level of carrier ${conn.carrier}`,
        );
    });
    for (const key of ['locationIds', 'allowedLocationIds'] as const) {
      (a[key] ?? []).forEach((siteId, j) => {
        if (!sites.has(siteId))
          push(`carrierAccounts[${i}].${key}[${j}]`, `unknown shipping site "${siteId}"`);
      });
    }
  });
  return problems;
}

/** Validates a fixtures object; throws a FixtureError naming every bad entry. */
export function parseFixtures(input: unknown, source = 'fixtures'): Fixtures {
  const result = fixturesSchema.safeParse(input);
  if (!result.success) {
    throw new FixtureError(
      result.error.issues.map((issue) => problemAt(input, issue.path, issue.message)),
      source,
    );
  }
  const problems = checkReferences(result.data);
  if (problems.length > 0) throw new FixtureError(problems, source);
  return result.data;
}

export function loadFixtures(path: string): Fixtures {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new FixtureError([`cannot read the file: ${(error as Error).message}`], path);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FixtureError([`not valid JSON: ${(error as Error).message}`], path);
  }
  return parseFixtures(json, path);
}

/** The demo world, bundled so an embedded sandbox needs no file path at run time. */
export function demoWorld(): Fixtures {
  return parseFixtures(structuredClone(demoWorldJson), 'resources/fixtures/demo-world.json');
}
