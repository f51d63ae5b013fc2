import { type FastifyInstance } from 'fastify';
import { mayShipFrom } from '../carriers.js';
import { z } from 'zod';
import { ApiError, notFound } from '../errors.js';
import { SERVICE_LEVEL_PATTERN } from '../fixtures.js';
import { zplForPackage } from '../labels/zpl.js';
import { TrackingNumbers } from '../labels/trackingNumbers.js';
import { billableWeight, price, priceKey, serviceLevelName } from '../rates/pricing.js';
import { optionsOf, packageSurcharges } from '../rates/shipment-extras.js';
import {
  addressRules,
  extrasRules,
  isInternational,
  rateOptionsSchema,
  resolveOrigin,
  shipmentSchema,
} from '../shipment.js';
import { type LabelRecord, newId } from '../state.js';
import { parseBodyWithRules } from '../validation.js';
import { type World, baseUrlOf } from '../world.js';

const labelRequest = z.looseObject({
  service: z.string().min(1).optional(),
  serviceLevel: z.string().regex(SERVICE_LEVEL_PATTERN, 'must have the form <CARRIER>_<SERVICE>'),
  orderReference: z.string().optional(),
  shipment: shipmentSchema,
  rateQuoteId: z.string().min(1).optional(),
  rateOptions: rateOptionsSchema.optional(),
  carrierAccountId: z.string().min(1),
  labelOptions: z
    .looseObject({
      type: z.enum(['ZPL']).optional(),
      size: z.enum(['4x6']).optional(),
      inline: z.boolean().optional(),
    })
    .optional(),
  mode: z.string().optional(),
  shippingSiteId: z.string().min(1).optional(),
});

export function labelRoutes(app: FastifyInstance, world: World): void {
  const { state, clock, trackers } = world;
  const trackingNumbers = new TrackingNumbers();

  app.post('/api/v1/labels', async (request, reply) => {
    const ctx = world.auth(request, { tenantHeader: 'required', fullAccess: true });
    const full = ['addressLine1', 'city', 'postalCode', 'countryCode'] as const;
    // Every bad field at once: the schema, the addresses, and what the named account offers.
    const body = parseBodyWithRules(labelRequest, request.body, (raw) => {
      const errors = [
        ...addressRules(state, ctx.tenantId, raw, full, true),
        ...extrasRules(state, ctx.tenantId, raw),
      ];
      const named = typeof raw.carrierAccountId === 'string' ? raw.carrierAccountId : undefined;
      const found = named ? state.accounts.get(named) : undefined;
      if (!found || found.tenantId !== ctx.tenantId) return errors;
      const carrier = state.connections.get(found.carrierAccountConnectionId)!.carrier;
      if (typeof raw.service === 'string' && raw.service !== carrier) {
        errors.push({
          field: 'service',
          message: `must be ${carrier}, the carrier of the carrier account`,
          code: 'invalid_value',
        });
      }
      if (typeof raw.serviceLevel === 'string' && !found.serviceLevels.includes(raw.serviceLevel)) {
        errors.push({
          field: 'serviceLevel',
          message: `is not offered by carrier account "${found.name}" (${found.serviceLevels.join(', ')})`,
          code: 'invalid_value',
        });
      }
      return errors;
    });
    const { shipment } = body;

    const account = state.accounts.get(body.carrierAccountId);
    if (!account || account.tenantId !== ctx.tenantId) {
      throw new ApiError(
        404,
        'NOT_FOUND',
        `Carrier account "${body.carrierAccountId}" was not found`,
        [{ field: 'carrierAccountId', message: 'unknown carrier account', code: 'not_found' }],
      );
    }
    const conn = state.connections.get(account.carrierAccountConnectionId)!;
    if (conn.authorizationStatus !== 'AUTHORIZED') {
      const message = `the connection of carrier account "${account.name}" is ${conn.authorizationStatus}, not AUTHORIZED`;
      throw new ApiError(400, 'CONNECTION_NOT_AUTHORIZED', `Cannot buy a label: ${message}`, [
        { field: 'carrierAccountId', message, code: 'CONNECTION_NOT_AUTHORIZED' },
      ]);
    }
    if (!account.isActive) {
      const message = `carrier account "${account.name}" is inactive`;
      throw new ApiError(400, 'CARRIER_ACCOUNT_INACTIVE', `Cannot buy a label: ${message}`, [
        { field: 'carrierAccountId', message, code: 'CARRIER_ACCOUNT_INACTIVE' },
      ]);
    }

    const origin = resolveOrigin(
      state,
      ctx.tenantId,
      shipment.shipFrom,
      body.shippingSiteId,
      shipment.returnType !== undefined,
    );
    // As for rates: an account kept to some sites does not buy from another (LOCATION_NOT_ALLOWED).
    const siteId = origin.site?.id;
    if (!mayShipFrom(account, siteId)) {
      const message = `carrier account "${account.name}" may not ship from site "${siteId}"`;
      throw new ApiError(400, 'LOCATION_NOT_ALLOWED', `Cannot buy a label: ${message}`, [
        { field: 'carrierAccountId', message, code: 'LOCATION_NOT_ALLOWED' },
      ]);
    }

    const now = clock.nowMs();
    const international = isInternational(origin.shipFrom, shipment.shipTo);
    const priceInput = {
      serviceLevel: body.serviceLevel,
      packages: shipment.packages,
      fromPostal: origin.shipFrom.postalCode,
      toPostal: shipment.shipTo.postalCode,
      residential: shipment.shipTo.isResidential === true,
      international,
      surcharges: shipment.packages.map(
        (pkg) => packageSurcharges(shipment, pkg, international).amount,
      ),
    };
    const computed = price(priceInput);
    const quote = body.rateQuoteId ? state.quotes.get(body.rateQuoteId) : undefined;
    // A quote is the price of the shipment that was rated: another shipment is priced afresh.
    const quoted =
      quote &&
      quote.tenantId === ctx.tenantId &&
      quote.carrierAccountId === account.id &&
      quote.serviceLevel === body.serviceLevel &&
      quote.expiresAtMs > now &&
      quote.priced === priceKey(priceInput)
        ? quote
        : undefined;
    const amount = quoted?.amount ?? computed.amount;
    const transitDays = quoted?.transitDays ?? computed.transitDays;

    const labelId = newId('lbl');
    const createdAt = clock.iso();
    const orderReference = body.orderReference ?? shipment.orderReference ?? null;
    const serviceName = serviceLevelName(body.serviceLevel);
    const packages: LabelRecord['packages'] = [];
    const blocks: string[] = [];
    shipment.packages.forEach((pkg, i) => {
      const trackingNumber = trackingNumbers.next(conn.carrier);
      const tracker = trackers.create({
        trackingNumber,
        carrier: conn.carrier,
        serviceLevel: body.serviceLevel,
        tenantId: ctx.tenantId,
        labelId,
        orderReference,
        transitDays,
        shipFrom: origin.shipFrom,
        shipTo: shipment.shipTo,
      });
      packages.push({ trackingNumber, trackerId: tracker.id });
      blocks.push(
        zplForPackage({
          shipFrom: origin.shipFrom,
          shipTo: shipment.shipTo,
          serviceName,
          serviceLevel: body.serviceLevel,
          trackingNumber,
          weightLbs: billableWeight(pkg),
          packageIndex: i + 1,
          packageCount: shipment.packages.length,
          orderReference,
          createdAt,
          ...labelExtras(shipment, pkg, international),
        }),
      );
    });
    const first = packages[0]!;
    const zpl = `${blocks.join('\n')}\n`;
    const record: LabelRecord = {
      id: labelId,
      tenantId: ctx.tenantId,
      carrierAccountId: account.id,
      carrier: conn.carrier,
      serviceLevel: body.serviceLevel,
      orderReference,
      trackingNumber: first.trackingNumber,
      packages,
      amount,
      zpl,
      shippingSiteId: origin.site?.id ?? origin.shipFrom.siteId ?? null,
      manifestId: null,
      createdAt,
    };
    state.labels.set(labelId, record);
    state.ledger.push({
      id: labelId,
      tenantId: ctx.tenantId,
      carrierAccountId: account.id,
      serviceLevel: body.serviceLevel,
      orderReference,
      trackingNumber: first.trackingNumber,
      amount,
      currency: 'USD',
      batchId: typeof shipment.batchId === 'string' ? shipment.batchId : null,
      createdAt,
    });

    const inline = body.labelOptions?.inline === true;
    return reply.code(201).send({
      id: labelId,
      trackingNumber: first.trackingNumber,
      trackerId: first.trackerId,
      carrier: conn.carrier,
      serviceLevel: body.serviceLevel,
      serviceLevelName: serviceName,
      carrierAccountId: account.id,
      orderReference,
      rateQuoteId: quoted?.id ?? null,
      cost: { amount, currency: 'USD' },
      labelFormat: 'ZPL',
      labelSize: '4x6',
      ...(inline ? { labelData: Buffer.from(zpl, 'utf8').toString('base64') } : {}),
      labelUrl: `${baseUrlOf(request)}/api/v1/labels/${labelId}/zpl`,
      packages,
      ...(shipment.returnType ? { returnType: shipment.returnType } : {}),
      mode: body.mode ?? 'TEST',
      createdAt,
    });
  });

  app.get<{ Params: { id: string } }>('/api/v1/labels/:id/zpl', async (request, reply) => {
    const ctx = world.auth(request, { tenantHeader: 'required' });
    const label = state.labels.get(request.params.id);
    if (!label || !state.isSelfOrDescendant(label.tenantId, ctx.tenantId)) {
      throw notFound(`Label "${request.params.id}"`);
    }
    return reply.type('text/plain; charset=utf-8').send(label.zpl);
  });
}

/** What a label prints beyond the addresses: messages, options, hazmat, customs, return. */
function labelExtras(
  shipment: Record<string, unknown>,
  pkg: Record<string, unknown>,
  international: boolean,
): { messages: string[]; marks: string[] } {
  const options = optionsOf(shipment, pkg);
  const messages = ['customMessage1', 'customMessage2', 'customMessage3']
    .map((k) => options[k])
    .filter((m): m is string => typeof m === 'string' && m.trim() !== '');
  const marks = packageSurcharges(shipment, pkg, international).names.map((n) => n.toUpperCase());
  if (international && typeof options.incoTerm === 'string')
    marks.push(`INCOTERM ${options.incoTerm}`);
  if (typeof shipment.returnType === 'string') marks.unshift(`RETURN (${shipment.returnType})`);
  return { messages, marks };
}
