import type { IncomingOrder, ShippingChange, StoredOrder } from './types.js';

// A new version of an order that already has a label is not taken (the label went to the order
// as it was): the import says what the file changes, so someone checks that parcel.

const ADDRESS_WORDS: [keyof IncomingOrder['shipTo'], string][] = [
  ['name', 'name'],
  ['company', 'company'],
  ['addressLine1', 'street'],
  ['addressLine2', 'address line 2'],
  ['addressLine3', 'address line 3'],
  ['city', 'city'],
  ['stateProvince', 'state'],
  ['postalCode', 'postal code'],
  ['countryCode', 'country'],
];

/** What a new version of a labelled order changes, in words ("street 99 Moor St (was 9 Moor St)"). */
function whatDiffers(stored: StoredOrder, incoming: IncomingOrder): string {
  const changes = ADDRESS_WORDS.flatMap(([key, words]) => {
    const was = String(stored.shipTo[key] ?? '').trim();
    const now = String(incoming.shipTo[key] ?? '').trim();
    return was === now ? [] : [`${words} "${now}" (was "${was}")`];
  });
  if (changes.length) return `the ship-to ${changes.join(', ')}`;
  return 'other packages, items or options';
}

/** The import's sentence for a labelled order that the file now gives differently. */
export function labelledOrderChanged(
  stored: StoredOrder | undefined,
  incoming: IncomingOrder,
): string {
  const what = stored ? whatDiffers(stored, incoming) : 'it differently';
  return `already has a label, bought for the order as it was; the file now gives ${what}. Neither the order nor its label was changed: check that parcel. If it must go as the file now says, void its label where the carrier account is managed and buy another (Ctrl+Shift+A) once the order is right.`;
}

/** A stored package as the shipment is made of it: weight, box and size. */
interface PackageShape {
  weightLbs: number | null;
  box: string | null;
  lengthIn: number | null;
  widthIn: number | null;
  heightIn: number | null;
}

/**
 * What of a new version changes the shipment its rates were asked for: any field of the ship-to
 * (the label carries it), the packages' weights or their number, their boxes or sizes. Items and
 * options alone change none of it. Empty: the rates asked for the version before still fit.
 */
export function shippingChanges(
  stored: { shipTo: StoredOrder['shipTo']; packages: readonly PackageShape[] },
  incoming: { shipTo: IncomingOrder['shipTo']; packages: readonly PackageShape[] },
): ShippingChange[] {
  const changes: ShippingChange[] = [];
  const field = (v: unknown) => String(v ?? '').trim();
  if (ADDRESS_WORDS.some(([key]) => field(stored.shipTo[key]) !== field(incoming.shipTo[key])))
    changes.push('address');
  const [was, now] = [stored.packages, incoming.packages];
  if (was.length !== now.length || was.some((p, i) => p.weightLbs !== now[i]!.weightLbs))
    changes.push('weight');
  else if (
    was.some(
      (p, i) =>
        p.box !== now[i]!.box ||
        p.lengthIn !== now[i]!.lengthIn ||
        p.widthIn !== now[i]!.widthIn ||
        p.heightIn !== now[i]!.heightIn,
    )
  )
    changes.push('box');
  return changes;
}
