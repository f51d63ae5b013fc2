import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { profileCalls } from '../../../shared/features/profiles.js';
import type { TenantNode } from '../../../shared/views.js';
import type { Profile } from '../../profiles/profile-schema.js';
import type { StationContext } from '../context.js';
import { StationFailure } from '../errors.js';
import { tempClient } from './profile-checks.js';
import { allBelow, findTenant, tenantNode } from './tenant-nodes.js';
import { leadFor } from './users.js';

/**
 * A profile's brands after it was made (a 3PL's new merchant): the tenants under its tenant on
 * the platform, asked with the profile's stored secret, and the ones ticked. Changing them is a
 * shift lead's where users are set up (it decides whose orders this station buys labels for).
 */
export function profileBrandHandlers(
  ctx: StationContext,
): Pick<FeatureHandlers<typeof profileCalls>, 'profiles.brands' | 'profiles.setBrands'> {
  function profileOf(id: string): Profile {
    const profile = ctx.profiles.get(id);
    if (!profile) throw new StationFailure('not-found', `No profile ${id}.`);
    return profile;
  }

  /** The tenants below the profile's own, as the platform lists them now. */
  async function below(profile: Profile): Promise<TenantNode[]> {
    const running = ctx.runtimeOrNull();
    // The embedded sandbox's address is the running one (a profile on it names none).
    const baseUrl =
      profile.baseUrl ?? (running?.profile.id === profile.id ? running.baseUrl : undefined);
    if (!baseUrl)
      throw new StationFailure(
        'validation',
        `Profile ${profile.name} works on the embedded sandbox, which runs only while it is in use: Use it, then change its brands.`,
      );
    const secret = await ctx.profiles.clientSecret(profile).catch(() => undefined);
    if (!secret)
      throw new StationFailure(
        'validation',
        `Profile ${profile.name} has no client secret, so the platform cannot be asked for its brands: Replace secret first.`,
      );
    const client = tempClient(
      {
        baseUrl,
        clientId: profile.clientId,
        clientSecret: secret,
        environment: profile.environment,
      },
      profile.tenantId,
    );
    try {
      const nodes = (await client.listTenants()).map(tenantNode);
      return findTenant(nodes, profile.tenantId)?.children ?? [];
    } finally {
      client.close();
    }
  }

  return {
    'profiles.brands': async ({ id }) => {
      const profile = profileOf(id);
      return {
        options: await below(profile),
        chosen: profile.brandTenants.map((b) => b.tenantId),
      };
    },
    'profiles.setBrands': async ({ id, brandTenantIds }) => {
      const current = profileOf(id);
      const ids = [...new Set(brandTenantIds.map((b) => b.trim()).filter(Boolean))];
      const before = current.brandTenants.map((b) => b.tenantId);
      if (ids.length === before.length && ids.every((b) => before.includes(b)))
        return ctx.view(current);
      const options = allBelow(await below(current));
      const unknown = ids.filter((b) => !options.some((o) => o.tenantId === b));
      if (unknown.length)
        throw new StationFailure(
          'validation',
          `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a brand' : 'are not brands'} under tenant ${current.tenantId} on the platform: the brands were not changed.`,
          [{ field: 'brandTenantIds', message: 'not under this profile’s tenant' }],
        );
      leadFor(ctx, {
        kind: 'profile-setting',
        what: 'changing the brands this station ships for',
        profile: current.name,
      });
      const next = await ctx.saveProfile({
        ...current,
        brandTenants: ids.map((b) => ({
          tenantId: b,
          name: options.find((o) => o.tenantId === b)?.name ?? '',
        })),
      });
      ctx.log(
        `brands of profile ${current.name} (${current.id}): ${ids.length ? ids.join(', ') : 'none'}`,
      );
      return ctx.view(next);
    },
  };
}
