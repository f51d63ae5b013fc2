import type { StationError } from '../../../shared/result';
import type {
  BoxPreset,
  LabelledElsewhereView,
  LabelSummary,
  OrderView,
  PurchaseView,
  ShipOptionsView,
  VerificationView,
} from '../../../shared/views';
import { call } from '../bridge';
import { playCounted, playFailure, playSuccess, playWrongItem } from '../lib/sounds';
import type { PackRatesSlice } from './pack-rates';
import type { Slice } from './types';
import {
  isVerifying,
  labelledScanWords,
  matchesLine,
  MAX_QUANTITY_KEY,
  quantityScan,
  stillOnScreen,
} from './pack-rules';
import { reprintSaid } from './lists';
import { keptOver, type KeptPacking } from './pack-changed';

export type PackResult =
  | { kind: 'success'; purchase: PurchaseView }
  /** `action`: what failed when it was not the scan or the label (a reprint here). */
  | { kind: 'failure'; error: StationError; action?: 'reprint' }
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
  /**
   * The order on screen was labelled at another station of the site (the buy was refused):
   * that station and its label, which Alt+R reprints here.
   */
  labelledElsewhere: LabelledElsewhereView | null;
  /** One entry per package of the order. */
  packages: PackedEntry[];
  /** Signature, Saturday, handling, messages, incoterm: the order's, as the packer left them. */
  shipOptions: ShipOptionsView | null;
  /** The package the scale and a scanned box go to (the weight field last focused). */
  activePackage: number;
  busy: 'scan' | 'rate' | 'buy' | null;
  result: PackResult | null;
  /** What was scanned into the box (issue 15.1). */
  verification: VerificationView | null;
  /** The last item scan: a red line for a wrong item or one too many. */
  verifyAlert: {
    kind: 'counted' | 'wrong-item' | 'too-many';
    text: string;
    lineKey: string | null;
  } | null;
  /** `orderId`: opened from Orders, that order (a scan of its number may match two brands'). */
  scan(value: string, orderId?: string, keep?: KeptPacking): Promise<void>;
  verifyItem(value: string, quantity: number): Promise<void>;
  overrideVerification(by: string, reason: string): Promise<boolean>;
  /** Reprints the label bought at another station on this station's label printer. */
  reprintHere(reason: string): Promise<boolean>;
  /**
   * `byHand`: typed by the packer (not the scale's reading, not the order file's): the next buy
   * key rates and shows the rates first, so a mistyped weight is seen before money is spent.
   */
  setWeight(index: number, weight: string, byHand?: boolean): void;
  /**
   * The next buy key rates and shows the rule's choice first instead of buying unseen, and why:
   * `weight`, a weight typed by hand since the last rating (see `setWeight`: 150 typed for 1.50
   * would buy freight); `refused`, a rating or a buy of the order on screen failed (a carrier
   * connection that lapsed, customs missing, an address refused: the rule's choice may now be
   * another carrier or price). A rating clears it; a new scan starts without it.
   */
  showFirst: 'weight' | 'refused' | null;
  setBox(index: number, box: BoxPreset | null): void;
  setActivePackage(index: number): void;
  setShipOptions(patch: Partial<ShipOptionsView>): void;
  /**
   * Labels the station just stored (`labels-changed`): the order on screen, QUEUED for the
   * platform, bought by the offline queue turns into its label, with its Reprint.
   */
  labelsStored(labels: readonly LabelSummary[]): void;
  clearPack(): void;
}

const cleared = {
  order: null,
  existingLabels: [],
  scannedLabel: null,
  labelledElsewhere: null,
  packages: [],
  shipOptions: null,
  activePackage: 0,
  quote: null,
  selectedRateId: null,
  result: null,
  confirmAnother: false,
  buyPending: false,
  showFirst: null,
  verification: null,
  verifyAlert: null,
} satisfies Partial<PackSlice & PackRatesSlice>;

/**
 * A refusal on the Pack view: the failure sound and the reason; a buy key pressed early is
 * dropped.
 */
export const packFailure =
  (set: Parameters<Slice<PackSlice>>[0], get: Parameters<Slice<PackSlice>>[1]) =>
  (error: StationError) => {
    playFailure(get().settings?.sounds ?? true);
    set({ result: { kind: 'failure', error }, buyPending: false });
  };

export const createPackSlice: Slice<PackSlice> = (set, get) => {
  const fail = packFailure(set, get);

  return {
    ...cleared,
    busy: null,

    async scan(value, orderId, keep) {
      const code = value.trim();
      if (!code) {
        // Enter on an empty scan field, an order on screen and no rates: rate it (what the
        // Rates panel's "Press Enter" says). Never a buy.
        const st = get();
        if (st.order && !st.quote && !st.busy) await st.rate();
        return;
      }
      // An order on screen whose items are being verified: an item scan counts against it.
      const { order, verification, existingLabels } = get();
      // An order opened from Orders is that order, never an item of the one on screen.
      const verifying =
        !orderId && !!order && !!verification?.lines.length && !existingLabels.length;
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
      const r = await call('pack.scan', orderId ? { value: code, orderId } : { value: code });
      set({ busy: null });
      if (!r.ok) {
        // A scan that failed is not about the order on screen any more: its "labelled at
        // another station" and that label's Reprint here go, so they are not taken for the
        // scanned one's.
        set({ labelledElsewhere: null });
        const kept = get().order;
        fail(kept ? { ...r.error, message: `${r.error.message}${stillOnScreen(kept)}` } : r.error);
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
          // Labelled here, or at another station, or voided here and labelled again there.
          const labelled = labelledScanWords(
            found.order.orderNumber,
            found.existingLabels,
            found.labelledElsewhere ?? null,
            get().status?.site?.state === 'unreachable',
          );
          const kept = keptOver(keep, found.order);
          set({
            ...cleared,
            buyPending: get().buyPending,
            order: found.order,
            shipOptions: kept ? kept.shipOptions : (found.order.options ?? null),
            existingLabels: found.existingLabels,
            // Labelled at another station of the site: nothing to rate; its label reprints here.
            labelledElsewhere: found.labelledElsewhere ?? null,
            verification: found.verification,
            // What the order file says, on screen for each package: the packer checks or
            // replaces it; nothing is filled in behind their back.
            packages:
              kept?.packages ??
              found.order.packages.map((p) => ({
                weight: p.weightLbs === null ? '' : String(p.weightLbs),
                box: boxes.find((b) => b.code === p.box) ?? null,
              })),
            result: labelled ? { kind: 'info', text: labelled } : null,
          });
          if (!kept && !found.existingLabels.length && get().settings?.scale.enabled) {
            const w = await call('pack.readScale', {});
            if (w.ok && w.value.weightLbs !== null) get().setWeight(0, String(w.value.weightLbs));
          }
          const weighed = get().packages.every((p) => p.weight.trim() !== '');
          if (!found.existingLabels.length && !found.labelledElsewhere && weighed)
            await get().rate();
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
        case 'not-found': {
          // An order with items on screen: say that it is not one of them either (an item
          // scanned before any right one is most likely the wrong product in the box).
          const onScreen = get().order;
          const items =
            verifying && onScreen
              ? `, a box, or an item of order ${onScreen.orderNumber}`
              : ' or a box';
          // The site store could not be asked: nothing matched here, which is not the same as
          // no such order (another station may have imported it), and the packer is told so.
          const away = found.siteStoreAway;
          const message = `Nothing matches "${found.value}"${away ? ' at this station' : ''}: not an order, a tracking number${items}.${verifying && onScreen ? ' If it is in the box, take it out.' : ''}${away ? ` ${away}` : ''}${onScreen && !verifying ? stillOnScreen(onScreen) : ''}`;
          // A label just bought stays on screen with its Reprint: a stray scan is said beside
          // it (red, with the failure sound), not instead of it.
          if (onScreen && get().result?.kind === 'success') {
            playFailure(get().settings?.sounds ?? true);
            get().notify('error', message);
            return;
          }
          // No order on screen: nothing of an earlier one (its label, its Reprint) stays.
          if (!onScreen) set({ scannedLabel: null, existingLabels: [], labelledElsewhere: null });
          fail({ code: 'not-found', message });
          return;
        }
        default: {
          const never: never = found;
          return never;
        }
      }
    },

    // A changed weight or box makes the rates on screen wrong: they go, and the next Enter or
    // Ctrl+Enter rates again (buying never uses rates of another weight).
    setWeight: (index, weight, byHand = false) =>
      set({
        packages: get().packages.map((p, i) => (i === index ? { ...p, weight } : p)),
        ...(get().quote ? { quote: null, selectedRateId: null } : {}),
        ...(byHand ? { showFirst: 'weight' as const } : {}),
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

    // Through History's site-wide reprint (`site.reprint`): the same lookup, ZPL and audit.
    async reprintHere(reason) {
      const { labelledElsewhere: there, order } = get();
      if (!there?.label) return false;
      const r = await call('site.reprint', {
        stationId: there.stationId,
        labelId: there.label.labelId,
        reason,
      });
      if (!r.ok) {
        playFailure(get().settings?.sounds ?? true);
        set({ result: { kind: 'failure', error: r.error, action: 'reprint' } });
        return false;
      }
      // Said as History says it (reprintSaid).
      const where = reprintSaid(r.value, get().status?.printer ?? null);
      const of = order ? ` of order ${order.orderNumber}` : '';
      set({
        result: {
          kind: 'info',
          text: `Label${of} from ${there.stationName} (${there.label.trackingNumber}). ${where}`,
        },
      });
      return true;
    },

    labelsStored(labels) {
      const { order, result, busy } = get();
      if (!order || busy) return;
      // QUEUED (the offline queue bought it) or NOT CONFIRMED (a shift lead found the label on
      // the platform from Needs attention): the panel turns to the label, Buy no longer offered.
      const queued = result?.kind === 'success' && result.purchase.outcome === 'queued-offline';
      const unconfirmed =
        result?.kind === 'failure' && result.error.code === 'purchase-outcome-unknown';
      if (!queued && !unconfirmed) return;
      const label = labels.find((l) => l.orderNumber === order.orderNumber && !l.returnOfLabelId);
      if (!label) return;
      set({
        existingLabels: [label, ...get().existingLabels.filter((l) => l.id !== label.id)],
        quote: null,
        result: {
          kind: 'success',
          purchase: {
            outcome: 'printing',
            label,
            printJob: null,
            message: queued
              ? 'Bought by the offline queue when the platform answered; sent to the label printer.'
              : 'Found on the platform (Needs attention): this is the label that was bought; sent to the label printer.',
          },
        },
      });
    },

    clearPack: () => set({ ...cleared }),
  };
};
