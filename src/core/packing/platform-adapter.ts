import { SecretMissingError } from '../profiles/secret-vault.js';
import {
  isPlatformError,
  type LabelRequest as ClientLabelRequest,
  type PlatformClient,
  type RateRequest as ClientRateRequest,
} from '../platform/index.js';
import type {
  PackingPlatform,
  PlatformFailure,
  PlatformTracker,
  PurchasedLabel,
  RateResponse,
  TrackerSearch,
} from './platform-port.js';

/**
 * Bounds the search for a lost purchase: trackers come oldest first (by updatedAt), 50k at
 * most. The search starts near the purchase (updatedSince) so its label is among the first
 * read; when the bound is reached anyway, the answer says the search stopped short.
 */
const TRACKER_SEARCH = { pageSize: 1000, maxPages: 50 };

/**
 * How long a PENDING account's authorization link is reused. Every rate response of a tenant
 * with a PENDING connection names that account in rateErrors; looking its link up on every
 * scan would put a whole API round trip on the packer's critical path for a convenience.
 */
const AUTHORIZATION_CACHE_MS = 5 * 60_000;
const AUTHORIZATION_DEADLINE_MS = 3_000;
/**
 * How long a packer's purchase waits for the purchase route's answer after a label request went
 * unanswered (offline-steps.ts queueIfLabelsInDoubt); unanswered by then, the shipment queues.
 */
const LABEL_PROBE_DEADLINE_MS = 3_000;

/**
 * Adapts the platform client (src/core/platform) to what packing needs, turning its tolerant
 * nullable shapes into the station's, and acting for the order's tenant (x-tenant-id).
 */
export function packingPlatformFrom(
  client: PlatformClient,
  now: () => number = Date.now,
  trackerSearch: { pageSize: number; maxPages: number } = TRACKER_SEARCH,
): PackingPlatform {
  const authorizations = new Map<
    string,
    { at: number; value: Promise<{ authorizationStatus: string; oauthUrl: string | undefined }> }
  >();
  return {
    async rates(tenantId, request): Promise<RateResponse> {
      const response = await client.getRates(request as ClientRateRequest, { tenantId });
      const readable = (r: (typeof response.shipmentRates)[number]) =>
        typeof r.amount === 'number' && Boolean(r.serviceLevel);
      const unreadable = response.shipmentRates.filter((r) => !readable(r)).length;
      return {
        ...(unreadable > 0 ? { unreadableRates: unreadable } : {}),
        shipmentRates: response.shipmentRates.flatMap((r) =>
          r.amount === null || r.amount === undefined || !r.serviceLevel
            ? []
            : [
                {
                  rateQuoteId: r.rateQuoteId ?? undefined,
                  carrierAccount: {
                    id: r.carrierAccount.id,
                    name: r.carrierAccount.name ?? undefined,
                    carrier: r.carrierAccount.carrier ?? undefined,
                  },
                  carrier: r.carrier ?? r.carrierAccount.carrier ?? r.serviceLevel.split('_')[0]!,
                  serviceLevel: r.serviceLevel,
                  serviceLevelName: r.serviceLevelName ?? undefined,
                  amount: r.amount,
                  currency: r.currency ?? 'USD',
                  transitDays: r.transitDays ?? undefined,
                  estimatedDeliveryDate: r.estimatedDeliveryDate ?? undefined,
                },
              ],
        ),
        rateErrors: response.rateErrors.map((e) => ({
          carrierAccount: {
            id: e.carrierAccount?.id ?? '?',
            name: e.carrierAccount?.name ?? undefined,
            carrier: e.carrierAccount?.carrier ?? undefined,
          },
          errorCode: e.errorCode ?? 'RATE_ERROR',
          authorizationStatus: e.authorizationStatus ?? undefined,
          message: e.message ?? 'This carrier account could not rate the shipment.',
        })),
      };
    },

    async buyLabel(tenantId, request): Promise<PurchasedLabel> {
      const label = await client.purchaseLabel(request as ClientLabelRequest, { tenantId });
      return {
        id: label.id,
        trackingNumber: label.trackingNumber,
        trackerId: label.trackerId ?? undefined,
        carrier: label.carrier ?? request.service,
        serviceLevel: label.serviceLevel ?? request.serviceLevel,
        carrierAccountId: label.carrierAccountId ?? request.carrierAccountId,
        orderReference: label.orderReference ?? request.orderReference,
        // No cost in the answer is not a free label: the purchase falls back to the rate bought.
        ...(typeof label.cost?.amount === 'number'
          ? { cost: { amount: label.cost.amount, currency: label.cost.currency ?? 'USD' } }
          : {}),
        labelData: label.labelData ?? undefined,
        labelUrl: label.labelUrl ?? undefined,
        packages: label.packages?.flatMap((p) =>
          p.trackingNumber ? [{ trackingNumber: p.trackingNumber }] : [],
        ),
        createdAt: label.createdAt ?? new Date().toISOString(),
      };
    },

    labelZpl(tenantId, labelId) {
      return client.getLabelZpl(labelId, { tenantId });
    },

    async trackersByOrderReference(tenantId, orderReference, options): Promise<TrackerSearch> {
      // The tracker list has no orderReference filter: page through and match.
      const found: PlatformTracker[] = [];
      let [read, reachedEnd, referencesShown] = [0, false, false];
      let cursor: string | undefined;
      for (let page = 0; page < trackerSearch.maxPages; page++) {
        const result = await client.listTrackers(
          {
            limit: trackerSearch.pageSize,
            ...(options?.updatedSince ? { updatedSince: options.updatedSince } : {}),
            ...(cursor ? { cursor } : {}),
          },
          { tenantId },
        );
        read += result.items.length;
        for (const t of result.items) {
          if (t.orderReference) referencesShown = true;
          if (t.orderReference === orderReference)
            found.push({
              id: t.id ?? t.trackingNumber,
              trackingNumber: t.trackingNumber,
              carrier: t.carrier ?? undefined,
              serviceLevel: t.serviceLevel ?? undefined,
              tenantId: t.tenantId ?? undefined,
              labelId: t.labelId ?? undefined,
              orderReference: t.orderReference ?? undefined,
              createdAt: t.createdAt ?? undefined,
            });
        }
        if (!result.hasMore || !result.nextCursor) {
          reachedEnd = true;
          break;
        }
        cursor = result.nextCursor;
      }
      return { trackers: found, read, reachedEnd, referencesShown };
    },

    carrierAccountAuthorization(tenantId, carrierAccountId) {
      const key = `${tenantId}\u0000${carrierAccountId}`;
      const cached = authorizations.get(key);
      if (cached && now() - cached.at < AUTHORIZATION_CACHE_MS) return cached.value;
      // On the scan's path for a convenience (the OAuth link): a short deadline of its own.
      const value = client
        .getCarrierAccount(carrierAccountId, { tenantId, deadlineMs: AUTHORIZATION_DEADLINE_MS })
        .then((account) => {
          const connection = account.carrierAccountConnection;
          return {
            authorizationStatus:
              connection?.authorizationStatus ??
              connection?.authorizationDetails?.status ??
              'UNKNOWN',
            oauthUrl: connection?.authorizationDetails?.oauth_url ?? undefined,
          };
        });
      // A failed look-up is not remembered: the next scan asks again.
      value.catch(() => authorizations.delete(key));
      authorizations.set(key, { at: now(), value });
      return value;
    },

    isReachable: () => client.connectivity.reachable,
    unreachableReason: () => client.connectivity.outage(),
    mayTryAgain: (afterMs) => client.connectivity.mayTryAgain(afterMs),
    labelsUnanswered() {
      const failure = client.connectivity.unanswered('labels');
      return failure
        ? `The platform did not answer the last label request (${failure.detail}).`
        : null;
    },
    probeLabelRoute: (tenantId) =>
      client.probeLabelRoute({ tenantId, deadlineMs: LABEL_PROBE_DEADLINE_MS }),
  };
}

/** Reads a PlatformError's kind as what it means for a shipment. */
export function classifyPlatformError(error: unknown): PlatformFailure {
  // No client secret: the token request was never made, so nothing was sent or bought, and
  // waiting for the platform will not help.
  if (error instanceof SecretMissingError)
    return {
      kind: 'rejected',
      status: 0,
      errorCode: error.code,
      message: error.message,
      errors: [],
      correlationId: undefined,
    };
  if (!isPlatformError(error))
    return {
      kind: 'outcome-unknown',
      message: error instanceof Error ? error.message : String(error),
    };
  const correlationId = error.correlationId ?? undefined;
  switch (error.kind) {
    case 'validation':
    case 'auth':
    case 'wrong-tenant':
    case 'not-found':
    case 'connection-not-authorized':
      return {
        kind: 'rejected',
        status: error.status ?? 0,
        errorCode: error.errorCode ?? undefined,
        message: error.message,
        errors: error.fieldErrors.map((e) => ({ field: e.field ?? '', message: e.message })),
        correlationId,
      };
    case 'retryable':
      return {
        kind: 'unreachable',
        message: error.message,
        correlationId,
        ...(error.retryAfterMs !== null ? { retryAfterMs: error.retryAfterMs } : {}),
      };
    case 'network':
      // The client raises `network` on a purchase only when the request never left.
      return {
        kind: 'not-sent',
        message: error.message,
        ...(error.retryAfterMs !== null ? { retryAfterMs: error.retryAfterMs } : {}),
      };
    case 'unknown-outcome':
      // The client's message for this kind states the outcome and the instruction itself.
      return {
        kind: 'outcome-unknown',
        message: error.message,
        correlationId,
        explainsOutcome: true,
      };
    case 'unexpected-response':
      return { kind: 'outcome-unknown', message: error.message, correlationId };
    default: {
      const never: never = error.kind;
      return { kind: 'outcome-unknown', message: String(never) };
    }
  }
}
