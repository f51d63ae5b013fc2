import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OrderRepository } from '../../../src/core/orders/order-repository.js';
import { ShipmentRepository } from '../../../src/core/packing/shipment-repository.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import type { StationScope } from '../../../src/core/storage/scope.js';
import { tempDir } from '../../support/tmp.js';

const scope: StationScope = { profileId: 'lumen', environment: 'sandbox' };

describe('shipments as the packing path writes them', () => {
  it('create and setRated hand back what reading the shipment gives', () => {
    const db = openDatabase(join(tempDir(), 'station.db'));
    const orders = new OrderRepository(db);
    orders.upsert(
      scope,
      'tnt_lumen',
      {
        orderNumber: 'SR-1',
        shipTo: { addressLine1: '1 A St', city: 'Reno', postalCode: '89501', countryCode: 'US' },
        packages: [{ weightLbs: 2, items: [] }],
      },
      'test',
    );
    const order = orders.findByNumber(scope, 'SR-1')[0]!;
    const shipments = new ShipmentRepository(db);
    const shipment = {
      shipTo: {
        name: 'Ann',
        addressLine1: '1 A St',
        city: 'Reno',
        postalCode: '89501',
        countryCode: 'US',
      },
      shipFrom: {
        name: 'Dock',
        addressLine1: '2 B St',
        city: 'Chicago',
        postalCode: '60601',
        countryCode: 'US',
      },
      packages: [{ weightLbs: 2 }],
    };
    const created = shipments.create(scope, {
      tenantId: 'tnt_lumen',
      orderId: order.id,
      state: 'ready',
      shipment,
      stationUser: 'ann',
    });
    expect(shipments.get(created.id)).toEqual(created);
    const queued = shipments.create(scope, {
      tenantId: 'tnt_lumen',
      orderId: order.id,
      state: 'queued',
      shipment,
      stationUser: null,
    });
    expect(shipments.get(queued.id)).toEqual(queued);

    const rates = {
      shipmentRates: [{ rateQuoteId: 'rq', carrierAccount: { id: 'ca' } }],
      rateErrors: [],
    };
    const selection = { rate: rates.shipmentRates[0]!, reason: 'cheapest' };
    const ratedAt = shipments.setRated(created.id, rates, selection as never);
    expect(shipments.ratedAt(created.id)).toBe(ratedAt);
    expect(shipments.get(created.id)).toMatchObject({
      state: 'rated',
      rates,
      selection,
      updatedAt: ratedAt,
    });
    db.close();
  });
});
