import { weightLbs } from '../orders/order-schema.js';
import type { ShipmentOptions, StoredOrder } from '../orders/types.js';
import type { Profile } from '../profiles/profile-schema.js';
import { customsAndHazmatProblems, isInternational, platformItem } from './shipment-checks.js';
import type { PlatformOptions, PlatformShipment } from './platform-port.js';
import type { Failure, PackedPackage } from './types.js';

/**
 * The platform shipment for an order: ship-from is the profile's site, packages come from the
 * order with what the packer weighed and boxed. A missing or impossible weight is refused
 * here, before anything is sent.
 */
export function buildShipment(
  profile: Profile,
  order: StoredOrder,
  packed: readonly PackedPackage[] | undefined,
  /** The packer's options; the order's own when omitted (the screen starts from those). */
  chosenOptions?: ShipmentOptions,
): { shipment: PlatformShipment } | { failure: Failure } {
  const count = order.packages.length;
  if (packed && packed.length !== count)
    return {
      failure: {
        code: 'package-count-mismatch',
        message: `Order ${order.orderNumber} has ${count} package${count === 1 ? '' : 's'}; ${packed.length} weight${packed.length === 1 ? ' was' : 's were'} given.`,
      },
    };
  const errors: { field: string; message: string }[] = [];
  const shipFrom = profile.shipFrom;
  const international = isInternational(shipFrom, order.shipTo);
  const options = chosenOptions ?? order.options ?? {};
  const packages = order.packages.map((pkg, i) => {
    const given = packed?.[i];
    // Packages given by the packer carry their own weight: no fallback to the order file's, so
    // an unweighed package is refused instead of shipping on someone else's number.
    const weight = given ? (given.weightLbs ?? undefined) : pkg.weightLbs;
    const field = `packages[${i}].weightLbs`;
    // "of 1" too: the Pack view says its own refusals of a typed weight that way, whatever the count.
    const label = `Package ${i + 1} of ${count}`;
    if (weight === undefined)
      errors.push({ field, message: `${label} has no weight; weigh it or type its weight.` });
    else {
      const checked = weightLbs.safeParse(weight);
      if (!checked.success)
        errors.push({
          field,
          message: `${label}: weight ${String(weight)} lb ${checked.error.issues[0]?.message ?? 'is not valid'}.`,
        });
    }
    return {
      weightLbs: weight ?? 0,
      lengthIn: given?.lengthIn ?? pkg.lengthIn,
      widthIn: given?.widthIn ?? pkg.widthIn,
      heightIn: given?.heightIn ?? pkg.heightIn,
      type: 'box',
      externalPackageId: `${order.orderNumber}-${i + 1}`,
      items: pkg.items.map((item) => platformItem(item, international)),
      ...(international ? { contentsType: 'merchandise' } : {}),
      ...(pkg.items.some((item) => item.hazmat) ? { isHazmat: true } : {}),
    };
  });
  if (errors.length > 0)
    return {
      failure: {
        code: 'invalid-weight',
        message: errors.map((e) => e.message).join(' '),
        errors,
      },
    };
  const refused = customsAndHazmatProblems(order, options, international);
  if (refused) return { failure: refused };
  const siteId =
    profile.brandTenants.find((b) => b.tenantId === order.tenantId)?.shippingSiteId ??
    profile.shippingSiteId;
  const platformOptions = optionsToSend(options, international);
  return {
    shipment: {
      shipTo: order.shipTo,
      shipFrom: { ...shipFrom, ...(siteId ? { siteId } : {}) },
      packages,
      ...(platformOptions ? { options: platformOptions } : {}),
    },
  };
}

/** The options as the platform names them; the incoterm only abroad; nothing when empty. */
function optionsToSend(
  options: ShipmentOptions,
  international: boolean,
): PlatformOptions | undefined {
  const sent: PlatformOptions = {};
  if (options.deliveryConfirmation && options.deliveryConfirmation !== 'NO_SIGNATURE')
    sent.deliveryConfirmation = options.deliveryConfirmation;
  if (options.deliveryOption) sent.deliveryOption = options.deliveryOption;
  if (options.additionalHandling) sent.additionalHandling = true;
  for (const key of ['customMessage1', 'customMessage2', 'customMessage3'] as const) {
    const message = options[key]?.trim();
    if (message) sent[key] = message;
  }
  if (international && options.incoTerm) sent.incoTerm = options.incoTerm;
  return Object.keys(sent).length > 0 ? sent : undefined;
}
