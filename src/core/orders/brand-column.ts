import { otherTenant } from './import-notices.js';

/** What an order's brand cell is read against: the profile's tenants and their names. */
export interface BrandPolicy {
  allowedTenantIds: readonly string[];
  /** A brand's name as people know it (Settings → Brands); absent: tenant ids only. */
  brandName?: ((tenantId: string) => string | null) | undefined;
}

/** A name as a file may write it: case, and spacing around and inside it, do not count. */
function nameKey(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The tenant an order's brand cell names: one of the profile's tenant ids, or the name of one of
 * its brands (a 3PL's export names its brands, "Kettle & Ash Teas", not tenant ids), in any case
 * and spacing, otherwise exactly. A name that matches no brand, or two, is the row's problem.
 */
export function tenantOfBrand(
  value: string,
  policy: BrandPolicy,
): { tenantId: string } | { reason: string } {
  const { allowedTenantIds: allowed, brandName } = policy;
  if (allowed.includes(value)) return { tenantId: value };
  if (!brandName) return { reason: otherTenant(value, allowed) };
  const named = allowed.flatMap((t) => {
    const name = brandName(t);
    return name ? [{ tenantId: t, name }] : [];
  });
  const key = nameKey(value);
  const matches = named.filter((b) => nameKey(b.name) === key);
  if (matches.length === 1) return { tenantId: matches[0]!.tenantId };
  const list = (brands: typeof named) => brands.map((b) => `${b.name} (${b.tenantId})`).join(', ');
  if (matches.length > 1)
    return {
      reason: `"${value}" is the name of ${matches.length} brands of this profile: ${list(matches)}. Write the brand's tenant id in that column for these orders (or give the brands names of their own in Settings → Brands).`,
    };
  const unnamed = allowed.filter((t) => !named.some((b) => b.tenantId === t));
  const ships = [list(named), unnamed.join(', ')].filter(Boolean).join(', ');
  return {
    reason: `"${value}" is neither the name nor the tenant id of a brand this profile ships for (it ships for ${ships}). If it is a brand this station packs for, the profile must list it: Settings → Brands (or brandTenants in a provisioning file); otherwise the row names the wrong brand (a name must be the brand's as Settings → Brands shows it; case and spacing do not matter).`,
  };
}

/**
 * What tells one order's rows apart by brand: the tenant a brand cell names (a blank cell: the
 * default tenant), so that rows of one order spelling its brand differently ("Driftwood Coffee
 * Co.", "driftwood coffee co.", tnt_driftwood) stay one order; a cell naming no brand of the
 * profile is kept as written (its rows are refused by it).
 */
export function brandKeyOf(
  policy: BrandPolicy & { defaultTenantId: string },
): (cell: string) => string {
  const known = new Map<string, string>();
  return (cell) => {
    let key = known.get(cell);
    if (key === undefined) {
      const named = tenantOfBrand(cell || policy.defaultTenantId, policy);
      key = 'tenantId' in named ? named.tenantId : cell;
      known.set(cell, key);
    }
    return key;
  };
}

/** A row as continuedBrands reads it: its order number, brand cell and address cells. */
export interface BrandRow {
  orderNumber: string;
  cell: string;
  /** Its address cells (read only where it matters). */
  address: () => readonly string[];
}

/**
 * The brand a blank brand cell stands for, by row: a 3PL's export may write an order's brand on
 * its first row only, so a blank cell on a row of an order number whose other rows name one brand
 * (however spelled), with no address of its own that differs from theirs (blank or the same), is
 * that brand's (a continuation row), not the profile's own tenant. Left as written (the profile's
 * own tenant, as ever): a blank on every row of an order; a number whose rows name two brands;
 * a row that names another person or address (another order under the same number).
 */
export function continuedBrands(
  rows: Iterable<BrandRow>,
  brandKey: (cell: string) => string,
): (row: BrandRow) => string | undefined {
  const named = new Map<string, { cell: string; row: BrandRow; keys: Set<string> }>();
  for (const row of rows) {
    const { orderNumber, cell } = row;
    if (orderNumber === '' || cell === '') continue;
    const seen = named.get(orderNumber);
    if (seen) seen.keys.add(brandKey(cell));
    else named.set(orderNumber, { cell, row, keys: new Set([brandKey(cell)]) });
  }
  return ({ orderNumber, cell, address }) => {
    const seen = cell === '' ? named.get(orderNumber) : undefined;
    if (!seen || seen.keys.size !== 1) return undefined;
    const theirs = seen.row.address();
    const fits = address().every((v, i) => v === '' || !theirs[i] || v === theirs[i]);
    return fits ? seen.cell : undefined;
  };
}
