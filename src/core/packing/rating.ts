import type { StoredOrder } from '../orders/types.js';
import type { Profile } from '../profiles/profile-schema.js';
import type {
  FailureClassifier,
  PackingPlatform,
  PlatformOptions,
  RateResponse,
} from './platform-port.js';
import { selectRate } from './rate-rule.js';
import type { CarrierAccountProblem, Failure, RateSelection, Shipment } from './types.js';

export type Rating =
  | {
      kind: 'rated';
      rates: RateResponse;
      selection: RateSelection;
      carrierProblems: CarrierAccountProblem[];
    }
  | {
      kind: 'failed';
      failure: Failure;
      rates: RateResponse | null;
      carrierProblems: CarrierAccountProblem[];
    }
  | { kind: 'unreachable'; failure: Failure };

/** Rates a shipment (safe to repeat) and picks one by the profile's rule. */
export async function rateShipment(
  platform: PackingPlatform,
  classify: FailureClassifier,
  profile: Profile,
  shipment: Pick<Shipment, 'tenantId' | 'shipment'>,
  order: StoredOrder,
): Promise<Rating> {
  let rates: RateResponse;
  try {
    rates = await platform.rates(shipment.tenantId, {
      shipment: shipment.shipment,
      ...(order.serviceLevels ? { options: { serviceLevels: order.serviceLevels } } : {}),
    });
  } catch (error) {
    const failure = classify(error);
    switch (failure.kind) {
      case 'rejected':
        // No client secret, or the platform refuses this station's key (401): nothing was
        // rated or bought, and it is the station's, not the order's. A queued shipment keeps
        // waiting (saying why) until site IT puts the key right, rather than failing for good;
        // a packer's rating says so and offers to queue, as in an outage.
        if (failure.errorCode === 'secret-missing' || failure.status === 401)
          return {
            kind: 'unreachable',
            failure: {
              code: failure.status === 401 ? 'key-refused' : 'secret-missing',
              message: failure.message,
              correlationId: failure.correlationId,
            },
          };
        return {
          kind: 'failed',
          rates: null,
          carrierProblems: [],
          failure: {
            code: failure.errorCode ?? `http-${failure.status}`,
            message: failure.errors.some((e) => e.field.endsWith('shipFrom.siteId'))
              ? // The profile's shipping site, not the order: said for whom can mend it.
                `No rates: the platform does not know this profile's shipping site "${shipment.shipment.shipFrom.siteId ?? ''}" for this brand, so nothing can be rated or bought here. Ask site IT to correct the profile's shipping site (Settings → Profiles, or the provisioning file). The platform said: ${failure.message}`
              : noRatesMessage(
                  failure.message,
                  failure.errorCode,
                  order,
                  shipment.shipment.options,
                  shipment.tenantId === profile.tenantId ? profile.brandTenants : [],
                ),
            errors: failure.errors,
            correlationId: failure.correlationId,
          },
        };
      case 'unreachable':
      case 'outcome-unknown':
        return {
          kind: 'unreachable',
          failure: {
            code: 'platform-unreachable',
            message: failure.message,
            correlationId: failure.correlationId,
            ...(failure.kind === 'unreachable' && failure.retryAfterMs !== undefined
              ? { retryAfterMs: failure.retryAfterMs }
              : {}),
          },
        };
      case 'not-sent':
        return {
          kind: 'unreachable',
          failure: { code: 'platform-unreachable', message: failure.message },
        };
      default: {
        const never: never = failure;
        throw new Error(`unexpected failure ${JSON.stringify(never)}`);
      }
    }
  }
  const carrierProblems = await carrierProblemsOf(platform, shipment.tenantId, rates);
  const choice = selectRate(rates.shipmentRates, profile.rateRule, order.serviceLevels);
  if (choice.rate === null) {
    const blocked = carrierProblems.length
      ? ` Carrier accounts that could not rate: ${carrierProblems.map((p) => `${p.name ?? p.carrierAccountId} (${p.authorizationStatus ?? p.errorCode})`).join(', ')}.`
      : '';
    return {
      kind: 'failed',
      rates,
      carrierProblems,
      // Rates came back and the rule turned them all down, or none came back at all: only the
      // second can be blamed on carrier accounts that are not authorized.
      failure: {
        code: rates.shipmentRates.length ? 'no-rate-fits-rule' : 'no-usable-rate',
        message: `${unreadableWords(rates) ?? choice.reason}${blocked}`,
      },
    };
  }
  return { kind: 'rated', rates, selection: choice, carrierProblems };
}

/**
 * Rates came back, but none with a price and service level the station can read (the spec shows
 * only carrierAccount.id of a rate): said so, never "the platform returned no rates".
 */
function unreadableWords(rates: RateResponse): string | null {
  const n = rates.unreadableRates ?? 0;
  if (rates.shipmentRates.length > 0 || n === 0) return null;
  return `The platform returned ${n} rate${n === 1 ? '' : 's'}, but without a price and service level the station can read (amount, serviceLevel), so none can be picked or bought here. Site IT: the platform's rate answer is not in the shape this station reads.`;
}

/**
 * A refused rating in the packer's words. An order limited to service levels (its file's
 * service_levels) that no carrier account offers gets NO_RATES with the platform's reasons for
 * the other accounts, which read as if the order were fine: the limit is named first.
 */
function noRatesMessage(
  platformWords: string,
  errorCode: string | undefined,
  order: StoredOrder,
  options: PlatformOptions | undefined,
  /** The profile's brands, when the order was rated as the 3PL's own (it names no brand). */
  brandsOfOwnOrder: readonly { name: string; tenantId: string }[] = [],
): string {
  const levels = order.serviceLevels ?? [];
  if (errorCode !== 'NO_RATES') return `No rates: ${platformWords}`;
  // A 3PL's order whose file named no brand: the 3PL itself may have no carrier account at all,
  // and the platform's words name only its tenant id (until 2026-11-29 that was all Pack said).
  if (brandsOfOwnOrder.length > 0 && levels.length === 0 && packerOptions(options).length === 0) {
    const names = brandsOfOwnOrder.map((b) => b.name || b.tenantId);
    const which =
      names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
    return (
      `No rates: order ${order.orderNumber} names no brand, so it was rated as the 3PL's own order, ` +
      `and no carrier account of the 3PL's own can ship it. If it is an order of ${which}, its order ` +
      `file must name that brand (the tenant_id column, or the brand column of a saved column mapping): ` +
      `put it right and import it again. The platform said: ${platformWords}`
    );
  }
  if (levels.length === 0) {
    // The platform names no option, only that no account could rate: the options the packer
    // set (or the order asked for) are the likely cause, and can be taken off at Pack.
    const asked = packerOptions(options);
    if (asked.length === 0) return `No rates: ${platformWords}`;
    const ticks = asked.every((o) => !o.radio);
    const it = asked.length === 1 ? 'it' : 'them';
    return (
      `No carrier rated this order with ${asked.map((o) => o.name).join(' and ')}: ` +
      `${ticks ? `untick ${it}` : `take ${it} off`} (Alt+O) and rate again. The platform said: ${platformWords}`
    );
  }
  return (
    `No rates: order ${order.orderNumber} may only ship ${levels.join(' or ')} (its order file says so), ` +
    `and no carrier account of this brand rated ${levels.length === 1 ? 'it' : 'any of them'}. ` +
    `Check the service level in the order file and import it again, or ask the shift lead whether that service is set up. ` +
    `The platform said: ${platformWords}`
  );
}

/** The options of a rating a packer can change at Pack (Alt+O), by the names it shows. */
function packerOptions(options: PlatformOptions | undefined): { name: string; radio: boolean }[] {
  const asked: { name: string; radio: boolean }[] = [];
  if (options?.deliveryOption === 'SATURDAY_DELIVERY')
    asked.push({ name: 'Saturday delivery', radio: false });
  if (options?.deliveryConfirmation === 'ADULT_SIGNATURE')
    asked.push({ name: 'adult signature', radio: true });
  else if (options?.deliveryConfirmation === 'SIGNATURE')
    asked.push({ name: 'signature', radio: true });
  if (options?.additionalHandling) asked.push({ name: 'additional handling', radio: false });
  return asked;
}

/** Accounts in rateErrors, as stored with the rates (no authorization link looked up). */
export function carrierProblemsIn(rates: RateResponse): CarrierAccountProblem[] {
  return rates.rateErrors.map((e): CarrierAccountProblem => ({
    carrierAccountId: e.carrierAccount.id,
    name: e.carrierAccount.name,
    carrier: e.carrierAccount.carrier,
    errorCode: e.errorCode,
    authorizationStatus: e.authorizationStatus,
    message: e.message,
  }));
}

/** Accounts in rateErrors, with the OAuth URL to finish authorizing a PENDING connection. */
async function carrierProblemsOf(
  platform: PackingPlatform,
  tenantId: string,
  rates: RateResponse,
): Promise<CarrierAccountProblem[]> {
  return Promise.all(
    carrierProblemsIn(rates).map(async (problem): Promise<CarrierAccountProblem> => {
      if (problem.authorizationStatus === 'PENDING' && platform.carrierAccountAuthorization) {
        try {
          const auth = await platform.carrierAccountAuthorization(
            tenantId,
            problem.carrierAccountId,
          );
          problem.oauthUrl = auth.oauthUrl;
        } catch {
          // The URL is a convenience; the problem is still reported without it.
        }
      }
      return problem;
    }),
  );
}
