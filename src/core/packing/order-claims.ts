import type { LabelSummary } from '../../shared/features/records.js';

/**
 * The port the label purchase asks before POST /api/v1/labels (see LabelPurchaser): may this
 * station buy for this order? The site store implements it (src/core/site/link.ts); packing
 * only knows this shape, so it never imports the site module.
 */
export interface OrderClaims {
  claim(request: {
    tenantId: string;
    orderNumber: string;
    purchaseId: string;
    packer: string | null;
    confirmed: boolean;
  }): Promise<ClaimResult>;
}

export type ClaimResult =
  | { granted: true; mode: 'claimed' | 'offline' }
  | {
      granted: false;
      code: 'order-claimed-elsewhere' | 'site-store-unreachable' | 'order-cancelled';
      message: string;
      holder?: ClaimHolder;
    };

/** The station holding an order's claim, and the label it bought for it (when it is known). */
export interface ClaimHolder {
  stationId: string;
  stationName: string;
  packer: string | null;
  at: string;
  /**
   * The holder's label for the order, as the site store has it (its id at that station): what
   * a packer here reprints instead of buying. Null while the purchase is in flight, or before
   * the holder's label has reached the store.
   */
  label?: {
    localId: number;
    trackingNumber: string;
    /** Marked voided at the carrier at that station (absent or null: not, or not known). */
    voided?: LabelSummary['voided'];
  } | null;
}
