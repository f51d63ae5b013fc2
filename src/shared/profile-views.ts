/** These view types moved to their features' modules (src/shared/features); this file keeps old imports working. */
export type {
  Environment,
  Address,
  TenantNode,
  ShippingSiteView,
  RateRule,
  ProfileView,
} from './features/profiles.js';
export type { CarrierAccountView } from './features/records.js';
