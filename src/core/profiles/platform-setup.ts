import type { PlatformClient, ShippingSite, Tenant } from '../platform/index.js';
import type { Address } from '../orders/types.js';

/** What the platform says about the profile's tenant: its type and, for a 3PL, its brands. */
export interface TenantDiscovery {
  tenantId: string;
  name: string;
  tenantType: 'thirdPartyLogisticParent' | 'thirdPartyLogistic' | 'brand' | undefined;
  brandTenants: { tenantId: string; name: string }[];
}

const tenantTypes = ['thirdPartyLogisticParent', 'thirdPartyLogistic', 'brand'] as const;

/**
 * Reads GET /api/v1/tenants (the tree under the profile's tenant) and lists every brand below
 * it, at any depth. A brand profile gets an empty list.
 */
export async function discoverTenants(client: PlatformClient): Promise<TenantDiscovery> {
  const roots = await client.listTenants();
  const self = find(roots, client.tenantId);
  if (!self)
    throw new Error(
      `The platform did not list tenant ${client.tenantId} for client ${client.clientId}; check the tenant id in the profile.`,
    );
  const brands: { tenantId: string; name: string }[] = [];
  const walk = (tenant: Tenant) => {
    for (const child of tenant.children ?? []) {
      if (child.type === 'brand') brands.push({ tenantId: child.tenantId, name: child.name ?? '' });
      walk(child);
    }
  };
  walk(self);
  const type = tenantTypes.find((t) => t === self.type);
  return { tenantId: self.tenantId, name: self.name ?? '', tenantType: type, brandTenants: brands };
}

function find(tenants: readonly Tenant[], id: string): Tenant | undefined {
  for (const tenant of tenants) {
    if (tenant.tenantId === id) return tenant;
    const below = find(tenant.children ?? [], id);
    if (below) return below;
  }
  return undefined;
}

/** The shipping sites a profile can pick from (GET /api/v1/shippingSites). */
export function listShippingSites(client: PlatformClient): Promise<ShippingSite[]> {
  return client.listShippingSites();
}

/**
 * Creates the station's site on the platform (POST /api/v1/shippingSites) and returns what
 * the profile stores: its id and the ship-from address.
 */
export async function createShippingSite(
  client: PlatformClient,
  name: string,
  address: Address,
): Promise<{ shippingSiteId: string; shipFrom: Address }> {
  const site = await client.createShippingSite({ name, address: stripUndefined(address) });
  return { shippingSiteId: site.id, shipFrom: address };
}

/** The ship-from address of a listed site, in the profile's shape. */
export function shipFromOf(site: ShippingSite): Address | undefined {
  const a = site.address;
  if (!a?.addressLine1 || !a.city || !a.postalCode || !a.countryCode) return undefined;
  const text = (v: string | null | undefined) => v ?? undefined;
  return {
    name: text(a.name),
    company: text(a.company) ?? text(site.name),
    phone: text(a.phone),
    email: text(a.email),
    addressLine1: a.addressLine1,
    addressLine2: text(a.addressLine2),
    city: a.city,
    stateProvince: text(a.stateProvince),
    postalCode: a.postalCode,
    countryCode: a.countryCode,
  };
}

function stripUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never;
}
