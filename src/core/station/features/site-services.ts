import { SITE_SETTING_KEYS } from '../../site/settings.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type {
  ConsoleView,
  SessionView,
  SiteSettingsView,
  siteServiceCalls,
} from '../../../shared/features/site-services.js';
import type { StationContext } from '../context.js';
import { leadFor, reprintsWithoutLead } from './users.js';

/** The settings a station may keep its own of, as a lead's approval names them. */
const SETTING_WORDS: Record<string, string> = {
  boxPresets: 'box presets',
  rateRule: 'rate rule',
  packingSlip: 'packing slip',
};

/** Issue 14 at the facade: sign-in and lead approval, the console, the site settings' sources. */
export function siteServiceHandlers(ctx: StationContext): FeatureHandlers<typeof siteServiceCalls> {
  const session = (): SessionView => {
    const s = ctx.session;
    return {
      required: s.required(),
      user: s.current(),
      signedOut: s.signedOut(),
      approvalBy: s.pendingApproval()?.name ?? null,
      consoleOnly: ctx.options.consoleOnly === true,
    };
  };
  const settings = (): SiteSettingsView => {
    const rt = ctx.runtimeOrNull();
    const boxes = ctx.stationSettings().boxes;
    const rule = rt?.profile.rateRule;
    const slips = rt?.profile.packingSlips;
    const limit = reprintsWithoutLead(ctx);
    return {
      sources: ctx.siteSettingSources(),
      reprintsWithoutLead: limit,
      // What is in use, so site IT and a shift lead read the value, not only where it is from.
      values: {
        offlinePurchase:
          (ctx.site?.outbox.offlinePurchase() ?? 'allow') === 'allow'
            ? 'allowed (bought offline, checked against the site when it answers)'
            : 'refused (nothing is bought while the store is away)',
        reprintsWithoutLead: String(limit),
        boxPresets: boxes.length
          ? `${boxes.length} preset${boxes.length === 1 ? '' : 's'}: ${boxes.map((b) => b.name).join(', ')}`
          : 'none',
        ...(rule
          ? {
              rateRule: [
                rule.strategy,
                rule.preferredServiceLevels.length
                  ? `preferring ${rule.preferredServiceLevels.join(', ')}`
                  : null,
                rule.maxTransitDays ? `at most ${rule.maxTransitDays} days` : null,
                rule.excludedCarriers.length
                  ? `excluding ${rule.excludedCarriers.join(', ')}`
                  : null,
              ]
                .filter(Boolean)
                .join(', '),
            }
          : {}),
        packingSlip: slips
          ? `after each label, ${slips.width ?? 48} characters a line${slips.footer ? `, footer "${slips.footer}"` : ''}`
          : 'none',
      },
    };
  };
  // The header says who is packing; the heartbeat tells the console at the next check-in.
  const changed = () => {
    ctx.changed('status');
    ctx.site?.sync.wake();
  };

  return {
    'users.session': async () => session(),
    'users.signIn': async (input) => {
      await ctx.session.signIn(input);
      ctx.log(`signed in: ${ctx.session.current()?.userId}`);
      changed();
      return session();
    },
    'users.signOut': async () => {
      ctx.session.signOut();
      changed();
      return session();
    },
    'users.approve': async (input) => {
      const lead = await ctx.session.approve(input);
      ctx.log(`lead approval at this station by ${lead.userId}`);
      return session();
    },
    'console.snapshot': async (): Promise<ConsoleView> => {
      const link = ctx.site;
      const rt = ctx.runtimeOrNull();
      const empty = { snapshot: null, attention: [], brands: {} };
      if (!link)
        return {
          reachable: false,
          noStore: true,
          note: ctx.options.consoleOnly
            ? 'This console has no site store: it shows a whole site. Site IT starts it with one: npm run web -- --console --provision FILE (a file with a siteStore, see docs/site.md).'
            : 'This station has no site store: the console shows a whole site. Connect one in Settings → Site store.',
          ...empty,
        };
      if (!rt) return { reachable: false, note: 'No site profile is active.', ...empty };
      // The site now, or as this station last read it (kept by the station, not the page).
      return ctx.siteConsole
        ? ctx.siteConsole.view(rt)
        : { reachable: false, note: null, ...empty };
    },
    'siteSettings.get': async () => settings(),
    'siteSettings.override': async ({ key, override }) => {
      const current = new Set(ctx.siteOverrides());
      // Leaving the site's rule (the rate rule decides what is bought) is a lead's decision;
      // following the site again is anyone's.
      if (override && !current.has(key))
        leadFor(ctx, { kind: 'site-setting-override', setting: SETTING_WORDS[key] ?? key });
      if (override) current.add(key);
      else current.delete(key);
      ctx.options.settings.set(
        'siteOverrides',
        SITE_SETTING_KEYS.filter((k) => current.has(k)),
      );
      // The rate rule and packing slip live in the running profile: it takes them as they are now.
      if (key !== 'boxPresets') await ctx.applySiteSettings();
      ctx.changed('status');
      return settings();
    },
  };
}
