import type { StationError } from '../../../shared/result';
import type {
  BoxPreset,
  LabelSummary,
  OrderView,
  PurchaseView,
  RateQuote,
  ShipOptionsView,
  VerificationView,
} from '../../../shared/views';
import { call } from '../bridge';
import { playCounted, playFailure, playSuccess, playWrongItem } from '../lib/sounds';
import type { Slice } from './types';
import {
  isVerifying,
  matchesLine,
  MAX_QUANTITY_KEY,
  parseWeight,
  pickedRate,
  quantityScan,
} from './pack-rules';

export type PackResult =
  | { kind: 'success'; purchase: PurchaseView }
  | { kind: 'failure'; error: StationError }
  | { kind: 'info'; text: string };

/** One parcel of the order as packed: its own weight (as typed) and box. */
export interface PackedEntry {
  weight: string;
  box: BoxPreset | null;
}

export interface PackSlice {
  order: OrderView | null;
  existingLabels: LabelSummary[];
  scannedLabel: LabelSummary | null;
  /** One entry per package of the order. */
  packages: PackedEntry[];
  /** Signature, Saturday, handling, messages, incoterm: the order's, as the packer left them. */
  shipOptions: ShipOptionsView | null;
  /** The package the scale and a scanned box go to (the weight field last focused). */
  activePackage: number;
  quote: RateQuote | null;
  /** The highlighted rate: the rule's choice until the packer picks another. */
  selectedRateId: string | null;
  busy: 'scan' | 'rate' | 'buy' | null;
  result: PackResult | null;
  confirmAnother: boolean;
  /** The buy key was pressed while rating: buy as soon as the rates are in. */
  buyPending: boolean;
  /** What was scanned into the box (issue 15.1). */
  verification: VerificationView | null;
  /** The last item scan: a red line for a wrong item or one too many. */
  verifyAlert: {
    kind: 'counted' | 'wrong-item' | 'too-many';
    text: string;
    lineKey: string | null;
  } | null;
  scan(value: string): Promise<void>;
  verifyItem(value: string, quantity: number): Promise<void>;
  overrideVerification(by: string, reason: string): Promise<boolean>;
  setWeight(index: number, weight: string): void;
  setBox(index: number, box: BoxPreset | null): void;
  setActivePackage(index: number): void;
  setShipOptions(patch: Partial<ShipOptionsView>): void;
  rate(): Promise<void>;
  moveSelection(delta: number): void;
  selectRate(id: string): void;
  buy(): Promise<void>;
  allowAnother(): void;
  clearPack(): void;
}

const cleared = {
  order: null,
  existingLabels: [],
  scannedLabel: null,
  packages: [],
  shipOptions: null,
  activePackage: 0,
  quote: null,
  selectedRateId: null,
  result: null,
  confirmAnother: false,
  buyPending: false,
  verification: null,
  verifyAlert: null,
} satisfies Partial<PackSlice>;

export const createPackSlice: Slice<PackSlice> = (set, get) => {
  let rating: Promise<void> | null = null;
  let again = false;
  const fail = (error: StationError) => {
    playFailure(get().settings?.sounds ?? true);
    set({ result: { kind: 'failure', error }, buyPending: false });
  };

  async function rateOnce() {
    const { order, packages, confirmAnother, existingLabels, shipOptions } = get();
    if (!order || !packages.length || (existingLabels.length && !confirmAnother)) {
      set({ buyPending: false });
      return;
    }
    const weights = packages.map((p) => parseWeight(p.weight));
    const bad = weights.indexOf('bad');
    if (bad >= 0) {
      fail({
        code: 'validation',
        message: `Package ${bad + 1} of ${packages.length}: "${packages[bad]!.weight}" is not a weight in pounds.`,
      });
      return;
    }
    set({ busy: 'rate', quote: null, selectedRateId: null, result: null });
    const r = await call('pack.rate', {
      orderId: order.id,
      packages: packages.map((p, i) => ({
        weightLbs: weights[i] as number | null,
        boxId: p.box?.id ?? null,
      })),
      confirmAnother,
      options: shipOptions,
    });
    set({ busy: null });
    // Asked again meanwhile, another order scanned, or a weight, box or option changed: not these rates.
    const now = get();
    if (again) return;
    if (
      now.order?.id !== order.id ||
      now.packages !== packages ||
      now.shipOptions !== shipOptions
    ) {
      // Nothing rates the changed packages by itself: a buy key pressed earlier is dropped.
      set({ buyPending: false });
      return;
    }
    if (!r.ok) {
      fail(r.error);
      return;
    }
    set({ quote: r.value, selectedRateId: r.value.chosenRateId });
    if (r.value.queued) {
      // The platform is away: the shipment already waits in the offline queue.
      set({
        buyPending: false,
        result: {
          kind: 'success',
          purchase: {
            outcome: 'queued-offline',
            label: null,
            printJob: null,
            message: r.value.reason,
          },
        },
      });
      void get().refreshStatus();
      return;
    }
    if (get().buyPending) {
      set({ buyPending: false });
      await get().buy();
    }
  }

  return {
    ...cleared,
    busy: null,

    async scan(value) {
      const code = value.trim();
      if (!code) return;
      // An order on screen whose items are being verified: an item scan counts against it.
      const { order, verification, existingLabels } = get();
      const verifying = !!order && !!verification?.lines.length && !existingLabels.length;
      const qty = quantityScan(code);
      if (verifying && qty && (qty.quantity < 1 || qty.quantity > MAX_QUANTITY_KEY)) {
        // Not an item: counting it (or calling it a wrong item) would tell the packer to
        // take a right item out of the box.
        fail({
          code: 'validation',
          message: `A quantity key counts 1 to ${MAX_QUANTITY_KEY} items (${qty.quantity}* was typed); nothing was counted. Scan the item again.`,
        });
        return;
      }
      const isBox = (v: string) =>
        (get().settings?.boxes ?? []).some((b) => b.code.toLowerCase() === v.toLowerCase());
      if (verifying && (qty || matchesLine(verification.lines, code)) && !isBox(code)) {
        await get().verifyItem(qty?.value ?? code, qty?.quantity ?? 1);
        return;
      }
      set({ busy: 'scan', buyPending: false, reprintWarnings: null });
      const r = await call('pack.scan', { value: code });
      set({ busy: null });
      if (!r.ok) {
        fail(r.error);
        return;
      }
      const found = r.value;
      // Nothing else either: a wrong item for the order in the box (recorded, red line, sound),
      // once verifying is under way (required by the profile, or items already scanned).
      if (
        found.kind === 'not-found' &&
        verifying &&
        isVerifying(get()) &&
        get().order?.id === order.id
      ) {
        await get().verifyItem(code, 1);
        return;
      }
      switch (found.kind) {
        case 'box': {
          const { order, activePackage } = get();
          if (!order) {
            set({ result: { kind: 'info', text: `Box ${found.box.name}: scan an order first.` } });
            return;
          }
          get().setBox(activePackage, found.box);
          await get().rate();
          return;
        }
        case 'order': {
          const boxes = get().settings?.boxes ?? [];
          set({
            ...cleared,
            buyPending: get().buyPending,
            order: found.order,
            shipOptions: found.order.options ?? null,
            existingLabels: found.existingLabels,
            verification: found.verification,
            // What the order file says, on screen for each package: the packer checks or
            // replaces it; nothing is filled in behind their back.
            packages: found.order.packages.map((p) => ({
              weight: p.weightLbs === null ? '' : String(p.weightLbs),
              box: boxes.find((b) => b.code === p.box) ?? null,
            })),
            result: found.existingLabels.length
              ? {
                  kind: 'info',
                  text: `Order ${found.order.orderNumber} already has a label (${found.existingLabels[0]!.trackingNumber}). Reprint it from the panel, or press Ctrl+Shift+A to buy another.`,
                }
              : null,
          });
          if (!found.existingLabels.length && get().settings?.scale.enabled) {
            const w = await call('pack.readScale', {});
            if (w.ok && w.value.weightLbs !== null) get().setWeight(0, String(w.value.weightLbs));
          }
          const weighed = get().packages.every((p) => p.weight.trim() !== '');
          if (!found.existingLabels.length && weighed) await get().rate();
          // Nothing to rate (already labelled, not weighed yet): a buy key pressed early is dropped.
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
    },

    // A changed weight or box makes the rates on screen wrong: they go, and the next Enter or
    // Ctrl+Enter rates again (buying never uses rates of another weight).
    setWeight: (index, weight) =>
      set({
        packages: get().packages.map((p, i) => (i === index ? { ...p, weight } : p)),
        ...(get().quote ? { quote: null, selectedRateId: null } : {}),
      }),
    setBox: (index, box) =>
      set({
        packages: get().packages.map((p, i) => (i === index ? { ...p, box } : p)),
        ...(get().quote ? { quote: null, selectedRateId: null } : {}),
      }),
    setActivePackage: (index) => set({ activePackage: index }),
    // An option changes the price (and, for Saturday, the services): the rates on screen go.
    setShipOptions: (patch) => {
      const current = get().shipOptions;
      if (!current) return;
      set({
        shipOptions: { ...current, ...patch },
        ...(get().quote ? { quote: null, selectedRateId: null } : {}),
        // A refusal (no incoterm) may no longer hold: the next rating says.
        ...(get().result?.kind === 'failure' ? { result: null } : {}),
      });
    },

    // One rating at a time. A box scanned (or a weight read) while the order is still being
    // rated rates again once that answer is in, with what is on screen then; an answer for
    // packages that have since changed is dropped, never shown or bought.
    async rate() {
      if (rating) {
        again = true;
        return rating;
      }
      rating = (async () => {
        do {
          again = false;
          await rateOnce();
        } while (again && get().order);
      })().finally(() => {
        rating = null;
      });
      return rating;
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

    selectRate(id) {
      if (get().quote?.rates.some((r) => r.id === id)) set({ selectedRateId: id });
    },

    async buy() {
      const { quote, busy, confirmAnother, selectedRateId } = get();
      if (busy === 'rate' || busy === 'scan') {
        // Scan, Enter, Ctrl+Enter in one go: buy as soon as the order is rated.
        set({ buyPending: true });
        return;
      }
      if (busy) return;
      if (!quote) {
        // Weighed (or re-weighed) but not rated yet: rate, then buy as the rates come in.
        if (!get().order) return;
        set({ buyPending: true });
        await get().rate();
        return;
      }
      if (quote.queued) return;
      set({ busy: 'buy' });
      // The shipment that was rated, at the highlighted rate: no second rating.
      const picked = pickedRate(quote, selectedRateId);
      const r = await call('pack.buy', {
        shipmentId: quote.shipmentId,
        rate: picked
          ? { carrierAccountId: picked.carrierAccountId, serviceLevel: picked.serviceLevel }
          : null,
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

    async verifyItem(value, quantity) {
      const { order } = get();
      if (!order) return;
      const r = await call('verify.scan', { orderId: order.id, value, quantity });
      if (get().order?.id !== order.id) return;
      const sounds = get().settings?.sounds ?? true;
      if (!r.ok) {
        fail(r.error);
        return;
      }
      const v = r.value;
      if (v.outcome === 'counted') {
        if (v.verification.complete) playSuccess(sounds);
        else playCounted(sounds);
      } else playWrongItem(sounds);
      set({
        verification: v.verification,
        verifyAlert: { kind: v.outcome, text: v.message, lineKey: v.lineKey },
        // A refusal shown earlier ("not verified") is out of date once items are scanned.
        ...(get().result?.kind === 'failure' ? { result: null } : {}),
      });
    },

    async overrideVerification(by, reason) {
      const { order } = get();
      if (!order) return false;
      const r = await call('verify.override', { orderId: order.id, by, reason });
      if (!r.ok) {
        get().notify('error', r.error.message);
        return false;
      }
      set({
        verification: r.value,
        verifyAlert: {
          kind: 'counted',
          text: `Verification overridden by ${by}: ${reason}`,
          lineKey: null,
        },
      });
      return true;
    },

    allowAnother() {
      if (!get().order) return;
      set({ confirmAnother: true, result: null });
      void get().rate();
    },

    clearPack: () => set({ ...cleared }),
  };
};
