/** These view types moved to their features' modules (src/shared/features); this file keeps old imports working. */
export type { RateView, AccountIssue, RateQuote, PurchaseView } from './features/packing.js';
export type { AttentionKind, AttentionItem, AttentionAction } from './features/records.js';
