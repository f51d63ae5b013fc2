/**
 * The one printer shape: what a site profile stores, what the Settings view shows and edits,
 * and what `profiles.update` takes back. The view and the profile share it, so nothing (a role,
 * a port) is dropped on a round trip through the screen.
 */
import { z } from 'zod';
import type { PrinterState } from './views.js';

export type PrinterKind = 'network' | 'usb' | 'os';
export type PrinterDpi = 203 | 300 | 600;
/** What a printer is used for at the station: 4x6 ZPL labels or ESC/POS packing slips. */
export type PrinterRole = 'label' | 'receipt';

export interface PrinterConfig {
  /** Stable id, referenced by print jobs (`print_jobs.printer_id`). */
  id: string;
  /** What the packer sees: "ZD421 left", "Receipt printer". */
  name: string;
  kind: PrinterKind;
  /** Defaults to 'label'. */
  role?: PrinterRole;
  /** Network printers: host name or IP address, and raw port (9100 when omitted). */
  host?: string;
  port?: number;
  /** USB printers: ids as numbers (0x0a5f for Zebra); serialNumber picks one of several. */
  vendorId?: number;
  productId?: number;
  serialNumber?: string;
  /** OS-queue printers: the CUPS (or Windows) queue name. */
  queue?: string;
  /** Print head resolution; labels are checked against it before printing. Default 203. */
  dpi?: PrinterDpi;
}

/** A host name or an IPv4/IPv6 address, as site IT types it (no scheme, no port, no path). */
export const printerHostSchema = z
  .string()
  .trim()
  .min(1, 'is empty')
  .max(253)
  .regex(
    /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[?[0-9A-Fa-f:.]+\]?)$/,
    'must be a host name or an IP address such as 10.1.4.20 (no http://, no port)',
  )
  .superRefine((host, ctx) => {
    // Digits and dots with a slip ("10.1.4.2o", "10.1.4.300", "10.1.4") pass as a host name
    // and fail only at the first print: said here, as the address site IT meant to type.
    const labels = host.split('.');
    const numeric = labels.filter((l) => /^\d+$/.test(l)).length;
    if (!/^\d/.test(host) || numeric < labels.length - 1 || numeric < 2) return;
    const ipv4 = labels.length === 4 && numeric === 4 && labels.every((l) => Number(l) <= 255);
    if (!ipv4)
      ctx.addIssue({
        code: 'custom',
        message: `"${host}" is not an IP address: four numbers from 0 to 255 with dots, such as 10.1.4.20`,
      });
  });

export const printerPortSchema = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be between 1 and 65535')
  .max(65535, 'must be between 1 and 65535');

export const printerDpiSchema = z.union([z.literal(203), z.literal(300), z.literal(600)], {
  error: 'must be 203, 300 or 600',
});

/** "receipt"; "slip" is how profile files written before the Settings form spelled it. */
export const printerRoleSchema = z
  .enum(['label', 'receipt', 'slip'], { error: 'must be "label" or "receipt"' })
  .transform((r): PrinterRole => (r === 'slip' ? 'receipt' : r));

/**
 * The view's printer before the shapes were one carried `address` ("host:port", a queue name,
 * "usb:vid:pid[:serial]") and kinds "os-queue" / "virtual". Both are still read, onto the one
 * shape, so a caller written against that contract keeps working; `address` is never stored.
 */
function fromAddressShape(input: unknown): unknown {
  if (!input || typeof input !== 'object') return input;
  const { address, ...p } = input as Record<string, unknown>;
  if (p.kind === 'virtual') p.kind = 'network';
  if (p.kind === 'os-queue') p.kind = 'os';
  if (typeof address !== 'string' || !address) return p;
  if (p.kind === 'network' && p.host === undefined) {
    const m = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(address.trim());
    if (m) {
      p.host = m[1];
      if (m[2] && p.port === undefined) p.port = Number(m[2]);
    }
  } else if (p.kind === 'os' && p.queue === undefined) {
    p.queue = address.replace(/^queue\s+/, '');
  } else if (p.kind === 'usb' && p.vendorId === undefined) {
    const [, vendor, product, serial] = address.split(':');
    if (vendor) p.vendorId = parseInt(vendor, 16);
    if (product && p.productId === undefined) p.productId = parseInt(product, 16);
    if (serial && p.serialNumber === undefined) p.serialNumber = serial;
  }
  return p;
}

const printerObject = z
  .object({
    id: z.string().min(1).max(200),
    name: z.string().trim().min(1, 'is empty').max(100),
    kind: z.enum(['network', 'usb', 'os']),
    role: printerRoleSchema.optional(),
    host: printerHostSchema.optional(),
    port: printerPortSchema.optional(),
    vendorId: z.number().int().optional(),
    productId: z.number().int().optional(),
    serialNumber: z.string().max(200).optional(),
    queue: z.string().min(1).max(300).optional(),
    dpi: printerDpiSchema.optional(),
  })
  .superRefine((p, ctx) => {
    if (p.kind === 'network' && !p.host)
      ctx.addIssue({
        code: 'custom',
        path: ['host'],
        message: 'is required for a network printer',
      });
    if (p.kind === 'os' && !p.queue)
      ctx.addIssue({ code: 'custom', path: ['queue'], message: 'is required for a print queue' });
  });

export const printerSchema = z.preprocess(fromAddressShape, printerObject) satisfies z.ZodType<
  PrinterConfig,
  unknown
>;

/** A printer as the screens get it: the one shape, with role, DPI and where it is filled in. */
export type PrinterView = PrinterConfig & {
  role: PrinterRole;
  dpi: PrinterDpi;
  /** In words, for display only ("10.1.4.20:9100"); never read back. */
  address: string;
};

/** What "Add printer by address" in Settings sends. */
export const networkPrinterInputSchema = z.object({
  name: z.string().trim().min(1, 'is empty').max(100),
  host: printerHostSchema,
  port: printerPortSchema.default(9100),
  dpi: printerDpiSchema.default(203),
  role: printerRoleSchema.default('label'),
});

/** Where a printer is, in words: "10.1.4.20:9100", "queue zebra1", "USB 0a5f:0166". */
export function printerAddress(p: PrinterConfig): string {
  switch (p.kind) {
    case 'network':
      return `${p.host ?? '?'}:${p.port ?? 9100}`;
    case 'os':
      return `queue ${p.queue ?? '?'}`;
    case 'usb':
      return `USB ${(p.vendorId ?? 0).toString(16).padStart(4, '0')}:${(p.productId ?? 0).toString(16).padStart(4, '0')}${p.serialNumber ? ` ${p.serialNumber}` : ''}`;
    default: {
      const never: never = p.kind;
      return String(never);
    }
  }
}

/** "label" or "receipt", filled in: what the view always shows. */
export const roleOf = (p: Pick<PrinterConfig, 'role'>): PrinterRole => p.role ?? 'label';

/**
 * A printer's state in a few words, short enough for the header ("ZD421: not answering") and
 * "Bought — waiting for ZD421 (out of paper)". The full sentence, with the printer's address,
 * is the tooltip and the Queue's.
 */
export const printerStateWords: Record<PrinterState, string> = {
  ready: 'ready',
  'paper-out': 'out of paper',
  'ribbon-out': 'out of ribbon',
  'head-open': 'head open',
  paused: 'paused',
  'buffer-full': 'buffer full',
  offline: 'not answering',
  unknown: 'status unknown',
};
