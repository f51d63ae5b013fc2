/**
 * Box presets: the rules a preset must meet, shared by the Settings form (which explains them
 * as the packer types) and the station facade (which refuses to save anything else). No Node
 * and no schema library here: the renderer bundles this file.
 */
import type { BoxPreset } from './views.js';

/** A box code is scanned from a barcode: letters, digits and dashes only. */
export const BOX_CODE_PATTERN = /^[A-Za-z0-9-]+$/;
/** Carriers' longest accepted side (UPS, FedEx: 108 in); anything larger is a typo. */
export const MAX_BOX_SIDE_IN = 108;

export type BoxField = 'name' | 'code' | 'lengthIn' | 'widthIn' | 'heightIn';

export interface BoxProblem {
  /** Index of the preset in the list. */
  index: number;
  field: BoxField;
  message: string;
}

const sides: [BoxField, string][] = [
  ['lengthIn', 'Length'],
  ['widthIn', 'Width'],
  ['heightIn', 'Height'],
];

/**
 * Every problem of a list of presets, each naming the box ("Box 2 (BOX-M): …") so a message
 * read away from the form still says which row to fix. An empty list means the list is fine.
 */
export function boxProblems(boxes: readonly BoxPreset[]): BoxProblem[] {
  const problems: BoxProblem[] = [];
  const seen = new Map<string, number>();
  boxes.forEach((box, index) => {
    const code = box.code.trim();
    const label = `Box ${index + 1}${code ? ` (${code})` : box.name.trim() ? ` (${box.name.trim()})` : ''}`;
    const add = (field: BoxField, message: string) =>
      problems.push({ index, field, message: `${label}: ${message}` });

    if (!box.name.trim()) add('name', 'give it a name the packer recognises.');
    else if (box.name.trim().length > 100) add('name', 'the name is longer than 100 characters.');

    if (!code) add('code', 'give it a scan code (the barcode on the box station).');
    else if (!BOX_CODE_PATTERN.test(code))
      add('code', `scan code "${code}" may only hold letters, digits and dashes.`);
    else if (code.length > 40) add('code', 'the scan code is longer than 40 characters.');
    else {
      // Scans are matched without regard to case: BOX-M and box-m are the same code.
      const key = code.toUpperCase();
      const first = seen.get(key);
      if (first !== undefined)
        add('code', `scan code ${code} is already used by box ${first + 1}.`);
      else seen.set(key, index);
    }

    for (const [field, name] of sides) {
      const v = box[field as 'lengthIn'];
      if (typeof v !== 'number' || !Number.isFinite(v))
        add(field, `${name} must be a number of inches.`);
      else if (v <= 0) add(field, `${name} must be more than 0 in.`);
      else if (v > MAX_BOX_SIDE_IN)
        add(field, `${name} of ${v} in is more than ${MAX_BOX_SIDE_IN} in: check the number.`);
    }
  });
  return problems;
}

/** The presets as they are saved: names and codes trimmed. */
export function normalizeBoxes(boxes: readonly BoxPreset[]): BoxPreset[] {
  return boxes.map((b) => ({ ...b, name: b.name.trim(), code: b.code.trim() }));
}

/** A scale chosen in Settings, as "vendor:product" in hex ("0922:8003"). */
export const SCALE_DEVICE_PATTERN = /^[0-9a-f]{4}:[0-9a-f]{4}$/i;

export function scaleDeviceId(vendorId: number, productId: number): string {
  const hex = (n: number) => n.toString(16).padStart(4, '0');
  return `${hex(vendorId)}:${hex(productId)}`;
}

export function parseScaleDevice(
  device: string | null,
): { vendorId: number; productId: number } | null {
  if (!device || !SCALE_DEVICE_PATTERN.test(device)) return null;
  const [v, p] = device.split(':');
  return { vendorId: parseInt(v!, 16), productId: parseInt(p!, 16) };
}
