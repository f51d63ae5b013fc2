import { CharacterSet, PrinterTypes, ThermalPrinter } from 'node-thermal-printer';
import { stripControlCharacters } from '../orders/control-characters.js';

export interface PackingSlipItem {
  sku: string;
  name: string;
  quantity: number;
}

export interface PackingSlip {
  orderNumber: string;
  brand?: string;
  shipTo?: { name?: string; city?: string; state?: string; postalCode?: string };
  items: PackingSlipItem[];
  trackingNumber?: string;
  packedBy?: string;
  packedAt?: Date;
  /** A line at the bottom: returns address, thank-you. */
  footer?: string;
}

export interface SlipFormat {
  /** ESC/POS dialect of the receipt printer. */
  type?: 'epson' | 'star';
  /** Characters per line: 48 on 80 mm paper, 32 on 58 mm. */
  width?: number;
}

/**
 * A packing slip as ESC/POS bytes, laid out with node-thermal-printer's formatting API. Only the
 * bytes are made here; they go to the receipt printer through the print spool (kind 'slip'),
 * like labels, so a slip is also printed exactly once and survives a restart.
 */
/**
 * node-thermal-printer's formatting API for a receipt that only makes bytes: they go to the
 * receipt printer through the print spool (kind 'slip'), never through execute().
 */
export function receiptLayout(format: SlipFormat, what: string): ThermalPrinter {
  return new ThermalPrinter({
    type: format.type === 'star' ? PrinterTypes.STAR : PrinterTypes.EPSON,
    // node-thermal-printer wants somewhere to send; we only take its buffer.
    interface: {
      execute: async () => {
        throw new Error(`${what} are sent through the print spool`);
      },
      isPrinterConnected: async () => false,
    } as unknown as string,
    width: format.width ?? 48,
    characterSet: CharacterSet.PC437_USA,
    removeSpecialCharacters: true,
  });
}

export function renderPackingSlip(input: PackingSlip, format: SlipFormat = {}): Buffer {
  // Cleaned again here, whatever the import did: a receipt printer obeys ESC/POS bytes
  // anywhere in a line (ESC p kicks the cash drawer, GS V cuts), and this text comes from orders.
  const slip = cleanSlip(input);
  const printer = receiptLayout(format, 'packing slips');

  printer.alignCenter();
  if (slip.brand) {
    printer.bold(true);
    printer.println(slip.brand);
    printer.bold(false);
  }
  printer.setTextDoubleHeight();
  printer.println('PACKING SLIP');
  printer.setTextNormal();
  printer.println(`Order ${slip.orderNumber}`);
  // The two dialects read different settings (and the bundled typings describe only Star's):
  // Epson: GS H 2 = human-readable text below, GS w 3 = module width, GS h = height in dots.
  const barcode =
    format.type === 'star'
      ? { width: 'MEDIUM', height: 60, text: 2 }
      : { hriPos: 2, hriFont: 0, width: 3, height: 80 };
  printer.code128(slip.orderNumber, barcode as Parameters<ThermalPrinter['code128']>[1]);
  printer.newLine();

  printer.alignLeft();
  if (slip.shipTo) {
    const to = slip.shipTo;
    const place = [to.city, [to.state, to.postalCode].filter(Boolean).join(' ')]
      .filter(Boolean)
      .join(', ');
    if (to.name) printer.println(`Ship to: ${to.name}`);
    if (place) printer.println(`         ${place}`);
  }
  printer.drawLine();
  printer.tableCustom([
    { text: 'Qty', align: 'LEFT', width: 0.12, bold: true },
    { text: 'Item', align: 'LEFT', width: 0.58, bold: true },
    { text: 'SKU', align: 'RIGHT', width: 0.28, bold: true },
  ]);
  for (const item of slip.items) {
    printer.tableCustom([
      { text: String(item.quantity), align: 'LEFT', width: 0.12 },
      { text: item.name, align: 'LEFT', width: 0.58 },
      { text: item.sku, align: 'RIGHT', width: 0.28 },
    ]);
  }
  printer.drawLine();
  const units = slip.items.reduce((n, i) => n + i.quantity, 0);
  printer.leftRight(
    `${slip.items.length} line${slip.items.length === 1 ? '' : 's'}`,
    `${units} item${units === 1 ? '' : 's'}`,
  );
  if (slip.trackingNumber) printer.println(`Tracking: ${slip.trackingNumber}`);
  if (slip.packedBy || slip.packedAt) {
    const when = slip.packedAt ? slip.packedAt.toISOString().slice(0, 16).replace('T', ' ') : '';
    printer.println(
      `Packed ${[slip.packedBy && `by ${slip.packedBy}`, when].filter(Boolean).join(' ')}`,
    );
  }
  if (slip.footer) {
    printer.newLine();
    printer.alignCenter();
    printer.println(slip.footer);
  }
  printer.cut();
  return printer.getBuffer();
}

function cleanSlip(slip: PackingSlip): PackingSlip {
  const t = stripControlCharacters;
  const opt = (v: string | undefined) => (v === undefined ? undefined : t(v));
  return {
    ...slip,
    orderNumber: t(slip.orderNumber),
    ...(slip.brand !== undefined ? { brand: t(slip.brand) } : {}),
    ...(slip.shipTo
      ? {
          shipTo: Object.fromEntries(
            Object.entries(slip.shipTo).map(([k, v]) => [k, opt(v)]),
          ) as PackingSlip['shipTo'],
        }
      : {}),
    items: slip.items.map((i) => ({ ...i, sku: t(i.sku), name: t(i.name) })),
    ...(slip.trackingNumber !== undefined ? { trackingNumber: t(slip.trackingNumber) } : {}),
    ...(slip.packedBy !== undefined ? { packedBy: t(slip.packedBy) } : {}),
    ...(slip.footer !== undefined ? { footer: t(slip.footer) } : {}),
  };
}
