/** Orders in, scan, rate, buy. Handlers: src/core/station/features/packing.ts. */
import { z } from 'zod';
import { def, id, text } from './define.js';
import type { Address } from './profiles.js';
import type { LabelledElsewhereView } from './site.js';
import type { LabelSummary, PrintJobView } from './records.js';
import type { BoxPreset } from './settings.js';
import type { VerificationView } from './floor.js';

const packedPackage = z.object({
  /**
   * Pounds; null when the package has not been weighed. Range and missing weights are checked
   * by the core, which names the package ("Package 2 of 3 has no weight").
   */
  weightLbs: z.number().nullable(),
  boxId: id.nullable().default(null),
});

export interface OrderItemView {
  sku: string;
  name: string;
  quantity: number;
  /** Customs data of an item (issue 15), where the order gives it. */
  description?: string | null;
  /** Value of one unit, in dollars. */
  valueUsd?: number | null;
  /** Weight of one unit, in pounds. */
  weightLbs?: number | null;
  harmonizedCode?: string | null;
  countryOfOrigin?: string | null;
  /** Dangerous goods: what the order says about it (any field may be missing). */
  hazmat?: HazmatView | null;
}

export interface HazmatView {
  unNumber: string | null;
  hazardClass: string | null;
  packingGroup: string | null;
  properShippingName: string | null;
}

/**
 * Shipment options as the platform names them (issue 15): from the order, or set by the packer
 * on Pack and sent with `pack.rate`.
 */
export interface ShipOptionsView {
  deliveryConfirmation: 'SIGNATURE' | 'ADULT_SIGNATURE' | null;
  saturdayDelivery: boolean;
  additionalHandling: boolean;
  customMessage1: string;
  customMessage2: string;
  customMessage3: string;
  /** Incoterm of an international shipment (DAP, DDP, …). */
  incoTerm: (typeof INCOTERMS)[number] | null;
}

export const INCOTERMS = ['DAP', 'DDP', 'EXW', 'FCA', 'CPT', 'CIP', 'DPU', 'DDU'] as const;

export const shipOptions = z.object({
  deliveryConfirmation: z.enum(['SIGNATURE', 'ADULT_SIGNATURE']).nullable().default(null),
  saturdayDelivery: z.boolean().default(false),
  additionalHandling: z.boolean().default(false),
  customMessage1: text(35).default(''),
  customMessage2: text(35).default(''),
  customMessage3: text(35).default(''),
  incoTerm: z.enum(INCOTERMS).nullable().default(null),
});

export interface PackageView {
  index: number;
  weightLbs: number | null;
  /** The box code the order file gave this package (BOX-M), if any. */
  box: string | null;
  lengthIn: number | null;
  widthIn: number | null;
  heightIn: number | null;
  items: OrderItemView[];
}

export interface OrderView {
  id: string;
  orderNumber: string;
  tenantId: string | null;
  brandName: string | null;
  shipTo: Address;
  items: OrderItemView[];
  packages: PackageView[];
  status: string;
  importedAt: string;
  /** The options the order asks for (the Pack screen starts from these). */
  options?: ShipOptionsView;
  /** Ship-to is in another country than the station ships from: customs and an incoterm. */
  international?: boolean;
}

export type ScanResult =
  | {
      kind: 'order';
      order: OrderView;
      existingLabels: LabelSummary[];
      /** What was scanned into the box so far (issue 15.1). */
      verification: VerificationView;
      /**
       * With a site store: the order has no label here, but another station of the site
       * labelled it (as this station keeps the site's labels): nothing to rate, its label
       * reprints here (Alt+R). Absent: none known.
       */
      labelledElsewhere?: LabelledElsewhereView;
    }
  | { kind: 'label'; label: LabelSummary }
  | { kind: 'box'; box: BoxPreset }
  | {
      kind: 'not-found';
      value: string;
      /**
       * The site store could not be asked for orders imported at other stations (it does not
       * answer, or refuses this station): what that means for the packer, in words. Absent or
       * null when it was asked, or the station has no site store.
       */
      siteStoreAway?: string | null;
    };

export interface ImportReport {
  /** New orders, and orders replaced by a different version in this file. */
  imported: number;
  /** Orders left as they were because a label was already bought for them. */
  skipped: number;
  /** Orders already here exactly as the file has them (the same file again): left as they were. */
  alreadyImported?: number;
  /** The first problems (500 at most), in file order. */
  errors: ImportError[];
  /** Every problem found, including those beyond `errors`. */
  errorCount: number;
  /** Orders of the file that are not imported because of those problems (absent: none). */
  ordersLeftOut?: number;
  /**
   * Orders imported that need more before they can be shipped (abroad, without their customs
   * data): not problems of the file's reading, but what Pack would refuse.
   */
  notices?: ImportError[];
  /**
   * Orders that already have a label and that the file now gives differently (another street,
   * other packages): neither the order nor its label was changed; each says what differs, so
   * someone checks that parcel.
   */
  labelledChanged?: ImportError[];
  /**
   * Orders the file says are not to ship (the store cancelled, refunded or shipped them): not
   * imported, each with what became of the station's own open copy; not problems of the file.
   */
  closed?: ImportError[];
  /** How many `closed` holds in all (the list keeps the first 500). */
  closedCount?: number;
  /**
   * Orders a shift lead cancelled that the file gives in a new version: the order was updated
   * and stays cancelled (nothing buys it until a lead reopens it).
   */
  stillCancelled?: ImportError[];
  /**
   * New orders of a 3PL's brand whose number another brand's order has at the station (in the
   * same file or imported before): a scan of that number cannot tell them apart, so each is
   * opened from Orders on its brand's row. Each says which brand has it too.
   */
  sharedNumbers?: ImportError[];
  /** The store export or saved mapping the file was read as ("Shopify orders export"). */
  format?: string | null;
  /**
   * The file's header when it was not recognised (no station columns, no known export, no
   * saved mapping): Settings offers to map these columns once and save the mapping.
   */
  unmappedHeader?: string[] | null;
  /**
   * With `unmappedHeader`: a first guess, station column → the file's header, from the store
   * export the header is nearest to (one with a column missing); empty when none is near.
   */
  suggestedColumns?: Record<string, string> | null;
}

/** Station CSV columns a saved mapping can fill (the file's header for each). */
export const MAPPABLE_COLUMNS = [
  'order_number',
  'tenant_id',
  'ship_to_name',
  'ship_to_company',
  'ship_to_address1',
  'ship_to_address2',
  'ship_to_city',
  'ship_to_state',
  'ship_to_postal_code',
  'ship_to_country',
  'ship_to_phone',
  'ship_to_email',
  'sku',
  'item_name',
  'quantity',
  'unit_value_usd',
  'package',
  'box',
  'weight_lbs',
] as const;
/** The units a mapped file may weigh its packages in (its weight column is read as pounds from them). */
export const MAPPED_WEIGHT_UNITS = ['lb', 'oz', 'kg', 'g'] as const;
export type MappedWeightUnit = (typeof MAPPED_WEIGHT_UNITS)[number];
export const REQUIRED_MAPPED_COLUMNS = [
  'order_number',
  'ship_to_address1',
  'ship_to_city',
  'ship_to_postal_code',
  'ship_to_country',
] as const;

/** A long order import is under way (sent a few times a second while it runs). */
export interface ImportProgressView {
  fileName: string;
  phase: 'reading' | 'checking' | 'storing';
  done: number;
  total: number;
}

/** One bad row of an order file, located the way the person who wrote the file sees it. */
export interface ImportError {
  /**
   * CSV: the row number a spreadsheet shows (the header is row 1, so the first order is row 2).
   * JSON: the order's position in the file (1 = first). 0: the whole file or its header.
   */
  row: number;
  /** The order the row belongs to, when the row names one. */
  orderNumber: string | null;
  field: string;
  reason: string;
  /** "row 14 (order LUM-10424)", "order 3 in the file (LUM-7)", "the header". */
  where: string;
}

export interface RateView {
  id: string;
  carrierAccountId: string;
  carrierAccountName: string | null;
  carrier: string;
  serviceLevel: string;
  amount: number;
  currency: string;
  transitDays: number | null;
}

export interface AccountIssue {
  carrierAccountId: string;
  name: string;
  carrier: string;
  status: string;
  oauthUrl: string | null;
}

export interface RateQuote {
  orderId: string;
  orderNumber: string;
  /** The rated shipment to buy with `pack.buy` (also set when it was queued). */
  shipmentId: string;
  /** When the rates were asked for; `pack.buy` asks again once they are stale (10 min). */
  ratedAt: string | null;
  rates: RateView[];
  /** The rate the profile's rule picked; `reason` says why. */
  chosenRateId: string | null;
  reason: string;
  accountIssues: AccountIssue[];
  /** The platform is unreachable: the shipment was queued and will be rated and bought later. */
  queued: boolean;
  /**
   * The platform did not answer this rating: nothing was bought or queued (`reason` says so).
   * Buying asks `pack.rate` again with `queue: true`, which queues the order for the platform.
   */
  unreachable?: boolean;
  /**
   * Rates came back but none fits the profile's rate rule: they are listed with no rule's
   * choice (`chosenRateId` null) and `reason` says so. Only a rate the packer picks is bought
   * (`pack.buy` with `rate`); without one `pack.buy` buys nothing.
   */
  ruleRefused?: boolean;
}

/** A label a Pack view asked for that the station is buying now (`pack.buying`). */
export interface BuyingView {
  orderId: string;
  orderNumber: string;
  /** When the Pack view asked (ISO). */
  since: string;
}

export interface PurchaseView {
  outcome: 'printed' | 'printing' | 'print-waiting' | 'queued-offline';
  label: LabelSummary | null;
  printJob: PrintJobView | null;
  message: string;
  /**
   * Bought while the site store was away: no other station could be asked whether it bought
   * this order; said beside the label (amber), checked when the store answers.
   */
  siteUnchecked?: string;
}

export const packingCalls = {
  'orders.import': def<ImportReport>()(
    z.object({ fileName: text(260).min(1), content: text(20_000_000) }),
  ),
  /**
   * Settings → Orders → Map columns: saves a column mapping in the active profile (replacing one
   * of the same name), so files with that header import without asking again.
   */
  'orders.saveMapping': def<{ saved: string }>()(
    z.object({
      name: text(60).trim().min(1),
      columns: z.partialRecord(z.enum(MAPPABLE_COLUMNS), text(200).trim().min(1)),
      /** The unit of the weight column (pounds when absent). */
      weightUnit: z.enum(MAPPED_WEIGHT_UNITS).optional(),
      /** A column that says each row's weight unit (lb, oz, kg, g; empty: `weightUnit`). */
      weightUnitColumn: text(200).trim().min(1).optional(),
    }),
  ),
  'orders.list': def<OrderView[]>()(
    z.object({
      search: text(200).optional(),
      limit: z.number().int().min(1).max(500).default(100),
    }),
  ),

  'pack.scan': def<ScanResult>()(
    z.object({
      value: z
        .string()
        .max(200, {
          error: (i) =>
            `That scan is ${String(i.input).length} characters long: too long for an order number, a tracking number or a box. Scan the label again.`,
        })
        .trim()
        .min(1),
      /**
       * Opened from Orders: that order, by its id (`value` is then its number). Two brands of a
       * 3PL may use one number, which a scan cannot tell apart; the row picked can.
       */
      orderId: id.optional(),
    }),
  ),
  'pack.rate': def<RateQuote>()(
    z.object({
      orderId: id,
      /** One entry per package of the order, in order: its weight (typed or weighed) and box. */
      packages: z.array(packedPackage).min(1).max(100),
      /** Buying another label for an order that already has one needs this. */
      confirmAnother: z.boolean().default(false),
      /** Options as set on Pack; null: the order's own. */
      options: shipOptions.nullable().default(null),
      /**
       * The packer asked to buy (Ctrl+Enter): a platform that does not answer queues the order.
       * Without it a rating never queues (nor buys) anything.
       */
      queue: z.boolean().default(false),
    }),
  ),
  /**
   * The rated shipment's order was imported again since it was rated, changing its ship-to,
   * weights or boxes (its rates are then never bought): what changed, in words; null when not.
   */
  'pack.changedSince': def<{ what: string | null }>()(z.object({ shipmentId: id })),
  /**
   * Labels this station is buying now at a Pack view's Ctrl+Enter (not a batch's, not the
   * offline queue's), of the running profile: a page opened or reloaded meanwhile shows the
   * order until its label is there, so a label never comes out of the printer unannounced.
   */
  'pack.buying': def<{ orders: BuyingView[] }>()(z.object({})),
  'pack.buy': def<PurchaseView>()(
    z.object({
      /** The rated shipment `pack.rate` returned. */
      shipmentId: id,
      /** Another of its rates than the rule's choice; null buys the rule's choice. */
      rate: z
        .object({ carrierAccountId: text(200).min(1), serviceLevel: text(100).min(1) })
        .nullable()
        .default(null),
      confirmAnother: z.boolean().default(false),
    }),
  ),
};
