import { boxProblems, normalizeBoxes, SCALE_DEVICE_PATTERN } from '../../../shared/boxes.js';
import type { StationContext } from '../context.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { settingsCalls } from '../../../shared/features/settings.js';
import { StationFailure } from '../errors.js';

/**
 * The station's own settings (packer name, sounds, box presets, scale). What cannot be packed
 * with is refused whole, with every problem named: a half-saved list of boxes is worse than none.
 */
export function settingsHandlers(ctx: StationContext): FeatureHandlers<typeof settingsCalls> {
  return {
    'settings.get': async () => ctx.stationSettings(),
    'settings.update': async (patch) => {
      const current = ctx.stationSettings();
      const boxes = patch.boxes ? normalizeBoxes(patch.boxes) : current.boxes;
      const problems = patch.boxes ? boxProblems(boxes) : [];
      const ids = new Set<string>();
      boxes.forEach((b, index) => {
        if (ids.has(b.id))
          problems.push({ index, field: 'name', message: `Box ${index + 1}: its id repeats.` });
        ids.add(b.id);
      });
      if (problems.length)
        throw new StationFailure(
          'validation',
          problems.map((p) => p.message).join(' '),
          problems.map((p) => ({ field: `boxes.${p.index}.${p.field}`, message: p.message })),
        );
      const device = patch.scale?.device?.trim() || null;
      if (patch.scale && device && !SCALE_DEVICE_PATTERN.test(device))
        throw new StationFailure(
          'validation',
          `Scale "${device}" is not a USB device id (vendor:product in hex, as "Find scales" lists it).`,
          [{ field: 'scale.device', message: 'expected vendor:product in hex' }],
        );
      const next = {
        ...current,
        ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
        boxes,
        ...(patch.scale ? { scale: { enabled: patch.scale.enabled, device } } : {}),
      };
      ctx.saveStationSettings(next);
      return next;
    },
  };
}
