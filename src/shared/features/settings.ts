/** The station's own settings: packer, sounds, boxes, scale. Handlers: src/core/station/features/settings.ts. */
import { z } from 'zod';
import type * as V from '../views.js';
import { def, id, none, text } from './define.js';

const boxPreset = z.object({
  id,
  name: text(100).min(1),
  code: text(100).min(1),
  lengthIn: z.number().positive().max(200),
  widthIn: z.number().positive().max(200),
  heightIn: z.number().positive().max(200),
});

export const settingsCalls = {
  'settings.get': def<V.StationSettings>()(none),
  'settings.update': def<V.StationSettings>()(
    z.object({
      userName: text(100).min(1).optional(),
      sounds: z.boolean().optional(),
      boxes: z.array(boxPreset).max(100).optional(),
      /** device: "vendor:product" in hex as `devices.discoverScales` lists it; null: the first scale found. */
      scale: z.object({ enabled: z.boolean(), device: text(300).nullable() }).optional(),
      // acceptBasicTextSecrets is not here on purpose: only the main process's own dialog can
      // accept storing secrets without a keychain (src/main/vault.ts).
    }),
  ),
};
