import type { Address } from '../../shared/features/profiles.js';
import { hasControlCharacters, stripControlCharacters } from './control-characters.js';
/** Where a package goes (or comes from): defined once, with the views. */
export type { Address } from '../../shared/features/profiles.js';

/** A dangerous-goods item as the order names it (the platform's hazmat* fields of an Item). */
export interface ItemHazmat {
  /** UN followed by digits, e.g. UN1223. */
  unNumber?: string | undefined;
  /** Transportation regulatory class, e.g. 3 or 9. */
  hazardClass?: string | undefined;
  /** I, II or III. */
  packingGroup?: string | undefined;
  properShippingName?: string | undefined;
  packingInstruction?: string | undefined;
  liquidVolumeOz?: number | undefined;
}

export interface OrderItem {
  sku: string;
  name: string;
  quantity: number;
  /** Declared value of one unit, in cents. */
  valueCents?: number | undefined;
  /** Weight of one unit, in pounds. */
  weightLbs?: number | undefined;
  /** UPC/EAN or the warehouse's own barcode of the item, scanned to verify it (issue 15). */
  barcode?: string | undefined;
  /** A picture of the item (https only), shown while verifying. */
  imageUrl?: string | undefined;
  /** Customs description (what it is, for a customs officer); the name when absent. */
  description?: string | undefined;
  /** Harmonized System code for customs, e.g. 3406.00. */
  harmonizedCode?: string | undefined;
  /** 2-letter code of the country where it was made. */
  countryOfOrigin?: string | undefined;
  /** Present when the item is dangerous goods (isHazmat). */
  hazmat?: ItemHazmat | undefined;
}

/**
 * Shipment options as the platform names them (Options of platform-api.md), from the order or
 * set by the packer.
 */
export interface ShipmentOptions {
  /** SIGNATURE, ADULT_SIGNATURE or NO_SIGNATURE. */
  deliveryConfirmation?: string | undefined;
  /** SATURDAY_DELIVERY. */
  deliveryOption?: string | undefined;
  additionalHandling?: boolean | undefined;
  customMessage1?: string | undefined;
  customMessage2?: string | undefined;
  customMessage3?: string | undefined;
  /** Incoterm of an international shipment (DAP, DDP, …). */
  incoTerm?: string | undefined;
}

export interface OrderPackage {
  /** Box code as the warehouse names it (e.g. "BOX-M"); optional. */
  box?: string | undefined;
  weightLbs?: number | undefined;
  lengthIn?: number | undefined;
  widthIn?: number | undefined;
  heightIn?: number | undefined;
  items: OrderItem[];
}

/** An order as it arrives in the inbox, before it is stored. */
export interface IncomingOrder {
  orderNumber: string;
  /** The brand tenant the order ships for; defaults to the profile's tenant. */
  tenantId?: string | undefined;
  shipTo: Address;
  /** Service levels the merchant asked for (e.g. UPS_GROUND); narrows the rate rule. */
  serviceLevels?: string[] | undefined;
  /** Options the order asks for (signature, Saturday delivery, messages, incoterm). */
  options?: ShipmentOptions | undefined;
  packages: OrderPackage[];
}

export interface StoredOrder {
  id: number;
  profileId: string;
  environment: string;
  tenantId: string;
  orderNumber: string;
  shipTo: Address;
  serviceLevels: string[] | null;
  /** Options the order asks for; absent when it asks for none. */
  options?: ShipmentOptions | undefined;
  packages: OrderPackage[];
  source: string;
  importedAt: string;
  updatedAt: string;
  /**
   * When a new version last changed what its shipment is made of, and what (migration 023):
   * absent while no version since its first import has.
   */
  shippingChanged?: { at: string; what: ShippingChange[] } | undefined;
  /** Cancelled at the station by a shift lead: nothing buys it (migration 017). */
  cancelled?: OrderCancellation | undefined;
}

/** What a new version of an order changed of its shipment (order-changes.ts). */
export type ShippingChange = 'address' | 'weight' | 'box';

/** Who cancelled an order at the station, why, and when (ISO 8601). */
export interface OrderCancellation {
  by: string;
  reason: string;
  at: string;
  /**
   * Cancelled at another station of the site (its name), as the site store said when this
   * station fetched the order: not sent back to the store (migration 020).
   */
  elsewhere?: string | undefined;
}

/** One problem found while importing: where it is (row = data row number, 1-based) and why. */
export interface ImportProblem {
  row: number;
  /** Line in the file where that row starts (CSV only). */
  line?: number | undefined;
  orderNumber?: string | undefined;
  field: string;
  reason: string;
}

/**
 * An order its own file says is not to ship: cancelled, refunded or shipped in the store, or
 * no line of it left to ship. It is not imported; the import says why (closed-orders.ts).
 */
export interface ClosedOrder {
  row: number;
  line?: number | undefined;
  orderNumber: string;
  /** As the file gives it ('' for the profile's own). */
  tenantId: string;
  /** What the file says: "the order is cancelled or refunded". */
  what: string;
  /** In the file's own words: "Order - Status is Cancelled". */
  said: string;
  /** Cancelled or refunded in the store, rather than shipped or with nothing to ship. */
  cancelled: boolean;
  /** Part of it shipped already, and the export does not say which items (ClosedInExport). */
  partly?: boolean;
}

export interface ImportReport {
  source: string;
  imported: string[];
  updated: string[];
  /** Orders left as they were because a label was already bought for them. */
  unchanged: string[];
  /** Orders the station already had exactly as the file has them: left as they were. */
  same: string[];
  /** The first problems (MAX_REPORTED_PROBLEMS by default), in file order. */
  problems: ImportProblem[];
  /** Fields whose control characters were removed; the orders were imported all the same. */
  cleaned?: ImportProblem[];
  /** Orders imported that will need more before they can be shipped (customs data abroad). */
  notices?: ImportProblem[];
  /** Orders with a label that the file gives differently: what differs (nothing was changed). */
  labelledChanged?: ImportProblem[];
  /**
   * Orders the file says are not to ship (cancelled, refunded, shipped already, no line left):
   * not imported, each said, and not problems of the file (an export of every order has many).
   */
  closed?: ImportProblem[];
  /** Orders a shift lead cancelled that the file gives anew: updated, and still cancelled. */
  stillCancelled?: ImportProblem[];
  /** New orders of a 3PL's brand whose number another brand's order has here: a scan cannot choose. */
  sharedNumbers?: ImportProblem[];
  /** Every problem found, including those beyond the list. */
  problemCount: number;
  /**
   * Orders of the file that are not here because of a problem (a bad row, no line to ship, a
   * tenant not this profile's): the problems' order numbers that were not stored.
   */
  ordersLeftOut?: number;
  /** The store export recognised by its header ("Shopify orders export"), or the saved mapping used. */
  format?: string | undefined;
  /** The header of a CSV in no format the station knows: a saved mapping could read it. */
  unmappedHeader?: string[] | undefined;
}

/** Where a long import is: reading the file, checking orders, storing them. */
export interface ImportProgress {
  phase: 'reading' | 'checking' | 'storing';
  /** Records, orders or stored orders so far (for reading: the percentage of the file). */
  done: number;
  total: number;
}

/** Problems kept in a report: a file with 250,000 bad rows lists the first ones and counts all. */
export const MAX_REPORTED_PROBLEMS = 500;

/** The first `max` problems and the count of all of them: memory stays bounded. */
export class ProblemList {
  readonly first: ImportProblem[] = [];
  count = 0;
  /** The order numbers of every problem (listed or only counted): orders the file may lose. */
  readonly orders = new Set<string>();
  constructor(readonly max: number = MAX_REPORTED_PROBLEMS) {}

  add(problem: ImportProblem): void {
    this.count++;
    // A refused row's order number as the import would have stored it: without the control
    // characters (a printer escape) that would reach the report, the screen and a log.
    if (problem.orderNumber && hasControlCharacters(problem.orderNumber))
      problem = { ...problem, orderNumber: stripControlCharacters(problem.orderNumber) };
    if (problem.orderNumber) this.orders.add(problem.orderNumber);
    if (this.first.length < this.max) this.first.push(problem);
  }

  addAll(problems: Iterable<ImportProblem>): void {
    for (const p of problems) this.add(p);
  }
}
