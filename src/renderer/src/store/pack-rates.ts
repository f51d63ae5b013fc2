import type { RateQuote } from '../../../shared/views';
import type { Result } from '../../../shared/result';
import { call } from '../bridge';
import { playFailure, playSuccess } from '../lib/sounds';
import { packFailure } from './pack';
import { showChangedOrder } from './pack-changed';
import { awaitBoughtElsewhere, beingBoughtElsewhere, beingBoughtWords } from './pack-resume';
import {
  labelledElsewhereOf,
  labelledHereOf,
  labelledHereWords,
  parseWeight,
  pickedRate,
  typedWithUnit,
} from './pack-rules';
import type { Slice } from './types';

/** The Pack view's rates and purchase: rating what is on screen, the highlighted rate, buying. */
export interface PackRatesSlice {
  quote: RateQuote | null;
  /** The highlighted rate: the rule's choice until the packer picks another. */
  selectedRateId: string | null;
  confirmAnother: boolean;
  /** The buy key was pressed while rating: buy as soon as the rates are in. */
  buyPending: boolean;
  rate(): Promise<void>;
  moveSelection(delta: number): void;
  selectRate(id: string): void;
  buy(): Promise<void>;
  allowAnother(): void;
}

export const createPackRatesSlice: Slice<PackRatesSlice> = (set, get) => {
  let rating: Promise<void> | null = null;
  let again = false;
  const fail = packFailure(set, get);

  async function rateOnce() {
    const { order, confirmAnother, existingLabels, shipOptions, buyPending } = get();
    let { packages } = get();
    // The packer asked to buy (Ctrl+Enter): a platform that does not answer queues the order.
    // A plain rating (a scan, Enter, a new weight) never queues anything.
    const queue = buyPending;
    // Labelled here or at another station: nothing to rate unless another label is asked for.
    const labelled = existingLabels.length > 0 || Boolean(get().labelledElsewhere?.label);
    if (!order || !packages.length || (labelled && !confirmAnother)) {
      set({ buyPending: false });
      return;
    }
    const weights = packages.map((p) => parseWeight(p.weight));
    const unsure = weights.indexOf('ambiguous');
    if (unsure >= 0) {
      const typed = packages[unsure]!.weight.trim();
      fail({
        code: 'validation',
        message: `Package ${unsure + 1} of ${packages.length}: is "${typed}" ${typed.replace(/(\d)[,.](\d{3})(?!\d)/, '$1$2')} or ${typed.replace(/(\d)[,.](\d{3})(?!\d)/, (_, a: string, b: string) => `${a}.${b.replace(/0+$/, '') || '0'}`)}? Type it without the ${typed.includes(',') ? 'comma (or with a decimal point)' : 'point for thousands'}; nothing was rated.`,
      });
      return;
    }
    const bad = weights.indexOf('bad');
    if (bad >= 0) {
      fail({
        code: 'validation',
        message: `Package ${bad + 1} of ${packages.length}: "${packages[bad]!.weight}" is not a weight. Type pounds (1.5), or the weight with its unit: 12 oz, 1 lb 4 oz, 2 kg, 500 g.`,
      });
      return;
    }
    // Nothing or less: said as the other refusals are, by package, with what was typed.
    const none = weights.findIndex((w) => typeof w === 'number' && w <= 0);
    if (none >= 0) {
      fail({
        code: 'validation',
        message: `Package ${none + 1} of ${packages.length}: "${packages[none]!.weight}" is no weight for a parcel: type what it weighs, more than 0 lb.`,
      });
      return;
    }
    // Typed in ounces, kilograms or grams: the field shows what is sent, in pounds.
    if (packages.some((p) => typedWithUnit(p.weight)))
      packages = packages.map((p, i) =>
        typedWithUnit(p.weight) ? { ...p, weight: String(weights[i]) } : p,
      );
    set({ busy: 'rate', quote: null, selectedRateId: null, result: null, packages });
    const r = await call('pack.rate', {
      orderId: order.id,
      packages: packages.map((p, i) => ({
        weightLbs: weights[i] as number | null,
        boxId: p.box?.id ?? null,
      })),
      confirmAnother,
      options: shipOptions,
      queue,
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
    if (!r.ok && beingBoughtElsewhere(r.error)) {
      // Scanned here while another tab or window buys it: its label is waited for and shown.
      set({
        buyPending: false,
        result: { kind: 'info', text: beingBoughtWords(order.orderNumber) },
      });
      void awaitBoughtElsewhere(order.id, order.orderNumber);
      return;
    }
    if (!r.ok) {
      fail(r.error);
      // Something about this order went wrong: its next buy key rates and shows first (the
      // price after an incoterm or address put right is one the packer has not seen).
      set({ showFirst: 'refused' });
      return;
    }
    set({
      quote: r.value,
      selectedRateId: r.value.chosenRateId,
      showFirst: null,
    });
    if (r.value.unreachable) {
      // Ctrl+Enter came while this rating was on its way: asked again, queueing this time.
      if (get().buyPending && !queue) {
        again = true;
        return;
      }
      // Nothing bought or queued; the Rates panel says so and what Ctrl+Enter does now.
      set({ buyPending: false });
      void get().refreshStatus();
      return;
    }
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
    quote: null,
    selectedRateId: null,
    confirmAnother: false,
    buyPending: false,

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
      const i = quote.rates.findIndex((x) => x.id === selectedRateId);
      // Nothing highlighted (no rate fits the rule): ↓ takes the first, ↑ the last.
      const from = i >= 0 ? i : delta > 0 ? -1 : 0;
      const next = quote.rates[(from + delta + quote.rates.length) % quote.rates.length]!;
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
      if (!quote && get().result?.kind === 'success') {
        // The order on screen was just bought (a second press of the buy key): its green
        // result and its reprint stay; buying another is its own, confirmed, key.
        get().notify(
          'ok',
          'This order is already bought. Alt+R reprints its label; Ctrl+Shift+A buys another.',
        );
        return;
      }
      const there = get().labelledElsewhere;
      if (!quote && there?.label && !confirmAnother) {
        // Labelled at another station (the buy was just refused): asking the platform again
        // would be refused again; the packer is told what the keys do instead.
        get().notify(
          'error',
          `This order was labelled at ${there.stationName} (${there.label.trackingNumber}). ${there.label.voided ? 'That label was voided at the carrier' : get().status?.site?.state === 'unreachable' ? `Reprint it at ${there.stationName} (the site store is not answering)` : 'Alt+R reprints its label here'}; Ctrl+Shift+A buys another.`,
        );
        return;
      }
      if (!quote) {
        if (!get().order) return;
        const showFirst = get().showFirst;
        if (showFirst) {
          // Rated and shown first, never bought unseen (see showFirst); the next Ctrl+Enter
          // buys. A box or an option changed, the scale's reading, the order file's weight:
          // rated and bought.
          await get().rate();
          const rated = get().quote;
          const pick = rated?.rates.find((x) => x.id === rated.chosenRateId);
          // Said in the result panel, where the packer looks next (a toast was gone before
          // some read it), unless the rating itself said something there.
          if (rated?.rates.length && !get().result)
            set({
              result: {
                kind: 'info',
                text:
                  showFirst === 'refused' && pick
                    ? `Rated again: the rule's choice is now ${pick.carrier} ${pick.serviceLevel} at ${pick.amount.toFixed(2)} ${pick.currency}. Check it, then Ctrl+Enter buys it.`
                    : `Rated at ${get()
                        .packages.map((p) => `${p.weight.trim()} lb`)
                        .join(' + ')}: check the rate, then Ctrl+Enter buys it.`,
              },
            });
          return;
        }
        // Weighed by the scale or the order file but not rated yet: rate, then buy as the
        // rates come in.
        set({ buyPending: true });
        await get().rate();
        return;
      }
      if (quote.queued) return;
      if (quote.ruleRefused && !pickedRate(quote, selectedRateId)) {
        // No rate fits the rule and none was picked: nothing is bought for the packer.
        set({ buyPending: false });
        get().notify(
          'error',
          `No rate fits the rule, so nothing was bought. Pick one with ↑/↓ (or click it), then Ctrl+Enter buys it as your choice; or ask a shift lead.`,
        );
        return;
      }
      if (quote.unreachable) {
        // The platform did not answer the rating: the packer's buy queues the order for it.
        set({ buyPending: true });
        await get().rate();
        return;
      }
      set({ busy: 'buy' });
      const boughtFor = get().order;
      // The shipment that was rated, at the highlighted rate: no second rating.
      const picked = pickedRate(quote, selectedRateId);
      const r = notConfirmedIfHostLost(
        await call('pack.buy', {
          shipmentId: quote.shipmentId,
          rate: picked
            ? { carrierAccountId: picked.carrierAccountId, serviceLevel: picked.serviceLevel }
            : null,
          confirmAnother,
        }),
      );
      set({ busy: null });
      const sounds = get().settings?.sounds ?? true;
      if (!boughtFor || get().order?.id !== boughtFor.id) {
        // Another order was scanned (or the screen cleared) while this one was being bought:
        // its outcome is told by name and never shown as the result of the order now on screen.
        const name = boughtFor?.orderNumber ?? 'The previous order';
        if (r.ok) playSuccess(sounds);
        else playFailure(sounds);
        get().notify(
          r.ok ? 'ok' : 'error',
          r.ok
            ? `${name}: ${r.value.message}${r.value.label ? ` (${r.value.label.trackingNumber})` : ''}`
            : `${name}: ${r.error.message}`,
        );
        void get().refreshStatus();
        return;
      }
      if (r.ok) {
        playSuccess(sounds);
        // The order now has this label too: a Ctrl+Shift+A from here buys a further one, and
        // says which labels the order already has.
        const bought = r.value.label;
        const known = get().existingLabels;
        set({
          result: { kind: 'success', purchase: r.value },
          quote: null,
          confirmAnother: false,
          existingLabels:
            bought && !known.some((l) => l.id === bought.id) ? [...known, bought] : known,
        });
      } else if (beingBoughtElsewhere(r.error)) {
        // Bought right now from another tab or window: that label is on its way. Said as such
        // and shown here once bought (until 2026-11-29 a red FAILED under a live buy key).
        set({
          result: { kind: 'info', text: beingBoughtWords(boughtFor.orderNumber) },
          quote: null,
          selectedRateId: null,
        });
        void awaitBoughtElsewhere(boughtFor.id, boughtFor.orderNumber);
      } else if (r.error.code === 'order-changed') {
        playFailure(sounds);
        await showChangedOrder(boughtFor, r.error);
      } else {
        playFailure(sounds);
        // Labelled at another station: its label is offered for a reprint here (Alt+R), and
        // the rates go (nothing is to be bought; Ctrl+Shift+A rates again for another label).
        // Still being bought there (no label yet): the rates stay for a retry if that fails.
        const elsewhere = labelledElsewhereOf(r.error);
        // A rate that can no longer be bought (its carrier's connection lapsed): the rates go,
        // so the next Ctrl+Enter rates the order again instead of offering the same dead rate
        // as the rule's choice. (By its code, never by the message's words.)
        const stale = r.error.code === 'connection-not-authorized';
        // Not confirmed: the label may have been bought. Nothing is offered to buy again here
        // (Needs attention finds out first); the station would refuse it anyway.
        const unknown = r.error.code === 'purchase-outcome-unknown';
        // Cancelled (here, or at another station of the site): nothing is to be bought.
        const cancelled = r.error.code === 'order-cancelled';
        // Labelled meanwhile (another tab or window of this station): the rates go and its label
        // is on screen as at a rescan, so Alt+R reprints it and Ctrl+Shift+A buys another.
        const labelled = labelledHereOf(r.error);
        set({
          result: {
            kind: 'failure',
            error: labelled.length
              ? { ...r.error, message: labelledHereWords(boughtFor.orderNumber, labelled[0]!) }
              : r.error,
          },
          labelledElsewhere: elsewhere,
          ...(labelled.length ? { existingLabels: labelled } : {}),
          ...(elsewhere?.label || stale || unknown || cancelled || labelled.length
            ? { quote: null, selectedRateId: null }
            : {}),
          // The next buy key rates and shows first: a refused carrier's rate is gone and the
          // rule may now choose another carrier at another price; whatever was put right, the
          // packer sees the price before paying it.
          showFirst: 'refused',
        });
      }
      void get().refreshStatus();
    },

    allowAnother() {
      if (!get().order) return;
      set({ confirmAnother: true, result: null });
      void get().rate();
    },
  };
};

/**
 * The station program stopped while a purchase it had been sent was under way: the label may
 * have been bought (the platform may have sold it before the station could say so). That is a
 * purchase not confirmed, said as such (NOT CONFIRMED, nothing offered to buy again), never a
 * red FAILED over a Buy & print key that invites a second label.
 */
function notConfirmedIfHostLost<T>(r: Result<T>): Result<T> {
  if (r.ok || r.error.code !== 'host-lost') return r;
  if ((r.error.details as { mayHaveRun?: boolean } | undefined)?.mayHaveRun !== true) return r;
  return {
    ok: false,
    error: {
      code: 'purchase-outcome-unknown',
      message:
        'The station program stopped while this label was being bought: it may or may not have been bought. Do not buy it again; once the station is back, Needs attention (Alt+2) says whether it was.',
    },
  };
}
