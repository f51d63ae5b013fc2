/**
 * Views of a site profile: where it ships from, for which brands, by which rule and carriers.
 * Plain, serialisable, re-exported by views.ts.
 */
import type { PrinterView } from './printers.js';

export type Environment = 'embedded-sandbox' | 'sandbox' | 'production';

export interface Address {
  name?: string;
  company?: string;
  addressLine1: string;
  addressLine2?: string;
  city: string;
  stateProvince?: string;
  postalCode: string;
  countryCode: string;
  phone?: string;
  email?: string;
  isResidential?: boolean;
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

export interface CarrierAccountView {
  id: string;
  name: string;
  carrier: string;
  ownershipType: string;
  tenantId: string;
  isActive: boolean;
  status: string;
  oauthUrl: string | null;
  serviceLevels: string[];
}
