import { describe, expect, it } from 'vitest';
import { waitForLabels } from '../../support/virtual-printer.js';
import { useSandbox } from '../../support/sandbox.js';
import { lumenProfile } from './support/station.js';
import { ledgerFor, orderId, stationFor } from './support/harness.js';

const sb = useSandbox();
const labels = '/api/v1/labels';

describe('label purchase faults: unknown, never bought again by itself', () => {
  it.each([
    ['a 500 after the label was bought', { kind: 'status', status: 500 }],
    ['a connection reset after the label was bought', { kind: 'reset' }],
    ['a hang after the label was bought', { kind: 'hang' }],
  ] as const)(
    '%s: unknown; a rescan needs attention; look-up finds and prints the label',
    async (_, fault) => {
      sb.clearFaults();
      const station = await stationFor((p) => lumenProfile(sb.url, p), { labelTimeoutMs: 700 });
      station.importSamples();
      const { workflow, attention } = station;
      const id = orderId(station, 'LUM-10423');
      sb.fault({ method: 'POST', path: labels, times: 1, after: true, ...fault });

      const before = (await ledgerFor(sb.url, 'LUM-10423')).length;
      const result = await workflow.ship(id, { packages: [{ weightLbs: 3 }], stationUser: 'ana' });
      if (result.outcome !== 'unknown') throw new Error(JSON.stringify(result));
      expect(result.failure.code).toBe('purchase-outcome-unknown');
      // What the shift lead reads: the order reference, the outcome said once, what to do.
      expect(result.failure.message).toContain(result.purchase.orderReference);
      expect(result.failure.message.match(/may or may not have been bought/g)).toHaveLength(1);
      expect(result.failure.message).toMatch(/Needs attention/);
      // The platform did sell this attempt's label; only the answer was lost.
      const sold = (await ledgerFor(sb.url, 'LUM-10423')).filter(
        (e) => e.orderReference === result.purchase.orderReference,
      );
      expect(sold).toHaveLength(1);

      // Rescanning does not buy again: it points at Needs attention.
      expect(await workflow.ship(id, { packages: [{ weightLbs: 3 }] })).toMatchObject({
        outcome: 'needs-attention',
      });
      expect(
        await workflow.ship(id, { packages: [{ weightLbs: 3 }], confirmAnotherLabel: true }),
      ).toMatchObject({
        outcome: 'needs-attention',
      });
      expect(workflow.lookup('LUM-10423')).toMatchObject({
        kind: 'order',
        openPurchases: [{ state: 'unknown' }],
      });
      expect(await ledgerFor(sb.url, 'LUM-10423')).toHaveLength(before + 1);

      const [item] = attention.list();
      expect(item).toMatchObject({
        orderNumber: 'LUM-10423',
        orderReference: sold[0]!.orderReference,
      });
      const found = await attention.lookUp(item!.purchase.id, 'rosa');
      if (!found.found) throw new Error(found.message);
      expect(found.label.trackingNumber).toBe(sold[0]!.trackingNumber);
      expect(found.printed).toBe(true);
      const [printed] = await waitForLabels(station.printer, 1);
      expect(printed!.zpl).toContain(sold[0]!.trackingNumber);
      expect(attention.list()).toEqual([]);
      expect(workflow.shipments.purchase(item!.purchase.id)).toMatchObject({
        state: 'purchased',
        resolution: 'found on the platform',
        resolvedBy: 'rosa',
      });
      expect(await workflow.ship(id, { packages: [{ weightLbs: 3 }] })).toMatchObject({
        outcome: 'already-labelled',
      });
      expect(await ledgerFor(sb.url, 'LUM-10423')).toHaveLength(before + 1);
    },
  );

  it('a 500 before anything was bought: unknown; look-up finds nothing; marked not bought, the next scan buys one', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    const { workflow, attention } = station;
    const id = orderId(station, 'LUM-10425');
    sb.fault({ method: 'POST', path: labels, times: 1, kind: 'status', status: 500 });
    expect(await workflow.ship(id, { packages: [{ weightLbs: 1 }] })).toMatchObject({
      outcome: 'unknown',
    });
    expect(await ledgerFor(sb.url, 'LUM-10425')).toEqual([]);
    const [item] = attention.list();
    const lookUp = await attention.lookUp(item!.purchase.id, 'rosa');
    expect(lookUp).toMatchObject({
      found: false,
      message: expect.stringMatching(/no label for LUM-10425-/),
    });
    attention.markNotBought(item!.purchase.id, 'rosa', 'checked the platform: nothing bought');
    expect(workflow.shipments.purchase(item!.purchase.id)).toMatchObject({
      state: 'not-bought',
      resolvedBy: 'rosa',
    });
    expect(await workflow.ship(id, { packages: [{ weightLbs: 1 }] })).toMatchObject({
      outcome: 'printed',
    });
    expect(await ledgerFor(sb.url, 'LUM-10425')).toHaveLength(1);
  });

  it('rated before the platform went down: Buy queues it while the station knows it is away, nothing is sent or left unknown', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    const { workflow, attention, client } = station;
    // Rated while the platform answered (a scan, or the pre-rater after the import).
    const rated = await workflow.rate(orderId(station, 'LUM-10421'), {
      packages: [{ weightLbs: 2 }],
    });
    if (rated.outcome !== 'rated') throw new Error(JSON.stringify(rated));
    // Then every request fails: the next packers' scans find it away, and the station says so.
    sb.fault({ path: '/api/v1', kind: 'status', status: 500 });
    for (const n of ['LUM-10422', 'LUM-10423', 'LUM-10424'])
      await workflow.ship(orderId(station, n), { packages: [{ weightLbs: 2 }] });
    expect(client.connectivity.reachable).toBe(false);

    // Ctrl+Enter on the order rated before: queued, as the header promises, not sent to fail.
    const bought = await workflow.buy(rated.shipment.id, { stationUser: 'ana' });
    expect(bought).toMatchObject({
      outcome: 'queued',
      failure: {
        code: 'platform-unreachable',
        message: expect.stringMatching(/Nothing was sent or bought: the shipment was queued/),
      },
    });
    expect(attention.list()).toEqual([]);
    expect(await ledgerFor(sb.url, 'LUM-10421')).toEqual([]);

    // Once the platform answers, the queue buys it, once.
    sb.clearFaults();
    expect(await workflow.continueQueued(rated.shipment.id)).toMatchObject({ outcome: 'printed' });
    expect(await ledgerFor(sb.url, 'LUM-10421')).toHaveLength(1);
    expect(attention.list()).toEqual([]);
  });

  it('buying again from Needs attention needs an explicit confirmation', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    const { workflow, attention } = station;
    const id = orderId(station, 'LUM-10426');
    sb.fault({ method: 'POST', path: labels, times: 1, kind: 'reset' });
    expect(await workflow.ship(id, { packages: [{ weightLbs: 8 }] })).toMatchObject({
      outcome: 'unknown',
    });
    const [item] = attention.list();
    await expect(
      attention.buyAgain(item!.purchase.id, { stationUser: 'rosa', confirm: false }),
    ).rejects.toMatchObject({
      code: 'confirmation-required',
    });
    expect(await ledgerFor(sb.url, 'LUM-10426')).toEqual([]);
    const again = await attention.buyAgain(item!.purchase.id, {
      stationUser: 'rosa',
      confirm: true,
    });
    expect(again.outcome).toBe('printed');
    expect(await ledgerFor(sb.url, 'LUM-10426')).toHaveLength(1);
    expect(workflow.shipments.purchase(item!.purchase.id)!.resolution).toMatch(
      /bought again on confirmation by rosa/,
    );
  });

  it('a 4xx is a failure with the platform reasons, nothing bought, and the order can be shipped again', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    const { workflow } = station;
    const id = orderId(station, 'LUM-10422');
    // The connection the rule would pick lapses between rating and buying.
    const first = await workflow.ship(id, { packages: [{ weightLbs: 3 }] });
    if (first.outcome !== 'printed') throw new Error(JSON.stringify(first));
    const carrierAccountId = first.outcome === 'printed' ? first.label.carrierAccountId : '';
    const connection = sb.sandbox.fixtures.carrierAccounts.find(
      (a) => a.id === carrierAccountId,
    )!.carrierAccountConnectionId;
    let lapse = true;
    const hooked = await stationFor((p) => lumenProfile(sb.url, p), {
      hooks: {
        at: (step) => {
          if (step !== 'rated' || !lapse) return;
          sb.sandbox.setConnectionStatus(connection, 'EXPIRED');
          lapse = false;
        },
      },
    });
    hooked.importSamples();
    try {
      const result = await hooked.workflow.ship(orderId(hooked, 'LUM-10422'), {
        packages: [{ weightLbs: 3 }],
      });
      expect(result).toMatchObject({
        outcome: 'failed',
        failure: {
          code: 'CONNECTION_NOT_AUTHORIZED',
          // The client's own sentence, not prefixed again with "The platform refused the label".
          message: expect.stringMatching(
            /^The carrier connection is not authorized, so it cannot be used for the label: .*EXPIRED.*\(ref cor_/,
          ),
        },
      });
      const purchases = hooked.workflow.shipments.purchasesForOrder(orderId(hooked, 'LUM-10422'));
      expect(purchases).toMatchObject([
        { state: 'failed', failure: { code: 'CONNECTION_NOT_AUTHORIZED' } },
      ]);
    } finally {
      sb.sandbox.setConnectionStatus(connection, 'AUTHORIZED');
    }
    expect(await ledgerFor(sb.url, 'LUM-10422')).toHaveLength(1); // only the first station's
    const retry = await hooked.workflow.ship(orderId(hooked, 'LUM-10422'), {
      packages: [{ weightLbs: 3 }],
    });
    expect(retry.outcome).toBe('printed');
  });
  it('a 429 on the label request is not taken as bought: unknown, and said as almost certainly not bought', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    const id = orderId(station, 'LUM-10425');
    sb.fault({ method: 'POST', path: labels, times: 1, kind: 'status', status: 429 });
    const result = await station.workflow.ship(id, { packages: [{ weightLbs: 2 }] });
    if (result.outcome !== 'unknown') throw new Error(JSON.stringify(result));
    expect(result.failure.message).toMatch(
      /turned the label away as too many requests \(HTTP 429\): almost certainly nothing was bought, but it did not say so\. Do not buy again; a shift lead looks it up under Needs attention/,
    );
  });

  it('a rate shown before its carrier account lapsed is not bought, nor another carrier in its place; rating again shows what the rule chooses now', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    const { workflow } = station;
    const id = orderId(station, 'LUM-10422');
    await station.health.refresh();
    // The sandbox is the file's: other tests' labels of this order are already in its ledger.
    const before = (await ledgerFor(sb.url, 'LUM-10422')).length;
    const quote = await workflow.rate(id, { packages: [{ weightLbs: 2.5 }], stationUser: 'ana' });
    if (quote.outcome !== 'rated') throw new Error(JSON.stringify(quote));
    const shown = quote.selection.rate.carrierAccount.id;
    const connection = sb.sandbox.fixtures.carrierAccounts.find(
      (a) => a.id === shown,
    )!.carrierAccountConnectionId;
    // The connection expires while the packer looks at the rates; the station reads the
    // accounts again (the banner's refresh).
    sb.sandbox.setConnectionStatus(connection, 'EXPIRED');
    try {
      await station.health.refresh();
      const bought = await workflow.buy(quote.shipment.id, { stationUser: 'ana' });
      expect(bought).toMatchObject({
        outcome: 'invalid',
        failure: {
          code: 'rate-account-lapsed',
          message: expect.stringMatching(
            /^Nothing was bought: carrier account ".+" is EXPIRED since these rates were shown, so its rate cannot be bought\. Press Enter to rate order LUM-10422 again/,
          ),
        },
      });
      expect(await ledgerFor(sb.url, 'LUM-10422')).toHaveLength(before);

      const again = await workflow.rate(id, { packages: [{ weightLbs: 2.5 }], stationUser: 'ana' });
      if (again.outcome !== 'rated') throw new Error(JSON.stringify(again));
      expect(again.selection.rate.carrierAccount.id).not.toBe(shown);
      expect((await workflow.buy(again.shipment.id, { stationUser: 'ana' })).outcome).toBe(
        'printed',
      );
    } finally {
      sb.sandbox.setConnectionStatus(connection, 'AUTHORIZED');
    }
  });
});
