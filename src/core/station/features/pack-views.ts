import type { ClaimHolder } from '../../packing/order-claims.js';
import type { ShipmentRate } from '../../packing/platform-port.js';
import type { CarrierAccountProblem, RateResult, ShipResult } from '../../packing/types.js';
import type {
  AccountIssue,
  LabelledElsewhereView,
  PurchaseView,
  RateQuote,
  RateView,
} from '../../../shared/views.js';
import type { StationContext } from '../context.js';
import { ShipmentRefused, type ShipmentRefusal } from '../errors.js';
import { brandName, labelView, printJobView } from '../map.js';
import type { ProfileRuntime } from '../runtime.js';
import type { Profile } from '../../profiles/profile-schema.js';

type Refusal = Extract<
  ShipResult,
  { outcome: 'already-labelled' | 'needs-attention' | 'invalid' | 'failed' | 'unknown' }
>;

/**
 * Why nothing was rated or bought, as a core kind (`ShipmentRefused`); the one table in
 * ../errors.ts turns it into the contract's code.
 */
export function refuse(result: Refusal, profile?: Profile): never {
  const fail = (refusal: ShipmentRefusal, message: string, details?: unknown): never => {
    throw new ShipmentRefused(refusal, message, details);
  };
  switch (result.outcome) {
    case 'already-labelled':
      return fail(
        'already-labelled',
        `Order already has a label (${result.labels.map((l) => l.trackingNumber).join(', ')}). Reprint it, or confirm buying another.`,
        {
          labels: result.labels.map((l) =>
            labelView(l, profile ? brandName(profile, l.tenantId) : null, 0),
          ),
        },
      );
    case 'needs-attention':
      return fail(
        'needs-attention',
        'An earlier purchase of this order has an unknown outcome. A shift lead must resolve it under Needs attention before buying again.',
      );
    case 'invalid': {
      const { code, message, errors } = result.failure;
      const holder = result.claimedBy;
      // Labelled at another station: which one, and its label, for the Pack view's reprint here.
      if (holder) {
        const labelledElsewhere = labelledElsewhereView(holder);
        return fail(invalidRefusal[code] ?? 'invalid', message, { labelledElsewhere });
      }
      // Being bought right now (another tab or window of this station): the page that asked
      // second waits for that label instead of showing a failure (`beingBought`).
      if (code === 'order-busy') return fail('conflict', message, { beingBought: true });
      // Imported again since it was rated: what changed, for Pack's words as it rates it again.
      if (code === 'order-changed')
        return fail('order-changed', message, { changed: result.failure.changed ?? null });
      return fail(invalidRefusal[code] ?? 'invalid', message, errors);
    }
    case 'failed': {
      const notAuthorized =
        result.failure.code === 'CONNECTION_NOT_AUTHORIZED' ||
        (result.carrierProblems.some((p) => p.errorCode === 'CONNECTION_NOT_AUTHORIZED') &&
          result.failure.code === 'no-usable-rate');
      return fail(
        notAuthorized
          ? 'connection-not-authorized'
          : result.failure.code === 'no-usable-rate' || result.failure.code === 'no-rate-fits-rule'
            ? 'no-rates'
            : 'failed',
        withShipToAdvice(result.failure.message, result.failure.errors),
        {
          errors: result.failure.errors ?? [],
          correlationId: result.failure.correlationId,
          carrierProblems: result.carrierProblems,
        },
      );
    }
    case 'unknown':
      return fail('outcome-unknown', result.failure.message);
    default: {
      const never: never = result;
      throw new Error(`unexpected ${JSON.stringify(never)}`);
    }
  }
}

/**
 * The platform refused the order's ship-to address (a missing name, a street it does not
 * know): nothing at Pack can change it, so the packer is told where it is put right.
 */
function withShipToAdvice(
  message: string,
  errors: readonly { field: string }[] | undefined,
): string {
  if (!errors?.some((e) => e.field.startsWith('shipment.shipTo'))) return message;
  return `${message.trim().replace(/[.\s]*$/, '.')} The order's ship-to address is what was refused: put it right in the order file (or the store's order) and import it again, then scan the order. Nothing was bought.`;
}

/** The workflow's `invalid` codes that are not "fix the input" (the rest are `invalid`). */
const invalidRefusal: Partial<Record<string, ShipmentRefusal>> = {
  'order-not-found': 'not-found',
  'shipment-not-found': 'not-found',
  'order-busy': 'conflict',
  'rates-superseded': 'conflict',
  'already-bought': 'conflict',
  'order-cancelled': 'order-cancelled',
  'order-changed': 'order-changed',
  'order-claimed-elsewhere': 'claimed-elsewhere',
  'site-store-unreachable': 'site-store-unreachable',
  // The rates go and the next buy key rates and shows first, as after the platform's refusal.
  'rate-account-lapsed': 'connection-not-authorized',
};

/** A rated (or queued) shipment as the Pack screen shows it. */
export function quoteView(
  orderId: string,
  orderNumber: string,
  result: RateResult,
  profile?: Profile,
): RateQuote {
  switch (result.outcome) {
    case 'failed': {
      // The rule turned down every rate that came back: they are shown, none as the rule's,
      // for the packer to pick one (or ask a shift lead); nothing else is bought.
      const rates = result.shipment.rates?.shipmentRates ?? [];
      if (result.failure.code !== 'no-rate-fits-rule' || !rates.length)
        return refuse(result, profile);
      return {
        orderId,
        orderNumber,
        shipmentId: String(result.shipment.id),
        ratedAt: result.shipment.updatedAt,
        rates: rates.map(rateView),
        chosenRateId: null,
        reason: `${result.failure.message.replace(/\.?\s*$/, '.')} Pick one with ↑/↓ (or click it) and Ctrl+Enter buys it as your choice, or ask a shift lead.`,
        accountIssues: result.carrierProblems.map(accountIssue),
        queued: false,
        ruleRefused: true,
      };
    }
    case 'rated': {
      const rates = result.rates.shipmentRates;
      const chosen = rates.indexOf(
        rates.find(
          (x) =>
            x.carrierAccount.id === result.selection.rate.carrierAccount.id &&
            x.serviceLevel === result.selection.rate.serviceLevel,
        )!,
      );
      return {
        orderId,
        orderNumber,
        shipmentId: String(result.shipment.id),
        ratedAt: result.ratedAt,
        rates: rates.map(rateView),
        chosenRateId: chosen >= 0 ? String(chosen) : null,
        reason: result.selection.reason,
        accountIssues: result.carrierProblems.map(accountIssue),
        queued: false,
      };
    }
    case 'queued':
      return {
        orderId,
        orderNumber,
        shipmentId: String(result.shipment.id),
        ratedAt: null,
        rates: [],
        chosenRateId: null,
        accountIssues: [],
        queued: true,
        // Said once: a message that already tells where the shipment went gets nothing added.
        // A refused API key is not an outage: the platform answers, the key is what waits.
        reason: queuedReason(result.failure),
      };
    case 'unreachable':
      // Nothing queued: Ctrl+Enter asks again with queueIfUnreachable (pack.rate's `queue`).
      return {
        orderId,
        orderNumber,
        shipmentId: '',
        ratedAt: null,
        rates: [],
        chosenRateId: null,
        accountIssues: [],
        queued: false,
        unreachable: true,
        reason: result.failure.message,
      };
    default:
      return refuse(result, profile);
  }
}

const rateView = (x: ShipmentRate, i: number): RateView => ({
  id: String(i),
  carrierAccountId: x.carrierAccount.id,
  carrierAccountName: x.carrierAccount.name ?? null,
  carrier: x.carrier,
  serviceLevel: x.serviceLevel,
  amount: x.amount,
  currency: x.currency,
  transitDays: x.transitDays ?? null,
});

const accountIssue = (p: CarrierAccountProblem): AccountIssue => ({
  carrierAccountId: p.carrierAccountId,
  name: p.name ?? p.carrierAccountId,
  carrier: p.carrier ?? '',
  status: p.authorizationStatus ?? p.errorCode,
  oauthUrl: p.oauthUrl ?? null,
});

/** The amber line of a label that is bought and waits for its printer. */
export function waitingForPrinter(printerName: string, issue: string): string {
  return `Bought — waiting for ${printerName} (${issue}); it prints when the printer is back.`;
}

/** What the packer sees after Buy & print. */
export function purchaseView(
  ctx: StationContext,
  r: ProfileRuntime,
  result: ShipResult,
): PurchaseView {
  const view = purchaseOutcomeView(ctx, r, result);
  return 'unclaimed' in result && result.unclaimed
    ? { ...view, siteUnchecked: SITE_UNCHECKED }
    : view;
}

/**
 * Said beside a label bought while the site store was away: short enough for two lines beside
 * the label's preview in large text at 1366×768 (the longer sentence was cut there).
 */
export const SITE_UNCHECKED =
  'Bought with the site store away: checked against the other stations when it answers.';

function purchaseOutcomeView(
  ctx: StationContext,
  r: ProfileRuntime,
  result: ShipResult,
): PurchaseView {
  switch (result.outcome) {
    case 'printed': {
      const job = result.printJobId ? ctx.spool.get(Number(result.printJobId)) : null;
      const printer = r.profile.printers.find((p) => p.id === job?.printerId);
      const name = printer?.name ?? job?.printerId ?? 'the printer';
      const payload = job ? ctx.spool.payload(job.id) : null;
      const warnings = job && payload ? ctx.spool.checkLabel(job.printerId, payload) : [];
      const label = labelView(result.label, brandName(r.profile, result.label.tenantId), 0);
      const printJob = job ? printJobView(job, name, warnings) : null;
      // Bought is not printed: a printer the station knows to be down makes this its own state.
      const issue =
        job && job.state !== 'printed'
          ? (ctx.printerIssue(job.printerId) ?? (job.lastError ? 'not printing' : null))
          : null;
      if (issue)
        return {
          outcome: 'print-waiting',
          label,
          printJob,
          message: waitingForPrinter(name, issue),
        };
      return {
        outcome: 'printing',
        label,
        printJob,
        message: `${result.selection.reason.replace(/\.$/, '')}. Sent to ${name}.`,
      };
    }
    case 'purchased-not-printed':
      return {
        outcome: 'print-waiting',
        label: labelView(result.label, brandName(r.profile, result.label.tenantId), 0),
        printJob: null,
        message: result.failure.message,
      };
    case 'queued':
      // Said as a queued rating is: until 2026-11-29 a purchase queued at Ctrl+Enter said only
      // why ("… could not be reached for the label (ECONNREFUSED …)"), not what happens now.
      return {
        outcome: 'queued-offline',
        label: null,
        printJob: null,
        message: queuedReason(result.failure),
      };
    default:
      return refuse(result, r.profile);
  }
}

/** Another station's hold on an order (a claim's refusal, or the labels kept of the site's), as Pack shows it. */
export function labelledElsewhereView(holder: ClaimHolder): LabelledElsewhereView {
  return {
    stationId: holder.stationId,
    stationName: holder.stationName,
    packer: holder.packer,
    at: holder.at,
    label: holder.label
      ? {
          labelId: String(holder.label.localId),
          trackingNumber: holder.label.trackingNumber,
          ...(holder.label.voided ? { voided: holder.label.voided } : {}),
        }
      : null,
  };
}

/**
 * Why a shipment waits in the offline queue and what happens to it, said once: a message that
 * already tells where the shipment went gets nothing added. A refused API key is not an outage:
 * the platform answers, the key is what waits.
 */
function queuedReason(failure: { code: string; message: string }): string {
  const said = failure.message.replace(/\.?\s*$/, '.');
  if (/labelled/i.test(failure.message)) return said;
  const next =
    failure.code === 'key-refused'
      ? 'Nothing was bought: the shipment waits in the offline queue and is labelled once site IT has put the API key right (call the shift lead).'
      : failure.code === 'already-queued' || /queued/i.test(failure.message)
        ? 'It is labelled when the platform answers again.'
        : 'Nothing was bought: the shipment waits in the offline queue and is labelled when the platform answers again.';
  return `${said} ${next}`;
}
