import { weightLbs } from '../orders/order-schema.js';
import type { StoredOrder } from '../orders/types.js';
import type { Profile } from '../profiles/profile-schema.js';
import type { PlatformShipment } from './platform-port.js';
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
  const packages = order.packages.map((pkg, i) => {
    const given = packed?.[i];
    // Packages given by the packer carry their own weight: no fallback to the order file's, so
    // an unweighed package is refused instead of shipping on someone else's number.
    const weight = given ? (given.weightLbs ?? undefined) : pkg.weightLbs;
    const field = `packages[${i}].weightLbs`;
    const label = count > 1 ? `Package ${i + 1} of ${count}` : 'The package';
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
      items: pkg.items.map((item) => ({
        sku: item.sku,
        name: item.name,
        description: item.name,
        quantity: item.quantity,
        ...(item.valueCents === undefined ? {} : { value: item.valueCents / 100 }),
      })),
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
  const siteId =
    profile.brandTenants.find((b) => b.tenantId === order.tenantId)?.shippingSiteId ??
    profile.shippingSiteId;
  return {
    shipment: {
      shipTo: order.shipTo,
      shipFrom: { ...profile.shipFrom, ...(siteId ? { siteId } : {}) },
      packages,
    },
  };
}
