import { z } from 'zod';
import { rateRuleSchema, type Profile } from '../profiles/profile-schema.js';
import { zodIssueWords } from '../../shared/zod-words.js';

/**
 * Site settings (issue 14): set once for the site by site IT (`npm run site -- setting …`),
 * kept in site_settings as JSON text, read by every station at check-in and remembered, so
 * they hold while the store is down. A station may keep its own value for a setting (its
 * `siteOverrides`); Settings shows which values come from the site and which are overridden.
 */
export const SITE_SETTING_KEYS = [
  'offlinePurchase',
  'reprintsWithoutLead',
  'boxPresets',
  'rateRule',
  'packingSlip',
] as const;
export type SiteSettingKey = (typeof SITE_SETTING_KEYS)[number];

/** The settings a station may override (offlinePurchase and reprintsWithoutLead are the site's). */
export const OVERRIDABLE: readonly SiteSettingKey[] = ['boxPresets', 'rateRule', 'packingSlip'];

const boxPreset = z.object({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(100),
  code: z.string().min(1).max(100),
  lengthIn: z.number().positive().max(200),
  widthIn: z.number().positive().max(200),
  heightIn: z.number().positive().max(200),
});
const packingSlip = z.object({
  type: z.enum(['epson', 'star']).default('epson'),
  width: z.union([z.literal(48), z.literal(32)]).default(48),
  footer: z.string().max(200).optional(),
});

const schemas: Record<SiteSettingKey, z.ZodType> = {
  offlinePurchase: z.enum(['allow', 'refuse']),
  reprintsWithoutLead: z.number().int().min(0).max(100),
  boxPresets: z.array(boxPreset).min(1).max(100),
  rateRule: rateRuleSchema,
  packingSlip,
};

export type BoxPreset = z.infer<typeof boxPreset>;

/** Checks a value typed by site IT (JSON, or a bare word for offlinePurchase). */
export function parseSiteSetting(
  key: string,
  raw: string,
): { ok: true; text: string } | { ok: false; message: string } {
  const schema = schemas[key as SiteSettingKey];
  if (!schema)
    return {
      ok: false,
      message: `${key} is not a site setting (${SITE_SETTING_KEYS.join(', ')}).`,
    };
  let value: unknown;
  try {
    value = key === 'offlinePurchase' ? raw : JSON.parse(raw);
  } catch {
    return { ok: false, message: `${key}: not valid JSON (${raw.slice(0, 60)}).` };
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      message: `${key}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'value'} ${zodIssueWords(i)}`).join('; ')}`,
    };
  return {
    ok: true,
    text: key === 'offlinePurchase' ? String(parsed.data) : JSON.stringify(parsed.data),
  };
}

/** The site's value for `key` as the station last read it, or undefined (not set, or unreadable). */
export function siteValue<T>(
  cache: Record<string, string> | undefined,
  key: SiteSettingKey,
): T | undefined {
  const raw = cache?.[key];
  if (raw === undefined) return undefined;
  const r = parseSiteSetting(key, raw);
  if (!r.ok) return undefined;
  return (key === 'offlinePurchase' ? raw : JSON.parse(r.text)) as T;
}

/** Where a value a station uses comes from: its own, the site's, or its own over the site's. */
export type SettingSource = 'station' | 'site' | 'station-override';

export function sourceOf(
  cache: Record<string, string> | undefined,
  overrides: readonly string[],
  key: SiteSettingKey,
): SettingSource {
  if (cache?.[key] === undefined || siteValue(cache, key) === undefined) return 'station';
  return overrides.includes(key) ? 'station-override' : 'site';
}

/**
 * The profile as the station uses it: the site's rate rule and packing-slip settings replace
 * the profile's unless this station overrides them. The slip's printer stays the station's
 * own (a receipt printer belongs to its computer); a station without a receipt printer prints
 * no slip whatever the site says.
 */
export function withSiteSettings(
  profile: Profile,
  cache: Record<string, string> | undefined,
  overrides: readonly string[],
): Profile {
  let next = profile;
  if (sourceOf(cache, overrides, 'rateRule') === 'site')
    next = { ...next, rateRule: siteValue<Profile['rateRule']>(cache, 'rateRule')! };
  if (sourceOf(cache, overrides, 'packingSlip') === 'site') {
    const slip = siteValue<z.infer<typeof packingSlip>>(cache, 'packingSlip')!;
    const hasReceipt = profile.printers.some((p) => p.role === 'receipt');
    if (hasReceipt)
      next = {
        ...next,
        packingSlips: {
          ...slip,
          ...(profile.packingSlips?.printerId ? { printerId: profile.packingSlips.printerId } : {}),
        },
      };
  }
  return next;
}
