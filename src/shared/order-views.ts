/**
 * Views of orders as they are imported and scanned. Plain, serialisable, re-exported by views.ts.
 */
import type { LabelSummary } from './label-views.js';
import type { Address } from './profile-views.js';
import type { VerificationView } from './floor-views.js';

export interface OrderItemView {
  sku: string;
  name: string;
  quantity: number;
}

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
}

export interface BoxPreset {
  id: string;
  name: string;
  /** A barcode on the box station; scanning it selects the box. */
  code: string;
  lengthIn: number;
  widthIn: number;
  heightIn: number;
}

export type ScanResult =
  | {
      kind: 'order';
      order: OrderView;
      existingLabels: LabelSummary[];
      /** What was scanned into the box so far (issue 15.1). */
      verification: VerificationView;
    }
  | { kind: 'label'; label: LabelSummary }
  | { kind: 'box'; box: BoxPreset }
  | { kind: 'not-found'; value: string };

export interface ImportReport {
  imported: number;
  skipped: number;
  /** The first problems (500 at most), in file order. */
  errors: ImportError[];
  /** Every problem found, including those beyond `errors`. */
  errorCount: number;
}

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
