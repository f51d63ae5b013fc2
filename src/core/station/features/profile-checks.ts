// What the platform and the profile's own accounts say of a profile before it is saved: the
// site, the key's access, a refused secret or tenant, and the rate rule. Asked by setup
// (create, provision, a change of site or rule) in profiles.ts; the temporary client used to
// ask with a typed secret is here too.
import { PlatformClient, PlatformError } from '../../platform/index.js';
import { ruleKey } from '../../packing/rate-rule.js';
import { baseUrlProblem } from '../../profiles/base-url.js';
import { secretProblem } from '../../profiles/secret-vault.js';
import type { Profile } from '../../profiles/profile-schema.js';
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
  field: 'shippingSiteId' | 'clientId' | 'clientSecretEnv' | 'tenantId';
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
  ask: { key: boolean } = { key: true },
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
    if (!sites.some((site) => site.id === profile.shippingSiteId)) {
      const listed = sites.map((site) => (site.name ? `${site.id} (${site.name})` : site.id));
      const message = `is not one of tenant ${profile.tenantId}'s shipping sites on the platform at ${baseUrl}: ${listed.length ? `it has ${listed.join(', ')}` : 'it has none'}`;
      return [{ field: 'shippingSiteId', message }];
    }
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

/**
 * What in a rate rule names nothing this profile's carrier accounts have (a typo that would
 * quietly never match), or excludes every carrier they have (every order would then fail at
 * Pack): said where the rule is saved. Unchecked while the accounts are not known yet.
 */
export function rateRuleProblem(
  rule: { preferredServiceLevels?: readonly string[]; excludedCarriers?: readonly string[] },
  accounts: readonly { carrier: string | null; serviceLevels: readonly string[] }[],
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
  return null;
}
