import type { StationError } from '../../../shared/result';
import type {
  LabelledElsewhereView,
  LabelSummary,
  RateQuote,
  RateView,
  VerificationView,
  VerifyLineView,
} from '../../../shared/views';

// The Pack view's rules that need no state: matching an item scan, the quantity key, reading a
// typed weight, the packer's own rate choice.

/** Same rules as the station's (SKU in any case; UPC-A, EAN-13 and GTIN-14 of one item). */
export function matchesLine(lines: readonly VerifyLineView[], value: string): boolean {
  const v = value.trim();
  const lower = v.toLowerCase();
  const digits = /^\d{8,14}$/.test(v) ? v.replace(/^0+/, '') : null;
  return lines.some(
    (l) =>
      l.sku.toLowerCase() === lower ||
      (l.barcode !== null &&
        (l.barcode === v ||
          (digits !== null &&
            /^\d{8,14}$/.test(l.barcode) &&
            l.barcode.replace(/^0+/, '') === digits))),
  );
}

/**
 * The item rows replace the order's item list while verifying: when the profile requires it, or
 * once the packer has scanned an item (verification is optional otherwise).
 */
export function isVerifying(s: {
  verification: VerificationView | null;
  existingLabels: LabelSummary[];
}): boolean {
  const v = s.verification;
  if (!v?.lines.length || s.existingLabels.length) return false;
  return v.required || v.override !== null || v.lines.some((l) => l.scanned > 0);
}

/** "5*SKU" (or 5xSKU): the quantity key, that many of one item in one scan. */
export function quantityScan(value: string): { quantity: number; value: string } | null {
  const m = /^(\d+)\s*[*xX]\s*(\S.*)$/.exec(value.trim());
  if (!m) return null;
  return { quantity: Number(m[1]), value: m[2]! };
}

/** The quantity key counts 1 to 999 of an item at once. */
export const MAX_QUANTITY_KEY = 999;

/** A weight's number as typed: digits and one decimal point (or comma). */
const NUMBER = String.raw`(\d+(?:[.,]\d*)?|[.,]\d+)`;
/** Pounds per unit a packer may type after a weight. */
const POUNDS_PER: Record<string, number> = {
  lb: 1,
  lbs: 1,
  pound: 1,
  pounds: 1,
  '#': 1,
  oz: 1 / 16,
  ounce: 1 / 16,
  ounces: 1 / 16,
  kg: 2.2046226218,
  kgs: 2.2046226218,
  kilo: 2.2046226218,
  kilos: 2.2046226218,
  g: 0.0022046226218,
  gram: 0.0022046226218,
  grams: 0.0022046226218,
};
const WITH_UNIT = new RegExp(String.raw`^${NUMBER}\s*([a-z#]+)$`);
const POUNDS_AND_OUNCES = new RegExp(
  String.raw`^${NUMBER}\s*(?:lbs?|pounds?|#)\s*${NUMBER}\s*(?:oz|ounces?)$`,
);
const toNumber = (t: string) => Number(t.replace(',', '.'));
/** Up to the next hundredth of a pound: a converted weight is never declared lighter. */
const hundredthsUp = (lbs: number) => Math.ceil(lbs * 100 - 1e-9) / 100;

/**
 * The weight in pounds of what a packer typed: '' → not weighed (null); a decimal comma is
 * accepted; a unit after the number is converted ("12 oz", "2kg", "500 g", "1 lb 4 oz"; to the
 * next hundredth of a pound); anything else is not a weight.
 */
export function parseWeight(text: string): number | null | 'bad' | 'ambiguous' {
  const t = text.trim().toLowerCase();
  if (!t) return null;
  // "1,500 g": a thousands comma (1500 g) or a decimal one (1.5 g)? A thousand times apart is
  // postage bought at the wrong weight: asked, not guessed.
  if (/\d,\d{3}(?!\d)/.test(t)) return 'ambiguous';
  // "1.500 g" the same, written the European way: nobody weighs a parcel to the milligram.
  if (/\d\.\d{3}\s*(?:g|grams?)$/.test(t)) return 'ambiguous';
  // Digits and one decimal point, as the order files take them: "1e2", "0x10" or "Infinity"
  // are not a weight anyone typed on purpose.
  if (new RegExp(String.raw`^[+-]?${NUMBER}$`).test(t)) {
    const n = toNumber(t);
    return Number.isFinite(n) ? n : 'bad';
  }
  const both = POUNDS_AND_OUNCES.exec(t);
  if (both) return hundredthsUp(toNumber(both[1]!) + toNumber(both[2]!) / 16);
  const unit = WITH_UNIT.exec(t);
  const per = unit ? POUNDS_PER[unit[2]!] : undefined;
  if (!unit || per === undefined) return 'bad';
  const lbs = toNumber(unit[1]!) * per;
  return per === 1 ? lbs : hundredthsUp(lbs);
}

/**
 * Whether the weight was typed otherwise than as pounds with a decimal point (a unit, a decimal
 * comma): the field is then shown as the pounds sent.
 */
export function typedWithUnit(text: string): boolean {
  return /[a-z#,]/i.test(text.trim());
}

/** The rate the packer picked, when it is not the rule's. */
export function pickedRate(
  quote: RateQuote | null,
  selectedRateId: string | null,
): RateView | null {
  if (!quote || selectedRateId === null || selectedRateId === quote.chosenRateId) return null;
  return quote.rates.find((r) => r.id === selectedRateId) ?? null;
}

/**
 * When another station labelled an order, as a scan says it: " at 14:05" today (the station's
 * clock, as the claim's refusal says it), " on Nov 27 at 14:05" another day; "" when unknown.
 */
export function labelledWhen(at: string | undefined, now = new Date()): string {
  const t = at ? new Date(at) : null;
  if (!t || Number.isNaN(t.getTime())) return '';
  const hhmm = `${String(t.getHours()).padStart(2, '0')}:${String(t.getMinutes()).padStart(2, '0')}`;
  if (t.toDateString() === now.toDateString()) return ` at ${hhmm}`;
  return ` on ${t.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })} at ${hhmm}`;
}

/**
 * A scan's sentence for an order another station labelled. A reprint here goes through the site
 * store: while it is away, said where the label can be reprinted instead of offering Alt+R. A
 * label voided at the carrier there is not reprinted: another is bought (as for one voided here).
 */
export function labelledElsewhereWords(
  orderNumber: string,
  there: LabelledElsewhereView,
  storeAway: boolean,
): string {
  const voided = there.label?.voided;
  if (voided)
    return `Order ${orderNumber} was labelled at ${there.stationName}${labelledWhen(there.at)}${byWhom(there)}, and that label (${there.label?.trackingNumber ?? ''}) was voided at the carrier there${voided.reason ? ` (${voided.reason})` : ''}: it is not reprinted. Press Ctrl+Shift+A to buy another.`;
  return `Order ${orderNumber} was labelled at ${elsewhereWhere(there)}: nothing to buy here. ${elsewhereHow(there, storeAway)}`;
}

const byWhom = (there: LabelledElsewhereView) => (there.packer ? ` by ${there.packer}` : '');

/** "Station B at 14:05 by ana (1ZSBX…)". */
function elsewhereWhere(there: LabelledElsewhereView): string {
  return `${there.stationName}${labelledWhen(there.at)}${byWhom(there)} (${there.label?.trackingNumber ?? ''})`;
}

/** What the keys do for another station's label: reprint here (through the store), or buy another. */
function elsewhereHow(there: LabelledElsewhereView, storeAway: boolean): string {
  return storeAway
    ? `The site store is not answering: reprint its label at ${there.stationName}, or here (Alt+R) once the store answers; Ctrl+Shift+A buys another.`
    : 'Alt+R reprints its label here; Ctrl+Shift+A buys another.';
}

/**
 * Every label of the order here was voided at the carrier, and another station has a live label
 * of it (labelled again there): that label is the order's, offered for reprint, and buying
 * another here would be a second live label.
 */
export function relabelledElsewhere(
  existing: readonly LabelSummary[],
  there: LabelledElsewhereView | null,
): there is LabelledElsewhereView & { label: NonNullable<LabelledElsewhereView['label']> } {
  return (
    existing.length > 0 &&
    existing.every((l) => l.voided) &&
    Boolean(there?.label) &&
    !there?.label?.voided
  );
}

/** A scan's sentence for an order whose label here was voided and that was labelled again elsewhere. */
export function relabelledElsewhereWords(
  orderNumber: string,
  voidedHere: LabelSummary,
  there: LabelledElsewhereView,
  storeAway: boolean,
): string {
  return `Order ${orderNumber}'s label here (${voidedHere.trackingNumber}) was voided at the carrier, and it was labelled again at ${elsewhereWhere(there)}: nothing to buy here. ${elsewhereHow(there, storeAway)}`;
}

/**
 * What a scan of an order says first when it has a label: here (reprint it, or, voided, buy
 * another), at another station (reprint it here), or voided here and labelled again there.
 * Null when it has none.
 */
export function labelledScanWords(
  orderNumber: string,
  existing: readonly LabelSummary[],
  there: LabelledElsewhereView | null,
  storeAway: boolean,
): string | null {
  if (relabelledElsewhere(existing, there))
    return relabelledElsewhereWords(orderNumber, existing[0]!, there, storeAway);
  if (existing.length) return labelledHereWords(orderNumber, existing[0]!);
  if (there?.label) return labelledElsewhereWords(orderNumber, there, storeAway);
  return null;
}

/** The other station (and its label) of an `order-claimed-elsewhere` refusal, if it says. */
export function labelledElsewhereOf(error: StationError): LabelledElsewhereView | null {
  if (error.code !== 'order-claimed-elsewhere') return null;
  const details = error.details as { labelledElsewhere?: LabelledElsewhereView } | undefined;
  return details?.labelledElsewhere ?? null;
}

/**
 * The labels of an `already-labelled` refusal: the order was labelled meanwhile (in another tab
 * or window of this station) while its rates were on screen here.
 */
export function labelledHereOf(error: StationError): LabelSummary[] {
  if (error.code !== 'already-labelled') return [];
  const details = error.details as { labels?: LabelSummary[] } | undefined;
  return details?.labels ?? [];
}

/**
 * Said after a failed scan while an order stays on screen (what was weighed or scanned into the
 * box is not thrown away by a smudged barcode): its buttons still act on that order, not on what
 * was just scanned.
 */
export const stillOnScreen = (order: { orderNumber: string }) =>
  ` Order ${order.orderNumber} is still on screen: its buttons act on ${order.orderNumber}. Scan the order again, or press Esc to clear.`;

/** A scanned order that has a label here: reprint it, or (voided at the carrier) buy another. */
export function labelledHereWords(orderNumber: string, label: LabelSummary): string {
  return label.voided
    ? `Order ${orderNumber}'s label (${label.trackingNumber}) was voided at the carrier (${label.voided.reason}): it is not reprinted. Press Ctrl+Shift+A to buy another.`
    : `Order ${orderNumber} already has a label (${label.trackingNumber}). Reprint it from the panel, or press Ctrl+Shift+A to buy another.`;
}
