// What the platform and the profile's own accounts say of a profile before it is saved: the
// site, the key's access, a refused secret or tenant, and the rate rule. Asked by setup
// (create, provision, a change of site or rule) in profiles.ts; the temporary client used to
// ask with a typed secret is here too.
import { PlatformClient, PlatformError } from '../../platform/index.js';
import { ruleKey } from '../../packing/rate-rule.js';
import { baseUrlProblem } from '../../profiles/base-url.js';
import { secretProblem } from '../../profiles/secret-vault.js';
import type { Profile } from '../../profiles/profile-schema.js';
import type { ShippingSite } from '../../platform/schemas.js';
import type { StationContext } from '../context.js';
import { StationFailure } from '../errors.js';

export type Creds = {
  environment: Profile['environment'];
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  tenantId?: string | undefined;
};

export function tempClient(c: Creds, tenantId: string): PlatformClient {
  // The secret typed in the form goes to this address: the same rules as a stored profile's.
  const problem = baseUrlProblem(c.baseUrl);
  if (problem)
    throw new StationFailure('validation', `The base URL ${problem}.`, [
      { field: 'baseUrl', message: problem },
    ]);
  const secret = secretProblem(c.clientSecret);
  if (secret)
    throw new StationFailure('validation', secret, [{ field: 'clientSecret', message: secret }]);
  return new PlatformClient({
    baseUrl: c.baseUrl,
    clientId: c.clientId,
    tenantId,
    environment: c.environment,
    getSecret: () => c.clientSecret,
    timeoutMs: 8000,
    proactiveTokenRefresh: false,
  });
}

/** What the platform refuses of a profile, by the profile's field it is about. */
export interface PlatformProblem {
  field: 'shippingSiteId' | 'clientId' | 'clientSecretEnv' | 'tenantId' | 'shipFrom';
  /** A sentence that follows the field's name. */
  message: string;
}

/**
 * The platform refused the profile before its site could be looked at: said of the field that
 * is wrong, so site IT mends the variable or the tenant, not the site.
 */
function refusal(error: PlatformError, profile: Profile, baseUrl: string): PlatformProblem {
  const ref = error.correlationId ? ` (ref ${error.correlationId})` : '';
  if (error.kind === 'auth') {
    const env = profile.clientSecretEnv;
    return env
      ? {
          field: 'clientSecretEnv',
          message: `names ${env}, and the platform at ${baseUrl} refused that secret for client ${profile.clientId}: check the variable's value (and the client id) against the platform's API keys${ref}`,
        }
      : {
          field: 'clientId',
          message: `${profile.clientId} was refused by the platform at ${baseUrl} with the secret given: check the client id and secret against the platform's API keys${ref}`,
        };
  }
  if (error.kind === 'wrong-tenant')
    return {
      field: 'tenantId',
      message: `${profile.tenantId} is not a tenant client ${profile.clientId} may act for on the platform at ${baseUrl}: check the tenant id${ref}`,
    };
  return { field: 'shippingSiteId', message: `could not be checked: ${error.message}` };
}

/** After "clientId": a key that can read but not buy, said where the key is set up. */
export const readOnlyKey = (baseUrl: string) =>
  `is a read-only API key on the platform at ${baseUrl}: it can rate but not buy labels; ask the platform's administrator for a key with full access`;

/**
 * What the platform refuses of `profile` before it is saved: its shippingSiteId when the site
 * is not one of its tenant's (or a refused key or tenant: that profile would fail the same
 * way), then, with `key`, its API key when it is read-only. Empty when all is well, or when the
 * platform cannot be asked: no secret yet, no address, not reached (checked at the first
 * rating instead). Provisioning and a change of site ask it, as creating a profile does: a
 * wrong site or key in a file handed to twenty stations is said to site IT, not to each packer
 * at the first scan or purchase.
 */
export async function platformProblems(
  ctx: StationContext,
  profile: Profile,
  secret: string | undefined,
  ask: {
    key: boolean;
    /** Off: the ship-from is not compared with the site's address (the caller takes the site's). */
    shipFrom?: boolean;
    /** Told the site found, with its address as the platform has it. */
    onSite?: (site: ShippingSite) => void;
  } = { key: true },
): Promise<PlatformProblem[]> {
  const running = ctx.runtimeOrNull();
  // The embedded sandbox's address is the running one (a profile on it names none).
  const baseUrl =
    profile.baseUrl ?? (running?.profile.id === profile.id ? running.baseUrl : undefined);
  if (!baseUrl || !secret || baseUrlProblem(baseUrl) || secretProblem(secret)) return [];
  const client = tempClient(
    { baseUrl, clientId: profile.clientId, clientSecret: secret, environment: profile.environment },
    profile.tenantId,
  );
  try {
    const sites = await client.listShippingSites();
    const site = sites.find((s) => s.id === profile.shippingSiteId);
    if (!site) {
      const listed = sites.map((s) => (s.name ? `${s.id} (${s.name})` : s.id));
      const message = `is not one of tenant ${profile.tenantId}'s shipping sites on the platform at ${baseUrl}: ${listed.length ? `it has ${listed.join(', ')}` : 'it has none'}`;
      return [{ field: 'shippingSiteId', message }];
    }
    ask.onSite?.(site);
    const elsewhere = ask.shipFrom === false ? null : shipFromMismatch(profile.shipFrom, site);
    if (elsewhere) return [{ field: 'shipFrom', message: elsewhere }];
    if (ask.key && (await client.keyAccess()) === 'read-only')
      return [{ field: 'clientId', message: readOnlyKey(baseUrl) }];
    return [];
  } catch (error) {
    if (error instanceof PlatformError && !error.retryable)
      return [refusal(error, profile, baseUrl)];
    return [];
  } finally {
    client.close();
  }
}

const squash = (v: string | null | undefined) => (v ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');

/** An address in one line, for a sentence. */
type Lines = {
  [K in 'addressLine1' | 'city' | 'stateProvince' | 'postalCode' | 'countryCode']?:
    string | null | undefined;
};

export function oneLine(a: Lines | null | undefined): string {
  if (!a) return '';
  const place = [a.city, [a.stateProvince, a.postalCode].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return [a.addressLine1, place, a.countryCode].filter(Boolean).join(', ');
}

/**
 * The ship-from of a profile moved to another site: that site's address as the platform has it
 * (its lines, city, postal code, country), with the profile's own name, company, phone and email
 * kept where the site has none. Null when the platform gives no usable address.
 */
export function siteShipFrom(
  current: Profile['shipFrom'],
  address: ShippingSite['address'],
): Profile['shipFrom'] | null {
  if (!address?.addressLine1 || !address.city || !address.postalCode || !address.countryCode)
    return null;
  const given = Object.fromEntries(
    Object.entries(address).filter(
      ([k, v]) => k !== 'siteId' && typeof v === 'string' && v.trim() !== '',
    ),
  ) as Partial<Profile['shipFrom']>;
  return {
    ...(current.name ? { name: current.name } : {}),
    ...(current.company ? { company: current.company } : {}),
    ...(current.phone ? { phone: current.phone } : {}),
    ...(current.email ? { email: current.email } : {}),
    ...given,
    ...(typeof address.isResidential === 'boolean' ? { isResidential: address.isResidential } : {}),
  } as Profile['shipFrom'];
}

/**
 * A ship-from that is not the site's address (as the platform has it): labels would carry
 * another warehouse's return address while the purchase names this site as the origin (a
 * profile moved to another site with its old address, a file copied from another station).
 * Compared on the first line, postal code and country, ignoring case, spaces and punctuation
 * (and a ZIP+4 against its 5 digits); nothing is said when the platform gives no address.
 */
export function shipFromMismatch(shipFrom: Lines | undefined, site: ShippingSite): string | null {
  const a = site.address;
  if (!a?.addressLine1 || !a.postalCode || !shipFrom) return null;
  const zip = (v: string | null | undefined) => squash(v).slice(0, 5);
  const same =
    squash(shipFrom.addressLine1) === squash(a.addressLine1) &&
    zip(shipFrom.postalCode) === zip(a.postalCode) &&
    (!a.countryCode || squash(shipFrom.countryCode) === squash(a.countryCode));
  if (same) return null;
  const name = site.name ? `${site.id} (${site.name})` : site.id;
  return `is ${oneLine(shipFrom)}, but site ${name} is at ${oneLine(a)} on the platform: labels would carry the wrong return address and origin. Use the site's address as shipFrom, or the site whose address this is`;
}

/**
 * What in a rate rule names nothing this profile's carrier accounts have (a typo that would
 * quietly never match), or excludes every carrier they have (every order would then fail at
 * Pack): said where the rule is saved. Unchecked while the accounts are not known yet.
 */
export function rateRuleProblem(
  rule: { preferredServiceLevels?: readonly string[]; excludedCarriers?: readonly string[] },
  accounts: readonly {
    carrier: string | null;
    serviceLevels: readonly string[];
    /** The account can rate now (connection AUTHORIZED, active); unknown: counted as usable. */
    usable?: boolean;
    authorizationStatus?: string;
  }[],
): string | null {
  const known = accounts.filter((a) => a.carrier);
  if (known.length === 0) return null;
  const services = new Set(known.flatMap((a) => a.serviceLevels.map(ruleKey)));
  const carriers = new Set(known.map((a) => ruleKey(a.carrier!)));
  const list = (set: Set<string>) => [...set].sort().join(', ');
  const unknownServices = (rule.preferredServiceLevels ?? []).filter(
    (s) => services.size > 0 && !services.has(ruleKey(s)),
  );
  if (unknownServices.length)
    return `${unknownServices.join(', ')} ${unknownServices.length === 1 ? 'is not a service level' : 'are not service levels'} of this profile's carrier accounts (they offer ${list(services)})`;
  const excluded = rule.excludedCarriers ?? [];
  const unknownCarriers = excluded.filter((c) => !carriers.has(ruleKey(c)));
  if (unknownCarriers.length)
    return `${unknownCarriers.join(', ')} ${unknownCarriers.length === 1 ? 'is not a carrier' : 'are not carriers'} of this profile's carrier accounts (they are ${list(carriers)})`;
  if ([...carriers].every((c) => excluded.some((e) => ruleKey(e) === c)))
    return `it excludes every carrier this profile has (${list(carriers)}), so no order could be rated`;
  // What the rule leaves must be able to rate: excluding every carrier that works now, leaving
  // one whose connection is PENDING or EXPIRED, fails every order at Pack just the same.
  const left = known.filter((a) => !excluded.some((e) => ruleKey(e) === ruleKey(a.carrier!)));
  if (excluded.length > 0 && left.length > 0 && left.every((a) => a.usable === false)) {
    const why = [
      ...new Set(
        left.map(
          (a) => `${a.carrier}${a.authorizationStatus ? ` (${a.authorizationStatus})` : ''}`,
        ),
      ),
    ].join(', ');
    return `it leaves only ${why}, which cannot rate now, so no order could be rated until its connection is authorized`;
  }
  return null;
}
