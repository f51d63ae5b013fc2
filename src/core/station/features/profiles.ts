import { isDeepStrictEqual } from 'node:util';
import { exportProfiles, provisionProfiles } from '../../profiles/provisioning.js';
import type { Profile } from '../../profiles/profile-schema.js';
import type { StationContext } from '../context.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { profileCalls } from '../../../shared/features/profiles.js';
import { StationFailure } from '../errors.js';
import { isPlatformError, type PlatformError } from '../../platform/errors.js';
import { leadFor } from './users.js';
import { findTenant, tenantNode } from './tenant-nodes.js';
import type { TenantNode } from '../../../shared/views.js';
import {
  platformProblems,
  siteShipFrom,
  rateRuleProblem,
  readOnlyKey,
  tempClient,
  type Creds,
} from './profile-checks.js';
import { printerChanges } from './printer-changes.js';

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'profile';

/** A value as JSON without its null and undefined fields (a form sends nulls the store omits). */
const unset = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (_k, v: unknown) => (v === null ? undefined : v)));

/**
 * Whether a platform's refusal of a request made without a tenant id is about the tenant: a 403
 * on the tenant (it wants x-tenant-id), or a refusal whose code, words or fields name a tenant.
 */
function aboutTheTenant(error: PlatformError): boolean {
  if (error.kind === 'wrong-tenant') return true;
  if (error.kind !== 'validation') return false;
  const said = [
    error.errorCode,
    error.platformMessage,
    ...error.fieldErrors.flatMap((f) => [f.field, f.message, f.code]),
  ];
  return said.some((w) => typeof w === 'string' && /tenant/i.test(w));
}

/** The platform's own words and reference, for a sentence of the station's about its refusal. */
function platformSaid(error: PlatformError): string {
  const ref = error.correlationId ? ` (ref ${error.correlationId})` : '';
  if (error.platformMessage) return ` The platform said: "${error.platformMessage}"${ref}.`;
  return error.correlationId ? ` The platform's reference: ${error.correlationId}.` : '';
}

/** Profiles: create from the platform's own tenant and site lists, edit, export, provision. */
export function profileHandlers(
  ctx: StationContext,
): Omit<FeatureHandlers<typeof profileCalls>, 'profiles.brands' | 'profiles.setBrands'> {
  const view = (p: Profile) => ctx.view(p);

  function refuseHotFolder(folder: string, from: 'page' | 'dialog'): void {
    const problem = ctx.hotFolderProblem(folder, from);
    if (problem)
      throw new StationFailure('validation', problem, [{ field: 'hotFolder', message: problem }]);
  }

  async function tenants(c: Creds): Promise<TenantNode[]> {
    // Without a tenant the key's own tenant is used for the token (the spec's default).
    const client = tempClient(c, c.tenantId || '');
    try {
      return (await client.listTenants()).map(tenantNode);
    } catch (error) {
      // A platform that insists on x-tenant-id even for the list: the person types it. Only
      // when its answer is about the tenant: a token request refused for another reason is
      // said in the platform's own words, with its reference (the error as it is).
      if (!c.tenantId && isPlatformError(error) && aboutTheTenant(error))
        throw new StationFailure(
          'validation',
          `The platform did not tell which tenant this API key belongs to. Type the key's tenant ID (in the platform's API keys settings) and load the tenants again.${platformSaid(error)}`,
        );
      throw error;
    } finally {
      client.close();
    }
  }

  return {
    // By name: the order a saved change made (a profile saved goes last) is not the person's.
    'profiles.list': async () =>
      Promise.all(
        ctx.profiles
          .list()
          .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
          .map(view),
      ),
    'profiles.tenants': tenants,
    'profiles.sites': async (c) => {
      const client = tempClient(c, c.tenantId);
      try {
        return (await client.listShippingSites()).map((s) => ({
          id: s.id,
          name: s.name ?? s.id,
          ...(s.address ? { address: s.address as never } : {}),
        }));
      } finally {
        client.close();
      }
    },
    'profiles.create': async (input) => {
      // Where users are set up, what the station buys with and for whom is a shift lead's.
      leadFor(ctx, { kind: 'profile-setting', what: 'adding a profile', profile: input.name });
      const client = tempClient(input, input.tenantId);
      let profile: Profile;
      try {
        const [tree, sites] = await Promise.all([client.listTenants(), client.listShippingSites()]);
        const nodes = tree.map(tenantNode);
        const site = sites.find((s) => s.id === input.shippingSiteId);
        if (!site)
          throw new StationFailure(
            'validation',
            `Shipping site ${input.shippingSiteId} is not one of tenant ${input.tenantId}'s sites.`,
          );
        if ((await client.keyAccess()) === 'read-only') {
          const message = readOnlyKey(input.baseUrl);
          throw new StationFailure(
            'validation',
            `The API key of client ${input.clientId} ${message}. Nothing was saved.`,
            [{ field: 'clientId', message }],
          );
        }
        const me = findTenant(nodes, input.tenantId);
        let id = slug(input.name);
        const taken = new Set(ctx.profiles.list().map((p) => p.id));
        for (let i = 2; taken.has(id); i++) id = `${slug(input.name)}-${i}`;
        profile = ctx.profiles.save({
          id,
          name: input.name,
          environment: input.environment,
          baseUrl: input.baseUrl,
          clientId: input.clientId,
          tenantId: input.tenantId,
          ...(me?.type ? { tenantType: me.type as never } : {}),
          brandTenants: input.brandTenantIds.map((b) => ({
            tenantId: b,
            name: findTenant(nodes, b)?.name ?? '',
          })),
          shippingSiteId: site.id,
          // A site's address that names no one (no company, no name) ships from the tenant's
          // name: until 2026-11-29 such a profile's labels had a street in FROM and nobody.
          shipFrom: (site.address?.company || site.address?.name || !me?.name
            ? (site.address ?? {})
            : { company: me.name, ...site.address }) as never,
        });
      } finally {
        client.close();
      }
      await ctx.profiles.setClientSecret(profile.id, input.clientSecret);
      ctx.log(
        `profile created: ${profile.name} (${profile.id}, ${profile.environment}, tenant ${profile.tenantId}, site ${profile.shippingSiteId})`,
      );
      if (input.activate) await ctx.activate(profile);
      return view(profile);
    },
    'profiles.update': async (input) => {
      const current = ctx.profiles.get(input.id);
      if (!current) throw new StationFailure('not-found', `No profile ${input.id}.`);
      if (typeof input.hotFolder === 'string' && input.hotFolder !== current.hotFolder)
        refuseHotFolder(input.hotFolder, 'page');
      const printers = input.printers ?? current.printers;
      let newSiteAddress: Profile['shipFrom'] | null = null;
      if (input.shippingSiteId && input.shippingSiteId !== current.shippingSiteId) {
        const moved = { ...current, shippingSiteId: input.shippingSiteId };
        const secret = await ctx.profiles
          .clientSecret(moved, ctx.options.env ?? process.env)
          .catch(() => undefined);
        const [problem] = await platformProblems(ctx, moved, secret, {
          key: false,
          // Another site is another warehouse: its address becomes the ship-from.
          shipFrom: false,
          onSite: (site) => {
            newSiteAddress = siteShipFrom(current.shipFrom, site.address);
          },
        });
        if (problem) {
          const what =
            problem.field === 'shippingSiteId'
              ? `Shipping site ${input.shippingSiteId} ${problem.message}`
              : `Shipping site ${input.shippingSiteId} could not be checked: the profile's ${problem.field} ${problem.message}`;
          throw new StationFailure(
            'validation',
            `${what}. The profile keeps ${current.shippingSiteId}.`,
            [{ field: problem.field, message: problem.message }],
          );
        }
      }
      if (input.rateRule) {
        const problem = rateRuleProblem(input.rateRule, ctx.runtimeOrNull()?.carriers() ?? []);
        if (problem)
          throw new StationFailure('validation', `The rate rule was not saved: ${problem}.`, [
            { field: 'rateRule', message: problem },
          ]);
      }
      // With users set up, loosening what decides the money spent or what goes in the box is a
      // shift lead's (asked once the form is known to be good).
      const loosened = [
        ...(input.rateRule && !isDeepStrictEqual(unset(input.rateRule), unset(current.rateRule))
          ? ['changing the rate rule']
          : []),
        ...(input.requireItemVerification === false && current.requireItemVerification
          ? ['turning off the scan of every item into the box']
          : []),
        ...(input.name && input.name !== current.name ? [`renaming it "${input.name}"`] : []),
        ...(input.shippingSiteId && input.shippingSiteId !== current.shippingSiteId
          ? [`shipping from site ${input.shippingSiteId}`]
          : []),
        ...(input.printers ? printerChanges(current.printers, input.printers) : []),
      ];
      if (loosened.length)
        leadFor(ctx, {
          kind: 'profile-setting',
          what: loosened.join(' and '),
          profile: current.name,
        });
      const labelPrinterId =
        input.defaultPrinterId === undefined
          ? current.labelPrinterId
          : (input.defaultPrinterId ?? undefined);
      const { maxTransitDays, ...rule } = input.rateRule ?? {
        ...current.rateRule,
        maxTransitDays: current.rateRule.maxTransitDays ?? null,
      };
      const next = await ctx.saveProfile({
        ...current,
        ...(input.name ? { name: input.name } : {}),
        ...(input.shippingSiteId ? { shippingSiteId: input.shippingSiteId } : {}),
        ...(newSiteAddress ? { shipFrom: newSiteAddress } : {}),
        rateRule: { ...rule, ...(maxTransitDays ? { maxTransitDays } : {}) },
        printers,
        labelPrinterId:
          labelPrinterId && printers.some((p) => p.id === labelPrinterId)
            ? labelPrinterId
            : undefined,
        hotFolder:
          input.hotFolder === undefined ? current.hotFolder : (input.hotFolder ?? undefined),
        requireItemVerification: input.requireItemVerification ?? current.requireItemVerification,
      });
      return view(next);
    },
    'profiles.setSecret': async ({ id, clientSecret }) => {
      const profile = ctx.profiles.get(id);
      if (!profile) throw new StationFailure('not-found', `No profile ${id}.`);
      leadFor(ctx, {
        kind: 'profile-setting',
        what: 'replacing its client secret',
        profile: profile.name,
      });
      // Checked with the platform before it replaces the one that works: a mistyped secret is
      // said now, to the person typing it, not an hour later to a packer when the token expires.
      // The embedded sandbox's address is the running one (a profile on it names none).
      const running = ctx.runtimeOrNull();
      const baseUrl = profile.baseUrl ?? (running?.profile.id === id ? running.baseUrl : null);
      if (baseUrl) {
        const client = tempClient(
          {
            baseUrl,
            clientId: profile.clientId,
            clientSecret,
            environment: profile.environment,
          },
          profile.tenantId,
        );
        try {
          await client.tokens.current();
        } catch (error) {
          const kind = (error as { kind?: unknown }).kind;
          // Refused: not stored. Not reached: stored, and checked at the next call instead.
          if (kind !== 'network' && kind !== 'retryable')
            throw new StationFailure(
              'validation',
              `${(error as Error).message}. The secret was not stored; the profile keeps the one it had.`,
              [{ field: 'clientSecret', message: 'not accepted by the platform' }],
            );
        } finally {
          client.close();
        }
      }
      await ctx.profiles.setClientSecret(id, clientSecret);
      ctx.log(`client secret replaced for profile ${profile.name} (${id})`);
      // The running profile asks with the new secret from now on: a "key refused" it showed is
      // over (the header turns at once, not at the next scan).
      if (running?.profile.id === id) {
        running.client.tokens.forget();
        running.client.tokens.refused = null;
        // What waited for the key goes on now, not at its next backoff: the queue (each entry
        // the refused key held back) and the background ratings.
        void running.drainer.drain(true).catch(() => {});
        running.preRater.wake();
        // And the tracker list, which said "no client secret" until its next pass (its backoff
        // after failures is longer than its 15 s interval). A site's one poller is left alone:
        // the station that polls for the site asks with its own key.
        if (!running.siteTrackers)
          void running.poller.pollNow().then(
            () => ctx.changed('tracking'),
            () => {},
          );
        ctx.changed('status');
      }
      // Now that the platform can be asked: the site (and ship-from) a file or a change left
      // unchecked for want of a secret. Said, not undone: the secret itself is right.
      const [problem] = await platformProblems(ctx, profile, clientSecret, { key: true });
      if (problem)
        return {
          stored: true as const,
          warning: `The secret was stored, but the profile's ${problem.field} ${problem.message}.`,
        };
      return { stored: true as const };
    },
    'profiles.chooseHotFolder': async ({ id }) => {
      const current = ctx.profiles.get(id);
      if (!current) throw new StationFailure('not-found', `No profile ${id}.`);
      if (!ctx.options.chooseFolder)
        throw new StationFailure(
          'not-available',
          'This host has no folder dialog; type a folder under a hot-folder root instead.',
        );
      const folder = await ctx.options.chooseFolder();
      if (!folder) return view(current); // cancelled
      refuseHotFolder(folder, 'dialog');
      return view(await ctx.saveProfile({ ...current, hotFolder: folder }));
    },
    'profiles.activate': async ({ id }) => {
      const p = ctx.profiles.get(id);
      if (!p) throw new StationFailure('not-found', `No profile ${id}.`);
      await ctx.activate(p);
      return view(p);
    },
    'profiles.export': async ({ id }) => {
      const p = ctx.profiles.get(id);
      if (!p) throw new StationFailure('not-found', `No profile ${id}.`);
      return {
        fileName: `${p.id}.station-profile.json`,
        json: JSON.stringify(exportProfiles([p]), null, 2),
      };
    },
    'profiles.remove': async ({ id }) => {
      const profile = ctx.profiles.get(id);
      if (!profile) throw new StationFailure('not-found', `No profile ${id}.`);
      leadFor(ctx, {
        kind: 'profile-setting',
        what: 'removing it from this station',
        profile: profile.name,
      });
      if (ctx.profiles.active()?.id === id)
        throw new StationFailure(
          'conflict',
          `"${profile.name}" is the profile this station is using: switch to another profile first, then remove it.`,
        );
      await ctx.profiles.remove(id);
      ctx.log(`profile removed: ${profile.name} (${id})`);
      return { removed: profile.name };
    },
    'profiles.provision': async ({ json, clientSecret }) => {
      leadFor(ctx, { kind: 'station-setup', what: 'provisioning profiles from a file' });
      const results = await provisionProfiles(ctx.profiles, json, {
        source: 'station',
        hotFolderProblem: (folder) => ctx.hotFolderProblem(folder, 'page'),
        ...(ctx.options.env ? { env: ctx.options.env } : {}),
        ...(clientSecret ? { typedSecret: async () => clientSecret } : {}),
        checkPlatform: (profile, secret) => platformProblems(ctx, profile, secret),
      });
      const first = results[0]!.profile;
      for (const { profile, secret } of results)
        ctx.log(
          `profile provisioned from a file at the station: ${profile.name} (${profile.id}, secret ${secret})`,
        );
      const activeId = ctx.profiles.active()?.id;
      // A file that changes the active profile takes effect now (its printers, rule, site),
      // not at the next switch of profiles.
      const changedActive = results.find((r) => r.profile.id === activeId)?.profile;
      if (!activeId) await ctx.activate(first);
      else if (changedActive) await ctx.activate(changedActive);
      return view(first);
    },
  };
}
