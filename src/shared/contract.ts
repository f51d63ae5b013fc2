/**
 * The station contract: every call the renderer can make and every event it can receive,
 * declared once. Both hosts serve it by iterating over `calls` (Actual's handler map), so a new
 * call is one entry here plus one handler in the Station facade. Inputs are validated at the
 * host boundary with these schemas: the renderer is untrusted.
 */
import { z } from 'zod';
import type * as V from './views.js';
import { networkPrinterInputSchema, printerSchema } from './printers.js';
import type { CallName, EventName } from './names.js';

/** A call: its input schema, and its output type carried as a phantom. */
export interface CallDef<I extends z.ZodType, O> {
  input: I;
  /** Type-only; never read at runtime. */
  output?: O;
}
const def =
  <O>() =>
  <I extends z.ZodType>(input: I): CallDef<I, O> => ({ input });

const none = z.object({}).strict();
const id = z.string().min(1).max(200);
const text = (max = 500) => z.string().max(max);

const environment = z.enum(['embedded-sandbox', 'sandbox', 'production']);
/** History's search, of this station or of the whole site (which adds station and packer). */
/** A day typed in History's date fields (2026-11-23); anything Date cannot read is refused by name. */
const day = text(40).refine((s) => !Number.isNaN(Date.parse(s)), 'not a date (use YYYY-MM-DD)');
const labelSearch = z.object({
  query: text(200).optional(),
  from: day.optional(),
  to: day.optional(),
  tenantId: text(200).optional(),
  limit: z.number().int().min(1).max(500).default(100),
  offset: z.number().int().min(0).default(0),
});
const rateRule = z.object({
  strategy: z.enum(['cheapest', 'fastest']),
  preferredServiceLevels: z.array(text(100)).max(50),
  maxTransitDays: z.number().int().min(1).max(60).nullable(),
  excludedCarriers: z.array(text(100)).max(50),
});
const credentials = z.object({
  environment,
  baseUrl: z.url().max(500),
  clientId: text(200).min(1),
  /** Typed once in the form; stored in the keychain by the host, never sent back. */
  clientSecret: text(500).min(1),
  tenantId: text(200).optional(),
});
const boxPreset = z.object({
  id,
  name: text(100).min(1),
  code: text(100).min(1),
  lengthIn: z.number().positive().max(200),
  widthIn: z.number().positive().max(200),
  heightIn: z.number().positive().max(200),
});

const packedPackage = z.object({
  /**
   * Pounds; null when the package has not been weighed. Range and missing weights are checked
   * by the core, which names the package ("Package 2 of 3 has no weight").
   */
  weightLbs: z.number().nullable(),
  boxId: id.nullable().default(null),
});

/** The Orders view's filters (issue 15.2); a batch can take the same filters. */
const orderFilter = z.object({
  search: text(200).optional(),
  statuses: z
    .array(z.enum(['open', 'verified', 'labelled', 'queued', 'failed']))
    .max(5)
    .default([]),
  tenantId: text(200).optional(),
  singleItem: z.boolean().default(false),
  weightKnown: z.boolean().default(false),
});
const endOfDayQuery = z.object({
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day (YYYY-MM-DD)'),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day (YYYY-MM-DD)'),
  /** The station's local time minus UTC, in minutes (the browser's -getTimezoneOffset()). */
  utcOffsetMinutes: z
    .number()
    .int()
    .min(-14 * 60)
    .max(14 * 60)
    .default(0),
});

export const calls = {
  'station.status': def<V.StationStatus>()(none),

  'profiles.list': def<V.ProfileView[]>()(none),
  'profiles.tenants': def<V.TenantNode[]>()(credentials),
  'profiles.sites': def<V.ShippingSiteView[]>()(credentials.extend({ tenantId: text(200).min(1) })),
  'profiles.create': def<V.ProfileView>()(
    credentials.extend({
      name: text(100).min(2),
      tenantId: text(200).min(1),
      shippingSiteId: text(200).min(1),
      brandTenantIds: z.array(text(200)).max(200).default([]),
      activate: z.boolean().default(true),
    }),
  ),
  'profiles.update': def<V.ProfileView>()(
    z.object({
      id,
      name: text(100).min(2).optional(),
      shippingSiteId: text(200).min(1).optional(),
      rateRule: rateRule.optional(),
      printers: z.array(printerSchema).max(20).optional(),
      defaultPrinterId: id.nullable().optional(),
      hotFolder: text(1000).nullable().optional(),
      /** Issue 15.1: no label until every item is scanned (or a shift lead overrides). */
      requireItemVerification: z.boolean().optional(),
    }),
  ),
  'profiles.setSecret': def<{ stored: true }>()(z.object({ id, clientSecret: text(500).min(1) })),
  'profiles.activate': def<V.ProfileView>()(z.object({ id })),
  /** Electron: the main process shows a native folder dialog; the choice becomes the hot folder. */
  'profiles.chooseHotFolder': def<V.ProfileView>()(z.object({ id })),
  'profiles.export': def<{ fileName: string; json: string }>()(z.object({ id })),
  'profiles.provision': def<V.ProfileView>()(
    z.object({ json: text(200_000).min(2), clientSecret: text(500).optional() }),
  ),

  'orders.import': def<V.ImportReport>()(
    z.object({ fileName: text(260).min(1), content: text(20_000_000) }),
  ),
  'orders.list': def<V.OrderView[]>()(
    z.object({
      search: text(200).optional(),
      limit: z.number().int().min(1).max(500).default(100),
    }),
  ),

  'pack.scan': def<V.ScanResult>()(z.object({ value: text(200).trim().min(1) })),
  'pack.rate': def<V.RateQuote>()(
    z.object({
      orderId: id,
      /** One entry per package of the order, in order: its weight (typed or weighed) and box. */
      packages: z.array(packedPackage).min(1).max(100),
      /** Buying another label for an order that already has one needs this. */
      confirmAnother: z.boolean().default(false),
    }),
  ),
  'pack.buy': def<V.PurchaseView>()(
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
  'pack.readScale': def<V.WeightReading>()(none),
  /** The USB scales this computer sees, for Settings; a note says why there are none. */
  'devices.discoverScales': def<V.ScaleDiscovery>()(none),

  'attention.list': def<V.AttentionItem[]>()(none),
  'attention.resolve': def<{ resolved: true }>()(
    z.object({
      id,
      action: z.enum([
        'check-trackers',
        'mark-not-bought',
        'buy-again',
        'retry',
        'cancel',
        'mark-printed',
        'dismiss',
      ]),
      note: text(500).optional(),
    }),
  ),

  'queue.list': def<V.QueueView>()(none),
  'queue.retry': def<{ done: true }>()(z.object({ kind: z.enum(['shipment', 'print-job']), id })),
  'queue.cancel': def<{ done: true }>()(z.object({ kind: z.enum(['shipment', 'print-job']), id })),
  'queue.move': def<{ done: true }>()(z.object({ id, printerId: id })),

  'labels.search': def<V.LabelPage>()(labelSearch),
  'labels.get': def<V.LabelDetail>()(z.object({ id })),
  'labels.reprint': def<V.PrintJobView>()(
    z.object({
      id,
      reason: text(500).trim().min(3),
      printerId: id.optional(),
      /** One package of a multi-package label (0-based); every package when absent. */
      packageIndex: z.number().int().min(0).max(99).optional(),
    }),
  ),
  'labels.audit': def<V.ReprintAuditView[]>()(z.object({ labelId: id.optional() })),

  'tracking.board': def<V.TrackingBoard>()(
    z.object({
      status: text(40).optional(),
      search: text(200).optional(),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(20_000).default(500),
    }),
  ),

  'carriers.list': def<V.CarrierAccountView[]>()(z.object({ refresh: z.boolean().default(false) })),

  'printers.discover': def<V.DiscoveredPrinter[]>()(none),
  /** Settings → "Add printer by address": a network printer by host and port. */
  'printers.add': def<V.ProfileView>()(networkPrinterInputSchema),
  'printers.remove': def<V.ProfileView>()(z.object({ printerId: id })),
  'printers.testPrint': def<V.PrintJobView>()(z.object({ printerId: id })),
  'printers.status': def<V.PrinterStatusView>()(z.object({ printerId: id })),

  'settings.get': def<V.StationSettings>()(none),
  'settings.update': def<V.StationSettings>()(
    z.object({
      userName: text(100).min(1).optional(),
      sounds: z.boolean().optional(),
      boxes: z.array(boxPreset).max(100).optional(),
      /** device: "vendor:product" in hex as `devices.discoverScales` lists it; null: the first scale found. */
      scale: z.object({ enabled: z.boolean(), device: text(300).nullable() }).optional(),
      // acceptBasicTextSecrets is not here on purpose: only the main process's own dialog can
      // accept storing secrets without a keychain (src/main/vault.ts).
    }),
  ),

  'site.status': def<V.SiteStatusView>()(none),
  /** null removes the site store; the password is stored in the keychain, never returned. */
  'site.configure': def<V.SiteStatusView>()(
    z.object({
      siteStore: z
        .object({
          url: text(500).min(1),
          stationId: text(63).min(1),
          stationName: text(100).min(1),
        })
        .nullable(),
      password: text(500).min(1).optional(),
    }),
  ),
  'site.labels': def<V.SiteLabelPage>()(
    labelSearch.extend({
      stationId: text(63).optional(),
      packer: text(100).optional(),
      scope: z.enum(['site', 'station']).default('site'),
    }),
  ),
  'site.reprint': def<V.PrintJobView>()(
    z.object({
      stationId: text(63).min(1),
      labelId: id,
      reason: text(500).trim().min(3),
      printerId: id.optional(),
    }),
  ),
  'site.attention': def<V.SiteAttentionView>()(none),

  // The packing floor (issue 15): Orders view, scan to verify, batches, end of day.
  'orders.page': def<V.OrderPageView>()(
    orderFilter.extend({
      limit: z.number().int().min(1).max(200).default(50),
      offset: z.number().int().min(0).default(0),
    }),
  ),
  'verify.scan': def<V.VerifyScanView>()(
    z.object({
      orderId: id,
      value: text(200).trim().min(1),
      /** The quantity key: this many of the scanned item at once. */
      quantity: z.number().int().min(1).max(999).default(1),
    }),
  ),
  'verify.override': def<V.VerificationView>()(
    z.object({ orderId: id, by: text(100).trim().min(1), reason: text(500).trim().min(3) }),
  ),
  'verify.reset': def<V.VerificationView>()(z.object({ orderId: id })),
  /** The picked orders, or every order the filter matches (at most 500). */
  'batch.start': def<V.BatchView>()(
    z.object({
      orderIds: z.array(id).max(500).optional(),
      filter: orderFilter.optional(),
      description: text(200).default(''),
    }),
  ),
  'batch.control': def<V.BatchView>()(
    z.object({ id, action: z.enum(['pause', 'resume', 'stop']) }),
  ),
  'batch.list': def<V.BatchView[]>()(none),
  'endOfDay.summary': def<V.EndOfDayView>()(endOfDayQuery),
  /** On the profile's receipt printer (role receipt), through the spool. */
  'endOfDay.print': def<V.PrintJobView>()(endOfDayQuery),
  'endOfDay.csv': def<{ fileName: string; csv: string }>()(endOfDayQuery),
  'site.resolveAttention': def<{ resolved: true }>()(
    z.object({ id, note: text(500).trim().min(3) }),
  ),
} as const;

export type Calls = typeof calls;
export type Input<K extends CallName> = z.input<Calls[K]['input']>;
export type ParsedInput<K extends CallName> = z.output<Calls[K]['input']>;
export type Output<K extends CallName> = NonNullable<Calls[K]['output']>;

/** Every event the renderer can receive, with its payload type. */
export interface Events {
  status: V.StationStatus;
  'print-job': V.PrintJobView;
  'orders-changed': { count: number };
  'queue-changed': { shipments: number; printJobs: number };
  'attention-changed': { count: number };
  'tracking-changed': { changed: number };
  'carriers-changed': { expired: number };
  'import-progress': V.ImportProgressView;
  /** Another station of the site committed changes (the site store's NOTIFY). */
  'site-changed': { stationId: string };
  /** A batch moved on (after every label, and on pause, stop, done). */
  'batch-progress': V.BatchView;
}

// The names module is what the sandboxed preload imports (no zod there); these two lines
// make the compiler prove it lists exactly the calls and events declared here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _callsMatch: Same<CallName, keyof Calls> = true;
const _eventsMatch: Same<EventName, keyof Events> = true;
void _callsMatch;
void _eventsMatch;
