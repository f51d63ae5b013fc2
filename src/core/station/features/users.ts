import type { StationContext } from '../context.js';
import type { LeadAction } from '../../users/session.js';
import { SITE_SETTINGS_CACHE } from './site-link.js';

// Users and roles in the station's handlers (issue 14). With no users set up nobody signs in
// and nothing needs a lead: the station records its user name as before.

/** The person an action is recorded for; refuses (sign-in-required) when users exist and nobody is signed in. */
export function actor(ctx: StationContext): string {
  ctx.session.requireSignedIn();
  return ctx.session.actor(ctx.stationSettings().userName);
}

/** The lead who approves `action` (or null without users); refuses with lead-required. */
export function leadFor(ctx: StationContext, action: LeadAction): string | null {
  return ctx.session.lead(action);
}

/** How many reprints of one label a packer may make before a lead must approve (site setting). */
export function reprintsWithoutLead(ctx: StationContext): number {
  const cached = ctx.options.settings.get(SITE_SETTINGS_CACHE) as
    Record<string, string> | undefined;
  const n = Number(cached?.reprintsWithoutLead ?? 2);
  return Number.isSafeInteger(n) && n >= 0 ? n : 2;
}
