/**
 * USB HID point-of-sale scale reports (HID Usage Tables, Scale page 0x8D, "Scale Data Report").
 * Dymo M10/M25, Stamps.com and Mettler Toledo PS60 all send the same 6 bytes:
 *
 *   [0] report id (3)   [1] status   [2] unit   [3] exponent (signed)   [4] weight LSB   [5] weight MSB
 *
 * status: 1 fault, 2 stable at zero, 3 in motion, 4 stable, 5 under zero, 6 over weight,
 *         7 needs calibration, 8 needs re-zeroing
 * unit:   2 g, 3 kg, 11 oz, 12 lb (others exist; we refuse them rather than guess)
 * weight = (MSB·256 + LSB) · 10^exponent, in the unit. Dymo in ounce mode reports tenths (exp -1);
 * the PS60 reports hundredths of a pound (exp -2).
 */

export const SCALE_DATA_REPORT_ID = 3;

export type ScaleUnit = 'g' | 'kg' | 'oz' | 'lb';

export type ScaleState =
  | 'stable'
  | 'zero'
  | 'in-motion'
  | 'negative'
  | 'overload'
  | 'fault'
  | 'needs-calibration'
  | 'needs-zeroing'
  | 'no-reading';

export interface ScaleReading {
  state: ScaleState;
  /** Pounds, only when the scale is settled ('stable' or 'zero'); never a guess. */
  weightLbs: number | null;
  /** What the scale's display shows, in its own unit (null when it shows nothing usable). */
  value: number | null;
  unit: ScaleUnit | null;
  /** For the packer. */
  message: string;
}

const UNITS: Record<number, ScaleUnit> = { 2: 'g', 3: 'kg', 11: 'oz', 12: 'lb' };
const TO_LBS: Record<ScaleUnit, number> = {
  g: 1 / 453.59237,
  kg: 1 / 0.45359237,
  oz: 1 / 16,
  lb: 1,
};

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

export function toPounds(value: number, unit: ScaleUnit): number {
  return round(value * TO_LBS[unit], 4);
}

export const NO_READING: ScaleReading = {
  state: 'no-reading',
  weightLbs: null,
  value: null,
  unit: null,
  message: 'No reading from the scale; type the weight or check the scale',
};

const MESSAGES: Record<Exclude<ScaleState, 'stable' | 'no-reading'>, string> = {
  zero: 'The scale reads zero: put the parcel on it',
  'in-motion': 'Hold still: the scale is settling',
  negative: 'The scale reads below zero: take everything off and press Zero',
  overload: 'Too heavy for this scale: use a bigger scale or type the weight',
  fault: 'The scale reports a fault: unplug it and plug it back in',
  'needs-calibration': 'The scale needs calibrating',
  'needs-zeroing': 'Take everything off the scale and press Zero',
};

/**
 * One report → one reading. Returns null for bytes that are not a scale data report (another
 * report id, too short): the caller reads the next report. An empty read is NO_READING, not 0 lb.
 */
export function parseScaleReport(bytes: Uint8Array): ScaleReading | null {
  if (bytes.length === 0) return NO_READING;
  if (bytes.length < 6 || bytes[0] !== SCALE_DATA_REPORT_ID) return null;
  const status = bytes[1]!;
  const unit = UNITS[bytes[2]!] ?? null;
  const exponent = (bytes[3]! << 24) >> 24; // signed int8
  const raw = bytes[4]! | (bytes[5]! << 8);
  const value = round(raw * 10 ** exponent, Math.max(0, -exponent));
  const shown = (state: Exclude<ScaleState, 'stable' | 'no-reading'>, withValue = false) => ({
    state,
    weightLbs: null,
    value: withValue && unit ? value : null,
    unit: withValue ? unit : null,
    message: MESSAGES[state],
  });
  switch (status) {
    case 1:
      return shown('fault');
    case 2:
      return { state: 'zero', weightLbs: 0, value: 0, unit, message: MESSAGES.zero };
    case 3:
      return shown('in-motion', true);
    case 4:
      if (!unit)
        return {
          ...shown('fault'),
          message: `The scale is set to a unit the station does not read (code ${bytes[2]}); switch it to lb, oz, g or kg`,
        };
      return {
        state: 'stable',
        weightLbs: toPounds(value, unit),
        value,
        unit,
        message: `${value} ${unit}`,
      };
    case 5:
      return { ...shown('negative', true), value: unit ? -value : null };
    case 6:
      return shown('overload');
    case 7:
      return shown('needs-calibration');
    case 8:
      return shown('needs-zeroing');
    default:
      return shown('fault');
  }
}
