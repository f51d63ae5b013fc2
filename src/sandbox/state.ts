import { randomBytes } from 'node:crypto';
import {
  type Address,
  type AuthorizationStatus,
  type Fixtures,
  type TenantType,
} from './fixtures.js';

export interface Tenant {
  tenantId: string;
  name: string;
  type: TenantType;
  parentTenantId: string | null;
}

export interface ApiClient {
  clientId: string;
  clientSecret: string;
  tenantId: string;
  access: 'full' | 'readOnly';
}

export interface ShippingSite {
  id: string;
  tenantId: string;
  name: string;
  address: Address;
  createdAt: string;
  updatedAt: string;
}

export interface Connection {
  id: string;
  name: string;
  ownerTenantId: string;
  ownershipType: 'BRAND' | 'PARTNER';
  carrier: string;
  accountNumber: string;
  authorizationType: 'OAUTH2' | 'APIKEY';
  authorizationStatus: AuthorizationStatus;
  createdAt: string;
  updatedAt: string;
}

export interface CarrierAccount {
  id: string;
  name: string;
  tenantId: string;
  carrierAccountConnectionId: string;
  serviceLevels: string[];
  isActive: boolean;
  locationIds: string[];
  allowedLocationIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface AccessToken {
  token: string;
  clientId: string;
  tenantId: string;
  access: 'full' | 'readOnly';
  expiresAtMs: number;
}

export interface RateQuote {
  id: string;
  tenantId: string;
  carrierAccountId: string;
  serviceLevel: string;
  amount: number;
  transitDays: number;
  expiresAtMs: number;
  /** priceKey of the rated shipment: the quote prices that shipment only. */
  priced: string;
}

export interface LabelRecord {
  id: string;
  tenantId: string;
  carrierAccountId: string;
  carrier: string;
  serviceLevel: string;
  orderReference: string | null;
  trackingNumber: string;
  packages: { trackingNumber: string; trackerId: string }[];
  amount: number;
  zpl: string;
  /** The shipping site it ships from (a manifest is per site), when the origin had one. */
  shippingSiteId: string | null;
  /** The manifest it is on (POST /api/v1/manifests), once it is. */
  manifestId: string | null;
  createdAt: string;
}

/** A close-out of labels for the carrier (the spec names the endpoint without showing it). */
export interface ManifestRecord {
  id: string;
  tenantId: string;
  shippingSiteId: string;
  carrier: string | null;
  labelIds: string[];
  trackingNumbers: string[];
  createdAt: string;
}

export interface LedgerEntry {
  id: string;
  tenantId: string;
  carrierAccountId: string;
  serviceLevel: string;
  orderReference: string | null;
  trackingNumber: string;
  amount: number;
  currency: 'USD';
  /** shipment.batchId of the request (labels bought in one batch run), or null. */
  batchId: string | null;
  createdAt: string;
}

/** Opaque identifiers with a readable prefix; random so ids never repeat across sandboxes. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(9).toString('base64url')}`;
}

/**
 * Everything the sandbox knows, with the indexes the hot paths need, built once from fixtures.
 * Trackers and webhooks keep their own stores (trackers.ts, webhooks/).
 */
export class SandboxState {
  readonly tenants = new Map<string, Tenant>();
  readonly children = new Map<string, string[]>();
  readonly clients = new Map<string, ApiClient>();
  readonly sites = new Map<string, ShippingSite>();
  readonly sitesByTenant = new Map<string, ShippingSite[]>();
  readonly connections = new Map<string, Connection>();
  readonly accounts = new Map<string, CarrierAccount>();
  readonly accountsByTenant = new Map<string, Set<string>>();
  readonly tokens = new Map<string, AccessToken>();
  readonly quotes = new Map<string, RateQuote>();
  readonly labels = new Map<string, LabelRecord>();
  readonly manifests = new Map<string, ManifestRecord>();
  readonly ledger: LedgerEntry[] = [];
  /** How each carrier of the fixtures authorizes (OAUTH2 when any of its connections does). */
  readonly carrierAuthorization = new Map<string, 'OAUTH2' | 'APIKEY'>();
  private labelSeq = 0;

  constructor(fixtures: Fixtures, nowIso: string) {
    for (const t of fixtures.tenants) {
      this.tenants.set(t.tenantId, {
        tenantId: t.tenantId,
        name: t.name,
        type: t.type,
        parentTenantId: t.parentTenantId ?? null,
      });
      this.children.set(t.tenantId, []);
    }
    for (const t of fixtures.tenants) {
      if (t.parentTenantId) this.children.get(t.parentTenantId)?.push(t.tenantId);
    }
    for (const c of fixtures.apiClients) this.clients.set(c.clientId, { ...c });
    for (const s of fixtures.shippingSites)
      this.addSite({ ...s, address: { ...s.address }, createdAt: nowIso, updatedAt: nowIso });
    for (const c of fixtures.connections) {
      this.connections.set(c.id, { ...c, createdAt: nowIso, updatedAt: nowIso });
      if (this.carrierAuthorization.get(c.carrier) !== 'OAUTH2')
        this.carrierAuthorization.set(c.carrier, c.authorizationType);
    }
    for (const a of fixtures.carrierAccounts)
      this.addAccount({
        id: a.id,
        name: a.name,
        tenantId: a.tenantId,
        carrierAccountConnectionId: a.carrierAccountConnectionId,
        serviceLevels: [...a.serviceLevels],
        isActive: a.isActive,
        locationIds: [...(a.locationIds ?? [])],
        allowedLocationIds: [...(a.allowedLocationIds ?? [])],
        createdAt: nowIso,
        updatedAt: nowIso,
      });
  }

  /** True when `tenantId` is `ancestorId` or sits somewhere below it. */
  isSelfOrDescendant(tenantId: string, ancestorId: string): boolean {
    let cur = this.tenants.get(tenantId);
    while (cur) {
      if (cur.tenantId === ancestorId) return true;
      cur = cur.parentTenantId ? this.tenants.get(cur.parentTenantId) : undefined;
    }
    return false;
  }

  /** The tenant and its ancestors, nearest first. */
  lineage(tenantId: string): string[] {
    const out: string[] = [];
    let cur = this.tenants.get(tenantId);
    while (cur) {
      out.push(cur.tenantId);
      cur = cur.parentTenantId ? this.tenants.get(cur.parentTenantId) : undefined;
    }
    return out;
  }

  /** The tenant and every tenant below it. */
  subtree(tenantId: string): string[] {
    const out: string[] = [];
    const stack = [tenantId];
    while (stack.length > 0) {
      const id = stack.pop()!;
      out.push(id);
      stack.push(...(this.children.get(id) ?? []));
    }
    return out;
  }

  addSite(site: ShippingSite): void {
    this.sites.set(site.id, site);
    const list = this.sitesByTenant.get(site.tenantId) ?? [];
    list.push(site);
    this.sitesByTenant.set(site.tenantId, list);
  }

  addAccount(account: CarrierAccount): void {
    this.accounts.set(account.id, account);
    const set = this.accountsByTenant.get(account.tenantId) ?? new Set<string>();
    set.add(account.id);
    this.accountsByTenant.set(account.tenantId, set);
  }

  removeAccount(id: string): void {
    const account = this.accounts.get(id);
    if (!account) return;
    this.accounts.delete(id);
    this.accountsByTenant.get(account.tenantId)?.delete(id);
  }

  accountsOf(tenantId: string): CarrierAccount[] {
    const ids = this.accountsByTenant.get(tenantId);
    if (!ids) return [];
    const out: CarrierAccount[] = [];
    for (const id of ids) {
      const a = this.accounts.get(id);
      if (a) out.push(a);
    }
    return out;
  }

  addQuote(quote: RateQuote): void {
    this.quotes.set(quote.id, quote);
    // Bound memory under benchmarks: quotes live 24 h but only the newest 50k are kept.
    if (this.quotes.size > 50_000) {
      const oldest = this.quotes.keys().next();
      if (!oldest.done) this.quotes.delete(oldest.value);
    }
  }

  nextLabelSeq(): number {
    return ++this.labelSeq;
  }
}
