import type { StationError } from '../../../shared/result';
import type {
  BoxPreset,
  LabelSummary,
  OrderView,
  PurchaseView,
  RateQuote,
} from '../../../shared/views';
import { call } from '../bridge';
import { playFailure, playSuccess } from '../lib/sounds';
import type { Slice } from './types';

export type PackResult =
  | { kind: 'success'; purchase: PurchaseView }
  | { kind: 'failure'; error: StationError }
  | { kind: 'info'; text: string };

export interface PackSlice {
  order: OrderView | null;
  existingLabels: LabelSummary[];
  scannedLabel: LabelSummary | null;
  weight: string;
  box: BoxPreset | null;
  quote: RateQuote | null;
  selectedRateId: string | null;
  busy: 'scan' | 'rate' | 'buy' | null;
  result: PackResult | null;
  confirmAnother: boolean;
  /** The buy key was pressed while rating: buy as soon as the rates are in. */
  buyPending: boolean;
  scan(value: string): Promise<void>;
  setWeight(weight: string): void;
  setBox(box: BoxPreset | null): void;
  rate(): Promise<void>;
  moveSelection(delta: number): void;
  buy(): Promise<void>;
  allowAnother(): void;
  clearPack(): void;
}

const cleared = {
  order: null,
  existingLabels: [],
  scannedLabel: null,
  weight: '',
  box: null,
  quote: null,
  selectedRateId: null,
  result: null,
  confirmAnother: false,
  buyPending: false,
} satisfies Partial<PackSlice>;

export const createPackSlice: Slice<PackSlice> = (set, get) => ({
  ...cleared,
  busy: null,

  async scan(value) {
    const code = value.trim();
    if (!code) return;
    set({ busy: 'scan', buyPending: false });
    const r = await call('pack.scan', { value: code });
    set({ busy: null });
    if (!r.ok) {
      fail(r.error);
      return;
    }
    const found = r.value;
    switch (found.kind) {
      case 'box':
        set({ box: found.box });
        if (get().order) await get().rate();
        return;
      case 'order': {
        const packageWeight = found.order.packages.reduce((sum, p) => sum + (p.weightLbs ?? 0), 0);
        set({
          ...cleared,
          buyPending: get().buyPending,
          order: found.order,
          existingLabels: found.existingLabels,
          weight: packageWeight > 0 ? String(Math.round(packageWeight * 100) / 100) : '',
          result: found.existingLabels.length
            ? {
                kind: 'info',
                text: `Order ${found.order.orderNumber} already has a label (${found.existingLabels[0]!.trackingNumber}). Reprint it from the panel, or press Ctrl+Shift+A to buy another.`,
              }
            : null,
        });
        if (!found.existingLabels.length && get().settings?.scale.enabled) {
          const w = await call('pack.readScale', {});
          if (w.ok && w.value.weightLbs !== null) set({ weight: String(w.value.weightLbs) });
        }
        if (!found.existingLabels.length && get().weight) await get().rate();
        // Nothing to rate (already labelled, no weight yet): a buy key pressed early is dropped.
        else set({ buyPending: false });
        return;
      }
      case 'label':
        set({
          ...cleared,
          scannedLabel: found.label,
          result: {
            kind: 'info',
            text: `Tracking number ${found.label.trackingNumber} belongs to order ${found.label.orderNumber}.`,
          },
        });
        return;
      case 'not-found':
        fail({
          code: 'not-found',
          message: `Nothing matches "${found.value}": not an order, a tracking number or a box.`,
        });
        return;
      default: {
        const never: never = found;
        return never;
      }
    }

    function fail(error: StationError) {
      playFailure(get().settings?.sounds ?? true);
      set({ result: { kind: 'failure', error }, buyPending: false });
    }
  },

  setWeight: (weight) => set({ weight }),
  setBox: (box) => set({ box }),

  async rate() {
    const { order, weight, box, confirmAnother, existingLabels } = get();
    const lbs = Number(weight);
    if (!order || !(lbs > 0)) return;
    if (existingLabels.length && !confirmAnother) return;
    set({ busy: 'rate', quote: null, selectedRateId: null, result: null });
    const r = await call('pack.rate', {
      orderId: order.id,
      weightLbs: lbs,
      boxId: box?.id ?? null,
      confirmAnother,
    });
    set({ busy: null });
    if (!r.ok) {
      playFailure(get().settings?.sounds ?? true);
      set({ result: { kind: 'failure', error: r.error }, buyPending: false });
      return;
    }
    set({ quote: r.value, selectedRateId: r.value.chosenRateId });
    if (get().buyPending) {
      set({ buyPending: false });
      await get().buy();
      return;
    }
    if (r.value.queued) {
      set({ result: { kind: 'info', text: r.value.reason } });
    }
  },

  moveSelection(delta) {
    const { quote, selectedRateId } = get();
    if (!quote?.rates.length) return;
    const i = Math.max(
      0,
      quote.rates.findIndex((x) => x.id === selectedRateId),
    );
    const next = quote.rates[(i + delta + quote.rates.length) % quote.rates.length]!;
    set({ selectedRateId: next.id });
  },

  async buy() {
    const { quote, busy, order, weight, box, confirmAnother } = get();
    if (busy === 'rate' || busy === 'scan') {
      // Scan, Enter, Ctrl+Enter in one go: buy as soon as the order is rated.
      set({ buyPending: true });
      return;
    }
    if (!quote || !order || busy) return;
    set({ busy: 'buy' });
    // The station buys the rate its rule picks (the core re-rates at purchase time).
    const r = await call('pack.buy', {
      orderId: order.id,
      weightLbs: Number(weight),
      boxId: box?.id ?? null,
      confirmAnother,
    });
    set({ busy: null });
    const sounds = get().settings?.sounds ?? true;
    if (r.ok) {
      playSuccess(sounds);
      set({ result: { kind: 'success', purchase: r.value }, quote: null });
    } else {
      playFailure(sounds);
      set({ result: { kind: 'failure', error: r.error } });
    }
    void get().refreshStatus();
  },

  allowAnother() {
    if (!get().order) return;
    set({ confirmAnother: true, result: null });
    void get().rate();
  },

  clearPack: () => set({ ...cleared }),
});
