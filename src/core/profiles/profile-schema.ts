import { z } from 'zod';
import { csvColumns } from '../orders/csv-columns.js';
import { environments } from '../storage/scope.js';
import { addressSchema } from '../orders/order-schema.js';
import { baseUrlProblem } from './base-url.js';
import { SECRET_ENV_PREFIX } from './secret-vault.js';
import { printerSchema } from '../../shared/printers.js';
import { zodIssueWords } from '../../shared/zod-words.js';

/** How the station picks one rate among those the platform returned. */
export const rateRuleSchema = z.object({
  /** cheapest: lowest price first; fastest: fewest transit days first. */
  strategy: z.enum(['cheapest', 'fastest']).default('cheapest'),
  /** When any returned rate has one of these service levels, only those are considered. */
  preferredServiceLevels: z.array(z.string().min(1)).default([]),
  /** Rates slower than this are left out (when the platform gives transit days). */
  maxTransitDays: z.number().int().positive().optional(),
  /** Carrier codes never to use (e.g. "DHL"). */
  excludedCarriers: z.array(z.string().min(1)).default([]),
});
export type RateRule = z.infer<typeof rateRuleSchema>;

const scaleSchema = z.object({
  kind: z.literal('usb-hid'),
  vendorId: z.number().int().optional(),
  productId: z.number().int().optional(),
});

/** Optional: a packing slip on an ESC/POS receipt printer after each label. */
const packingSlipSchema = z.object({
  /** The receipt printer; the first printer with role `receipt` when omitted. */
  printerId: z.string().min(1).optional(),
  /** ESC/POS dialect. */
  type: z.enum(['epson', 'star']).default('epson'),
  /** Characters per line: 48 on 80 mm paper, 32 on 58 mm. */
  width: z.union([z.literal(48), z.literal(32)]).default(48),
  /** A line at the bottom (returns address, thank-you). */
  footer: z.string().max(200).optional(),
});

const tenantRef = z.object({
  tenantId: z.string().min(1),
  name: z.string().default(''),
  /** The brand's own shipping site, when it has one; the profile's site otherwise. */
  shippingSiteId: z.string().min(1).optional(),
});

// Only variables meant for the station: a profile must not be able to send PATH, HOME or a
// cloud key of the host to a platform address.
const envVarName = z
  .string()
  .regex(
    new RegExp(`^${SECRET_ENV_PREFIX}[A-Z0-9_]+$`),
    `must be an environment variable named ${SECRET_ENV_PREFIX}… (for example ${SECRET_ENV_PREFIX}RENO_3)`,
  );

export const profileSchema = z
  .object({
    /** Stable id used to scope every row of the station database. */
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be lower-case letters, digits and dashes'),
    name: z.string().trim().min(1, 'is empty').max(100),
    environment: z.enum(environments),
    /** Ignored for embedded-sandbox (the host starts the sandbox and knows its URL). */
    baseUrl: z.url({ error: 'must be an http(s) URL' }).optional(),
    clientId: z.string().min(1, 'is empty'),
    /** The tenant the API key acts for (a brand, or a 3PL). */
    tenantId: z.string().min(1, 'is empty'),
    tenantType: z.enum(['thirdPartyLogisticParent', 'thirdPartyLogistic', 'brand']).optional(),
    /** Brands a 3PL ships for, as read from GET /api/v1/tenants. Empty for a brand. */
    brandTenants: z.array(tenantRef).default([]),
    shippingSiteId: z.string().min(1).optional(),
    shipFrom: addressSchema,
    rateRule: rateRuleSchema.default({
      strategy: 'cheapest',
      preferredServiceLevels: [],
      excludedCarriers: [],
    }),
    printers: z.array(printerSchema).default([]),
    /** The printer labels go to; the first label printer when omitted. */
    labelPrinterId: z.string().optional(),
    scale: scaleSchema.optional(),
    packingSlips: packingSlipSchema.optional(),
    hotFolder: z.string().min(1).optional(),
    /** Drop the ZPL of labels older than this many days (records are kept). */
    labelRetentionDays: z.number().int().positive().optional(),
    /**
     * Issue 15.1: a label is bought only once every item of the order was scanned into the box
     * (or a shift lead overrode it with a reason). Off when absent.
     */
    requireItemVerification: z.boolean().optional(),
    /** Environment variable that holds the client secret (provisioning). */
    clientSecretEnv: envVarName.optional(),
    /**
     * Column mappings for order CSVs in no known format (issue 15): station column → the
     * file's header. The first whose headers are all in a file reads it.
     */
    orderColumnMappings: z
      .array(
        z.object({
          name: z.string().trim().min(1, 'is empty').max(60),
          columns: z.partialRecord(z.enum(csvColumns), z.string().trim().min(1).max(200)),
          /** The unit of the mapped weight column (pounds when absent). */
          weightUnit: z.enum(['lb', 'oz', 'kg', 'g']).optional(),
          /** A column naming each row's weight unit (empty cell: `weightUnit`). */
          weightUnitColumn: z.string().trim().min(1).max(200).optional(),
        }),
      )
      .max(50)
      .optional(),
  })
  .superRefine((p, ctx) => {
    if (p.environment !== 'embedded-sandbox' && !p.baseUrl)
      ctx.addIssue({
        code: 'custom',
        path: ['baseUrl'],
        message: `is required for the ${p.environment} environment`,
      });
    const urlProblem = p.baseUrl ? baseUrlProblem(p.baseUrl) : null;
    if (urlProblem) ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: urlProblem });
    if (p.labelPrinterId && !p.printers.some((printer) => printer.id === p.labelPrinterId))
      ctx.addIssue({
        code: 'custom',
        path: ['labelPrinterId'],
        message: `names printer ${p.labelPrinterId}, which is not in printers`,
      });
    if (p.packingSlips && !slipPrinterOf(p))
      ctx.addIssue({
        code: 'custom',
        path: ['packingSlips', 'printerId'],
        message: p.packingSlips.printerId
          ? `names printer ${p.packingSlips.printerId}, which is not in printers`
          : 'needs a receipt printer: add a printer with role "receipt" (Settings → Printers)',
      });
    const ids = new Set<string>();
    p.printers.forEach((printer, i) => {
      if (ids.has(printer.id))
        ctx.addIssue({ code: 'custom', path: ['printers', i, 'id'], message: 'is used twice' });
      ids.add(printer.id);
    });
  });

export type Profile = z.infer<typeof profileSchema>;
export type ProfileInput = z.input<typeof profileSchema>;

/** Every tenant a profile may import orders for and buy labels under. */
export function tenantsOf(profile: Profile): string[] {
  return [profile.tenantId, ...profile.brandTenants.map((t) => t.tenantId)];
}

/** The receipt printer packing slips go to, when the profile prints them. */
export function slipPrinterOf(
  profile: Pick<Profile, 'printers'> & {
    packingSlips?: { printerId?: string | undefined } | undefined;
  },
): string | undefined {
  if (!profile.packingSlips) return undefined;
  const { printerId } = profile.packingSlips;
  if (printerId) return profile.printers.some((p) => p.id === printerId) ? printerId : undefined;
  return profile.printers.find((p) => p.role === 'receipt')?.id;
}

/** The printer labels go to, or undefined when none is set up. */
export function labelPrinterOf(profile: Profile): string | undefined {
  if (profile.labelPrinterId) return profile.labelPrinterId;
  return profile.printers.find((p) => (p.role ?? 'label') === 'label')?.id;
}

export interface SettingsIssue {
  /** Where in the file, e.g. profiles[1].baseUrl */
  path: string;
  message: string;
}

export function issuesOf(error: z.ZodError, prefix = ''): SettingsIssue[] {
  return error.issues.map((issue) => ({
    path:
      issue.path.reduce<string>(
        (at, part) =>
          typeof part === 'number' ? `${at}[${part}]` : at ? `${at}.${String(part)}` : String(part),
        prefix,
      ) || '(profile)',
    message: zodIssueWords(issue),
  }));
}
