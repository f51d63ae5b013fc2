/** Site profiles: set-up from the platform, edit, secrets, export. Handlers: src/core/station/features/profiles.ts. */
import { z } from 'zod';
import { printerSchema, type PrinterView } from '../printers.js';
import { def, id, none, text } from './define.js';

const environment = z.enum(['embedded-sandbox', 'sandbox', 'production']);
const rateRule = z.object({
  strategy: z.enum(['cheapest', 'fastest']),
  preferredServiceLevels: z.array(text(100)).max(50),
  maxTransitDays: z.number().int().min(1).max(60).nullable(),
  excludedCarriers: z.array(text(100)).max(50),
});
const credentials = z.object({
  environment,
  baseUrl: z
    .url({
      error:
        'must be a whole address such as https://api.platform.example (starting with https:// or http://)',
    })
    .max(500),
  // Pasted keys often bring a space or a line break along: never part of a client id or secret.
  clientId: text(200).trim().min(1),
  /** Typed once in the form; stored in the keychain by the host, never sent back. */
  clientSecret: text(500).trim().min(1),
  tenantId: text(200).optional(),
});

export type Environment = 'embedded-sandbox' | 'sandbox' | 'production';

/**
 * A postal address as the station keeps it (an order's ship-to, a profile's ship-from): the
 * platform's Address fields. The one definition: the core's orders use it too, and
 * `addressSchema` (src/core/orders/order-schema.ts) is checked against it.
 */
export interface Address {
  name?: string | undefined;
  company?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  addressLine1: string;
  addressLine2?: string | undefined;
  addressLine3?: string | undefined;
  city: string;
  stateProvince?: string | undefined;
  postalCode: string;
  countryCode: string;
  isResidential?: boolean | undefined;
}

export interface TenantNode {
  tenantId: string;
  name: string;
  type: string;
  children: TenantNode[];
}

export interface ShippingSiteView {
  id: string;
  name: string;
  address?: Address;
}

export interface RateRule {
  strategy: 'cheapest' | 'fastest';
  preferredServiceLevels: string[];
  maxTransitDays: number | null;
  excludedCarriers: string[];
}

export interface ProfileView {
  id: string;
  name: string;
  environment: Environment;
  baseUrl: string;
  clientId: string;
  tenantId: string;
  tenantName: string | null;
  brands: { tenantId: string; name: string }[];
  shippingSiteId: string | null;
  /**
   * The shipping site's name as the platform lists it (GET /api/v1/shippingSites), read by the
   * active profile when the platform answers; null until then, or for another profile (the
   * screens show shippingSiteId instead).
   */
  siteName: string | null;
  /** The client secret is stored in the OS keychain; the renderer only learns that it is there. */
  hasSecret: boolean;
  /** Where its secret comes from, in words for site IT; null when it has none. */
  secretSource: string | null;
  active: boolean;
  printers: PrinterView[];
  defaultPrinterId: string | null;
  rateRule: RateRule;
  hotFolder: string | null;
  /** Issue 15.1: every item scanned before a label is bought. */
  requireItemVerification: boolean;
}

/** A profile's name as site IT types it (New profile, Rename). */
const profileName = text(100)
  .trim()
  .min(2, 'A profile name needs at least 2 characters (the floor sees it in the header).');

export const profileCalls = {
  'profiles.list': def<ProfileView[]>()(none),
  'profiles.tenants': def<TenantNode[]>()(credentials),
  'profiles.sites': def<ShippingSiteView[]>()(credentials.extend({ tenantId: text(200).min(1) })),
  'profiles.create': def<ProfileView>()(
    credentials.extend({
      name: profileName,
      tenantId: text(200).min(1),
      shippingSiteId: text(200).min(1),
      brandTenantIds: z.array(text(200)).max(200).default([]),
      activate: z.boolean().default(true),
    }),
  ),
  'profiles.update': def<ProfileView>()(
    z.object({
      id,
      name: profileName.optional(),
      shippingSiteId: text(200).min(1).optional(),
      rateRule: rateRule.optional(),
      printers: z.array(printerSchema).max(20).optional(),
      defaultPrinterId: id.nullable().optional(),
      hotFolder: text(1000).nullable().optional(),
      /** Issue 15.1: no label until every item is scanned (or a shift lead overrides). */
      requireItemVerification: z.boolean().optional(),
    }),
  ),
  /** `warning`: the secret is right, but the platform refuses something else of the profile. */
  'profiles.setSecret': def<{ stored: true; warning?: string }>()(
    z.object({ id, clientSecret: text(500).trim().min(1) }),
  ),
  /**
   * A 3PL profile's brands: the tenants under its tenant on the platform (asked with the stored
   * secret) and those this station ships for now.
   */
  'profiles.brands': def<{ options: TenantNode[]; chosen: string[] }>()(z.object({ id })),
  /** The brands this station ships for (each one checked against the platform's tenants). */
  'profiles.setBrands': def<ProfileView>()(
    z.object({ id, brandTenantIds: z.array(text(200)).max(200) }),
  ),
  'profiles.activate': def<ProfileView>()(z.object({ id })),
  /** Takes a profile that is not the active one off the station; its labels stay in History. */
  'profiles.remove': def<{ removed: string }>()(z.object({ id })),
  /** Electron: the main process shows a native folder dialog; the choice becomes the hot folder. */
  'profiles.chooseHotFolder': def<ProfileView>()(z.object({ id })),
  'profiles.export': def<{ fileName: string; json: string }>()(z.object({ id })),
  'profiles.provision': def<ProfileView>()(
    z.object({ json: text(200_000).min(2), clientSecret: text(500).trim().optional() }),
  ),
};
