import type { SettingsStore } from '../profiles/settings-store.js';
import {
  SITE_SETTING_KEYS,
  siteValue,
  sourceOf,
  type SettingSource,
  type SiteSettingKey,
} from '../site/settings.js';
import type { StationSettings } from '../../shared/views.js';
import { SITE_SETTINGS_CACHE } from './features/site-link.js';

/*
 * The station's settings as it works with them: its own (Settings), kept in the settings store,
 * and the site's as the last check-in read them (issue 14), which replace its own except where
 * this station keeps its own value (its overrides). StationContext answers with these.
 */

const defaultSettings: StationSettings = {
  userName: 'packer',
  sounds: true,
  boxes: [
    { id: 'box-s', name: 'Small 8×6×4', code: 'BOX-S', lengthIn: 8, widthIn: 6, heightIn: 4 },
    { id: 'box-m', name: 'Medium 12×10×6', code: 'BOX-M', lengthIn: 12, widthIn: 10, heightIn: 6 },
    { id: 'box-l', name: 'Large 18×14×10', code: 'BOX-L', lengthIn: 18, widthIn: 14, heightIn: 10 },
  ],
  scale: { enabled: false, device: null },
  acceptBasicTextSecrets: false,
};

export function readSiteSettings(settings: SettingsStore): Record<string, string> | undefined {
  if (!settings.get('siteStore')) return undefined;
  return settings.get(SITE_SETTINGS_CACHE) as Record<string, string> | undefined;
}

export function readSiteOverrides(settings: SettingsStore): string[] {
  const o = settings.get('siteOverrides');
  return Array.isArray(o) ? o.filter((x): x is string => typeof x === 'string') : [];
}

export function readSiteSettingSources(
  settings: SettingsStore,
): Record<SiteSettingKey, SettingSource> {
  const site = readSiteSettings(settings);
  const overrides = readSiteOverrides(settings);
  return Object.fromEntries(
    SITE_SETTING_KEYS.map((k) => [k, sourceOf(site, overrides, k)]),
  ) as Record<SiteSettingKey, SettingSource>;
}

export function readStationSettings(settings: SettingsStore): StationSettings {
  const own = (settings.get('station') as Partial<StationSettings> | undefined) ?? {};
  const site = readSiteSettings(settings);
  const siteBoxes =
    sourceOf(site, readSiteOverrides(settings), 'boxPresets') === 'site'
      ? siteValue<StationSettings['boxes']>(site, 'boxPresets')
      : undefined;
  return {
    ...defaultSettings,
    ...own,
    ...(siteBoxes ? { boxes: siteBoxes } : {}),
    // Read-only here: only the Electron main process's own dialog sets it.
    acceptBasicTextSecrets: settings.get('secretStorageAcceptedBasicText') === true,
  };
}

export function writeStationSettings(settings: SettingsStore, next: StationSettings): void {
  const { acceptBasicTextSecrets: _shown, ...rest } = next;
  settings.set('station', rest);
}
