/** The station's own settings: packer, sounds, boxes, scale. Handlers: src/core/station/features/settings.ts. */
import { z } from 'zod';
import { def, id, none, text } from './define.js';

const boxPreset = z.object({
  id,
  name: text(100).min(1),
  code: text(100).min(1),
  lengthIn: z.number().positive().max(200),
  widthIn: z.number().positive().max(200),
  heightIn: z.number().positive().max(200),
});

export interface StationSettings {
  userName: string;
  sounds: boolean;
  boxes: BoxPreset[];
  scale: { enabled: boolean; device: string | null };
  /**
   * Electron on Linux without a keychain (safeStorage's basic_text backend): secrets would be
   * stored with a fixed key. Read only: true once the person at the station accepted it in the
   * main process's own dialog (`settings.update` cannot set it).
   */
  acceptBasicTextSecrets: boolean;
}

export interface BoxPreset {
  id: string;
  name: string;
  /** A barcode on the box station; scanning it selects the box. */
  code: string;
  lengthIn: number;
  widthIn: number;
  heightIn: number;
}

export const settingsCalls = {
  'settings.get': def<StationSettings>()(none),
  'settings.update': def<StationSettings>()(
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
