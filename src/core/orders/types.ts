import type { Address } from '../../shared/features/profiles.js';
/** Where a package goes (or comes from): defined once, with the views. */
export type { Address } from '../../shared/features/profiles.js';

export interface OrderItem {
  sku: string;
  name: string;
  quantity: number;
  /** Declared value of one unit, in cents. */
  valueCents?: number | undefined;
  weightLbs?: number | undefined;
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
  packages: OrderPackage[];
  source: string;
  importedAt: string;
  updatedAt: string;
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

export interface ImportReport {
  source: string;
  imported: string[];
  updated: string[];
  /** Orders left as they were because a label was already bought for them. */
  unchanged: string[];
  /** The first problems (MAX_REPORTED_PROBLEMS by default), in file order. */
  problems: ImportProblem[];
  /** Fields whose control characters were removed; the orders were imported all the same. */
  cleaned?: ImportProblem[];
  /** Every problem found, including those beyond the list. */
  problemCount: number;
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
  constructor(readonly max: number = MAX_REPORTED_PROBLEMS) {}

  add(problem: ImportProblem): void {
    this.count++;
    if (this.first.length < this.max) this.first.push(problem);
  }

  addAll(problems: Iterable<ImportProblem>): void {
    for (const p of problems) this.add(p);
  }
}
