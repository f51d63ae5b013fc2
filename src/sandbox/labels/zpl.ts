import { type Address } from '../fixtures.js';

/** 4x6 inches at 203 dpi. */
export const LABEL_WIDTH_DOTS = 812;
export const LABEL_LENGTH_DOTS = 1218;

export interface ZplLabelInput {
  shipFrom: Address;
  shipTo: Address;
  serviceName: string;
  /** The `<CARRIER>_<SERVICE>` code, printed under the name. */
  serviceLevel?: string;
  trackingNumber: string;
  weightLbs: number;
  packageIndex: number;
  packageCount: number;
  orderReference: string | null;
  createdAt: string;
  /** The shipment's customMessage1..3, printed above the footer. */
  messages?: string[] | undefined;
  /** Options and handling marks (SIGNATURE, HAZMAT, RETURN (LABEL)…), printed under the service. */
  marks?: string[] | undefined;
}

/** Field data may not contain the ZPL command prefixes; strip them and cap the length. */
function fd(text: string | undefined, max = 40): string {
  return (text ?? '').replace(/[\^~\r\n]/g, ' ').slice(0, max);
}

function addressLines(a: Address): string[] {
  const cityLine = [a.city, [a.stateProvince, a.postalCode].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return [
    a.name,
    a.company,
    a.addressLine1,
    a.addressLine2,
    a.addressLine3,
    cityLine,
    a.countryCode,
  ].filter((line): line is string => Boolean(line && line.trim()));
}

/** The scalable font's widest characters, as a share of its height (A0 is narrower on average). */
const A0_WIDTH = 0.6;

/**
 * Lines of an address at `size` dots, each made smaller where it would run past the label's
 * right edge (a long company or street name): the whole line printed, never cut off the label.
 */
function textBlock(x: number, y: number, size: number, lines: string[], gap: number): string[] {
  const room = LABEL_WIDTH_DOTS - x - 20;
  return lines.map((line, i) => {
    const text = fd(line, 60);
    const fit = Math.max(
      16,
      Math.min(size, Math.floor(room / (A0_WIDTH * Math.max(1, text.length)))),
    );
    return `^FO${x},${y + i * gap}^A0N,${fit},${fit}^FD${text}^FS`;
  });
}

/** One `^XA…^XZ` block: ship-from, ship-to, service, a Code 128 tracking barcode. */
export function zplForPackage(input: ZplLabelInput): string {
  const from = addressLines(input.shipFrom).slice(0, 6);
  const to = addressLines(input.shipTo).slice(0, 6);
  const lines = [
    '^XA',
    '^CI28',
    `^PW${LABEL_WIDTH_DOTS}`,
    `^LL${LABEL_LENGTH_DOTS}`,
    '^LH0,0',
    '^FO30,25^A0N,24,24^FDFROM^FS',
    ...textBlock(30, 55, 24, from, 28),
    '^FO20,230^GB772,3,3^FS',
    '^FO30,250^A0N,28,28^FDSHIP TO^FS',
    ...textBlock(60, 290, 40, to, 46),
    '^FO20,580^GB772,3,3^FS',
    `^FO30,592^A0N,50,50^FD${fd(input.serviceName, 28)}^FS`,
    ...(input.serviceLevel ? [`^FO30,648^A0N,22,22^FD${fd(input.serviceLevel, 48)}^FS`] : []),
    `^FO30,678^A0N,26,26^FDWT ${input.weightLbs} LB   PKG ${input.packageIndex}/${input.packageCount}   ${fd(input.createdAt.slice(0, 10))}^FS`,
    '^FO20,715^GB772,3,3^FS',
    `^FO30,735^A0N,28,28^FDTRACKING #^FS`,
    `^FO40,775^BY2,3,200^BCN,200,Y,N,N^FD${fd(input.trackingNumber)}^FS`,
    '^FO20,1050^GB772,3,3^FS',
    `^FO30,1070^A0N,26,26^FDREF ${fd(input.orderReference ?? '', 48)}^FS`,
    // Marks (SIGNATURE, HAZMAT, INCOTERM DAP, RETURN (LABEL)) and the custom messages, a line each.
    ...extraLines(input).map((text, i) => `^FO30,${1100 + i * 24}^A0N,22,22^FD${fd(text, 56)}^FS`),
    `^FO30,${1100 + extraLines(input).length * 24}^A0N,22,22^FDSANDBOX LABEL - NOT VALID FOR SHIPPING^FS`,
    '^XZ',
  ];
  return lines.join('\n');
}

/** At most 4 lines under the reference: the marks on one line, then up to three messages. */
function extraLines(input: ZplLabelInput): string[] {
  const lines = input.marks?.length ? [input.marks.join(' / ')] : [];
  return [...lines, ...(input.messages ?? [])].slice(0, 4);
}
