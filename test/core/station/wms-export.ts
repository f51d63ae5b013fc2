// A 3PL's warehouse system export, its own column names, and the mapping that reads it.
import type { Station } from '../../../src/core/station/index.js';
import { call, threePl } from './support.js';

export const WMS_HEADER =
  'Ref #,Brand,Customer,Street,Town,St,Zip,Ctry,Pkg,Parcel Wt,Item Code,Qty';

export const WMS_COLUMNS = {
  order_number: 'Ref #',
  tenant_id: 'Brand',
  ship_to_name: 'Customer',
  ship_to_address1: 'Street',
  ship_to_city: 'Town',
  ship_to_state: 'St',
  ship_to_postal_code: 'Zip',
  ship_to_country: 'Ctry',
  package: 'Pkg',
  weight_lbs: 'Parcel Wt',
  sku: 'Item Code',
  quantity: 'Qty',
} as const;

/** The 3PL's profile with the export's mapping saved ("Our WMS"). */
export async function threePlWithWms(s: Station, sandboxUrl: string): Promise<void> {
  await threePl(s, sandboxUrl);
  await call(s, 'orders.saveMapping', { name: 'Our WMS', columns: WMS_COLUMNS });
}
