import { type FastifyInstance } from 'fastify';
import { mayShipFrom } from '../carriers.js';
import { z } from 'zod';
import { ApiError, type FieldError } from '../errors.js';
import { price, priceKey, serviceLevelName, tierOf } from '../rates/pricing.js';
import { offersSaturday, optionsOf, packageSurcharges } from '../rates/shipment-extras.js';
import {
  addressRules,
  extrasRules,
  isInternational,
  rateOptionsSchema,
  resolveOrigin,
  shipmentSchema,
} from '../shipment.js';
import { type CarrierAccount, newId } from '../state.js';
import { parseBodyWithRules } from '../validation.js';
import { type World } from '../world.js';

const rateRequest = z.looseObject({
  shipment: shipmentSchema,
  options: rateOptionsSchema.optional(),
  shippingSiteId: z.string().min(1).optional(),
});

const QUOTE_TTL_MS = 24 * 3_600_000;
const DAY_MS = 86_400_000;

interface RateError {
  carrierAccount: { id: string; name: string; carrier: string };
  errorCode: string;
  authorizationStatus?: string;
  message: string;
}

export function rateRoutes(app: FastifyInstance, world: World): void {
  const { state, clock } = world;

  app.post('/api/v1/rates', async (request) => {
    const ctx = world.auth(request, { tenantHeader: 'required' });
    // Every bad field at once: the schema's problems and the postal codes a rate needs.
    const body = parseBodyWithRules(rateRequest, request.body, (raw) => [
      ...addressRules(state, ctx.tenantId, raw, ['postalCode', 'countryCode'], false),
      ...extrasRules(state, ctx.tenantId, raw),
    ]);
    const { shipment } = body;
    const origin = resolveOrigin(
      state,
      ctx.tenantId,
      shipment.shipFrom,
      body.shippingSiteId,
      shipment.returnType !== undefined,
    );
    const international = isInternational(origin.shipFrom, shipment.shipTo);
    const surcharges = shipment.packages.map(
      (pkg) => packageSurcharges(shipment, pkg, international).amount,
    );
    const saturday = shipment.packages.some(
      (pkg) => optionsOf(shipment, pkg).deliveryOption === 'SATURDAY_DELIVERY',
    );

    // An empty list is taken as "not given": every account available to the tenant.
    const named = body.options?.carrierAccountIds;
    const explicit = named && named.length > 0 ? named : undefined;
    const rateErrors: RateError[] = [];
    const usable: CarrierAccount[] = [];
    if (explicit) {
      const errors: FieldError[] = [];
      let code = 'CONNECTION_NOT_AUTHORIZED';
      explicit.forEach((id, i) => {
        const account = state.accounts.get(id);
        if (!account || account.tenantId !== ctx.tenantId) {
          throw new ApiError(404, 'NOT_FOUND', `Carrier account "${id}" was not found`, [
            {
              field: `options.carrierAccountIds[${i}]`,
              message: 'unknown carrier account',
              code: 'not_found',
            },
          ]);
        }
        const conn = state.connections.get(account.carrierAccountConnectionId)!;
        if (conn.authorizationStatus !== 'AUTHORIZED') {
          errors.push({
            field: `options.carrierAccountIds[${i}]`,
            message: `the connection of carrier account "${account.name}" is ${conn.authorizationStatus}, not AUTHORIZED`,
            code: 'CONNECTION_NOT_AUTHORIZED',
          });
        } else if (!account.isActive) {
          code = errors.length === 0 ? 'CARRIER_ACCOUNT_INACTIVE' : code;
          errors.push({
            field: `options.carrierAccountIds[${i}]`,
            message: `carrier account "${account.name}" is inactive`,
            code: 'CARRIER_ACCOUNT_INACTIVE',
          });
        } else usable.push(account);
      });
      if (errors.length > 0) {
        throw new ApiError(400, errors[0]!.code, `Cannot rate: ${errors[0]!.message}`, errors);
      }
    } else {
      for (const account of state.accountsOf(ctx.tenantId)) {
        const conn = state.connections.get(account.carrierAccountConnectionId)!;
        const ref = { id: account.id, name: account.name, carrier: conn.carrier };
        if (conn.authorizationStatus !== 'AUTHORIZED') {
          rateErrors.push({
            carrierAccount: ref,
            errorCode: 'CONNECTION_NOT_AUTHORIZED',
            authorizationStatus: conn.authorizationStatus,
            message: `The connection of carrier account "${account.name}" is ${conn.authorizationStatus}, not AUTHORIZED`,
          });
        } else if (!account.isActive) {
          rateErrors.push({
            carrierAccount: ref,
            errorCode: 'CARRIER_ACCOUNT_INACTIVE',
            message: `Carrier account "${account.name}" is inactive`,
          });
        } else usable.push(account);
      }
    }

    const wanted = body.options?.serviceLevels;
    const wantedSet = wanted && wanted.length > 0 ? new Set(wanted) : undefined;
    const now = clock.nowMs();
    const residential = shipment.shipTo.isResidential === true;
    const shipmentRates = [];
    for (const account of usable) {
      const conn = state.connections.get(account.carrierAccountConnectionId)!;
      const siteId = origin.site?.id;
      if (!mayShipFrom(account, siteId)) {
        rateErrors.push({
          carrierAccount: { id: account.id, name: account.name, carrier: conn.carrier },
          errorCode: 'LOCATION_NOT_ALLOWED',
          message: `Carrier account "${account.name}" may not ship from site "${siteId}"`,
        });
        continue;
      }
      for (const serviceLevel of account.serviceLevels) {
        if (wantedSet && !wantedSet.has(serviceLevel)) continue;
        if (saturday && !offersSaturday(tierOf(serviceLevel))) continue;
        const input = {
          serviceLevel,
          packages: shipment.packages,
          fromPostal: origin.shipFrom.postalCode,
          toPostal: shipment.shipTo.postalCode,
          residential,
          international,
          surcharges,
        };
        const p = price(input);
        const rateQuoteId = newId('rq');
        state.addQuote({
          id: rateQuoteId,
          tenantId: ctx.tenantId,
          carrierAccountId: account.id,
          serviceLevel,
          amount: p.amount,
          transitDays: p.transitDays,
          expiresAtMs: now + QUOTE_TTL_MS,
          priced: priceKey(input),
        });
        const eta = new Date(now + p.transitDays * DAY_MS);
        eta.setUTCHours(0, 0, 0, 0);
        shipmentRates.push({
          rateQuoteId,
          carrierAccount: { id: account.id, name: account.name, carrier: conn.carrier },
          carrier: conn.carrier,
          serviceLevel,
          serviceLevelName: serviceLevelName(serviceLevel),
          amount: p.amount,
          currency: 'USD',
          transitDays: p.transitDays,
          estimatedDeliveryDate: eta.toISOString(),
          billableWeightLbs: p.billableWeightLbs,
        });
      }
    }
    if (shipmentRates.length === 0) {
      const reasons = rateErrors.map((e) => `${e.carrierAccount.name}: ${e.message}`);
      throw new ApiError(
        400,
        'NO_RATES',
        `No carrier account available to tenant "${ctx.tenantId}" can rate this shipment${
          reasons.length > 0 ? ` (${reasons.join('; ')})` : ''
        }`,
        rateErrors.map((e) => ({
          field: `carrierAccounts.${e.carrierAccount.id}`,
          message: e.message,
          code: e.errorCode,
        })),
      );
    }
    shipmentRates.sort((a, b) => a.amount - b.amount || (a.serviceLevel < b.serviceLevel ? -1 : 1));
    return { shipmentRates, rateErrors };
  });
}
