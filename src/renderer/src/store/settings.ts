import type { Input } from '../../../shared/contract';
import type { Result } from '../../../shared/result';
import type { ProfileView, StationSettings } from '../../../shared/views';
import { call } from '../bridge';
import { applyBoxPresets } from './pack-boxes';
import type { Slice } from './types';

export interface SettingsSlice {
  settings: StationSettings | null;
  profiles: ProfileView[];
  loadSettings(): Promise<void>;
  /** Saves; the reply is returned too, for forms that show a refusal next to their fields. */
  updateSettings(patch: Input<'settings.update'>): Promise<Result<StationSettings>>;
  loadProfiles(): Promise<void>;
}

export const createSettingsSlice: Slice<SettingsSlice> = (set, get) => ({
  settings: null,
  profiles: [],
  async loadSettings() {
    const r = await call('settings.get', {});
    if (!r.ok) return;
    set({ settings: r.value });
    // Read again because the box presets changed (site IT): the order on Pack takes them too.
    applyBoxPresets(get, set);
  },
  async updateSettings(patch) {
    const r = await call('settings.update', patch);
    if (r.ok) {
      set({ settings: r.value });
      applyBoxPresets(get, set);
    } else get().notify('error', r.error.message);
    return r;
  },
  async loadProfiles() {
    const r = await call('profiles.list', {});
    if (r.ok) set({ profiles: r.value });
    else get().notify('error', r.error.message);
  },
});
