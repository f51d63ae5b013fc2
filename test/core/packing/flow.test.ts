import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { waitUntil } from '../../support/virtual-printer.js';
import { waitForLabels } from '../../support/virtual-printer.js';
import { useSandbox } from '../../support/sandbox.js';
import { harborProfile, lumenProfile } from './support/station.js';
import { ledger, ledgerFor, orderId, stationFor } from './support/harness.js';

const sb = useSandbox();

describe('packing flow against the sandbox', () => {
  it('a brand: scan, weigh, rate, buy, print; a rescan offers the label; another needs confirmation', async () => {
    const station = await stationFor((printers) => lumenProfile(sb.url, printers));
    station.importSamples();
    const { workflow } = station;

    const scan = workflow.lookup('  LUM-10421 ');
    expect(scan).toMatchObject({ kind: 'order', labels: [], openPurchases: [] });
    const result = await workflow.ship(orderId(station, 'LUM-10421'), {
      packages: [{ weightLbs: 2.1, box: 'BOX-S' }],
      stationUser: 'ana',
    });
    if (result.outcome !== 'printed') throw new Error(JSON.stringify(result));
    const { label, selection } = result;
    expect(label.tenantId).toBe('tnt_lumen');
    expect(label.costCents).toBe(Math.round(selection.rate.amount * 100));
    expect(label.serviceLevel).toBe(selection.rate.serviceLevel);
    expect(selection.reason).toMatch(/cheapest of \d+ rates/);
    // Lumen's FedEx connection is PENDING: reported with where to finish the OAuth flow.
    expect(result.carrierProblems).toContainEqual(
      expect.objectContaining({
        carrierAccountId: 'ca_lumen_fedex',
        authorizationStatus: 'PENDING',
        oauthUrl: expect.stringContaining('/sandbox/oauth/'),
      }),
    );
    // The label came out of the (virtual) printer, and the platform sold exactly one.
    const [printed] = await waitForLabels(station.printer, 1);
    expect(printed!.zpl).toContain(label.trackingNumber);
    const sold = await ledgerFor(sb.url, 'LUM-10421');
    expect(sold).toEqual([
      expect.objectContaining({
        trackingNumber: label.trackingNumber,
        tenantId: 'tnt_lumen',
        orderReference: label.orderReference,
      }),
    ]);
    // The weight the packer typed is what was bought.
    expect(result.shipment.shipment.packages[0]!.weightLbs).toBe(2.1);

    // Second scan: the label is offered for reprint, not bought again.
    const again = workflow.lookup('LUM-10421');
    expect(again.kind === 'order' && again.labels.map((l) => l.trackingNumber)).toEqual([
      label.trackingNumber,
    ]);
    const second = await workflow.ship(orderId(station, 'LUM-10421'), {
      packages: [{ weightLbs: 2.1 }],
    });
    expect(second.outcome).toBe('already-labelled');
    expect(await ledgerFor(sb.url, 'LUM-10421')).toHaveLength(1);
    // Scanning the tracking number opens the label.
    expect(workflow.lookup(label.trackingNumber)).toMatchObject({
      kind: 'label',
      label: { id: label.id },
    });
    // With an explicit confirmation a second label is bought.
    const confirmed = await workflow.ship(orderId(station, 'LUM-10421'), {
      packages: [{ weightLbs: 2.1 }],
      stationUser: 'ana',
      confirmAnotherLabel: true,
    });
    expect(confirmed.outcome).toBe('printed');
    expect(await ledgerFor(sb.url, 'LUM-10421')).toHaveLength(2);
  });

  it('refuses bad weights clearly before calling the platform, and answers garbage scans with not-found', async () => {
    const station = await stationFor((printers) => lumenProfile(sb.url, printers));
    station.importSamples();
    const { workflow } = station;
    const before = (await ledger(sb.url)).length;
    const id = orderId(station, 'LUM-10422');
    for (const weightLbs of [0, -1, Number.NaN, 151]) {
      const result = await workflow.ship(id, { packages: [{ weightLbs }] });
      expect(result).toMatchObject({ outcome: 'invalid', failure: { code: 'invalid-weight' } });
    }
    expect(await workflow.ship(id, { packages: [] })).toMatchObject({
      outcome: 'invalid',
      failure: { code: 'package-count-mismatch' },
    });
    const multi = orderId(station, 'LUM-10424');
    const missing = await workflow.ship(multi, { packages: [{ weightLbs: 6 }, { weightLbs: 0 }] });
    expect(missing).toMatchObject({
      outcome: 'invalid',
      failure: { message: expect.stringMatching(/Package 2 of 2/) },
    });
    for (const garbage of [
      '',
      '   ',
      'x'.repeat(500),
      '\u0000\u001b[2J',
      'NO-SUCH-ORDER',
      "' OR 1=1 --",
    ])
      expect(workflow.lookup(garbage).kind).toBe('not-found');
    expect((await ledger(sb.url)).length).toBe(before);
  });

  it('a 3PL ships for two brands, each under its own tenant, including a multi-package order', async () => {
    const station = await stationFor((printers) => harborProfile(sb.url, printers));
    station.importSamples();
    const { workflow } = station;
    const results = [];
    for (const number of ['DW-55012', 'PC-8801', 'DW-55013']) {
      const result = await workflow.ship(orderId(station, number), { stationUser: 'lee' });
      if (result.outcome !== 'printed') throw new Error(`${number}: ${JSON.stringify(result)}`);
      results.push(result);
    }
    expect(results.map((r) => r.label.tenantId)).toEqual([
      'tnt_driftwood',
      'tnt_pinecrest',
      'tnt_driftwood',
    ]);
    const sold = await ledger(sb.url);
    for (const r of results)
      expect(sold.filter((e) => e.orderReference === r.label.orderReference)).toEqual([
        expect.objectContaining({
          tenantId: r.label.tenantId,
          trackingNumber: r.label.trackingNumber,
        }),
      ]);
    // Driftwood's shared UPS connection is EXPIRED: reported, not silently dropped.
    expect(results[0]!.carrierProblems).toContainEqual(
      expect.objectContaining({
        carrierAccountId: 'ca_driftwood_ups',
        authorizationStatus: 'EXPIRED',
      }),
    );
    // The order asked for FedEx service levels, and got one.
    expect(results[2]!.label.serviceLevel).toMatch(/^FEDEX_/);
    const multi = results[2]!.label;
    expect(multi.packageTrackingNumbers).toHaveLength(2);
    expect(workflow.lookup(multi.packageTrackingNumbers[1]!)).toMatchObject({
      kind: 'label',
      label: { id: multi.id },
    });
    const printed = await waitForLabels(station.printer, 4); // 1 + 1 + a 2-package document
    expect(printed.map((p) => p.zpl).join('\n')).toContain(multi.packageTrackingNumbers[1]!);
    // Brand search in the label cache.
    expect(
      workflow.labels
        .search(workflow.scope, { tenantId: 'tnt_pinecrest' })
        .labels.map((l) => l.orderNumber),
    ).toEqual(['PC-8801']);
  });

  it('a double scan while the first is still buying does not start a second purchase', async () => {
    const station = await stationFor((printers) => lumenProfile(sb.url, printers));
    station.importSamples();
    const id = orderId(station, 'LUM-10426');
    const [a, b] = await Promise.all([
      station.workflow.ship(id, { packages: [{ weightLbs: 8 }] }),
      station.workflow.ship(id, { packages: [{ weightLbs: 8 }] }),
    ]);
    expect([a.outcome, b.outcome]).toEqual(['printed', 'invalid']);
    expect(b).toMatchObject({ failure: { code: 'order-busy' } });
    expect(await ledgerFor(sb.url, 'LUM-10426')).toHaveLength(1);
  });

  it('prints a packing slip on the receipt printer after the label when the profile asks for one', async () => {
    // A network receipt printer: it takes ESC/POS bytes and answers nothing.
    const received: Buffer[] = [];
    const receipt = createServer((socket) => socket.on('data', (c: Buffer) => received.push(c)));
    await new Promise<void>((resolve) => receipt.listen(0, '127.0.0.1', resolve));
    const address = receipt.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const station = await stationFor((printers) =>
        lumenProfile(
          sb.url,
          [
            ...printers,
            {
              id: 'slip',
              name: 'Receipt',
              kind: 'network',
              role: 'receipt',
              host: '127.0.0.1',
              port,
            },
          ],
          { packingSlips: { footer: 'Thank you from Lumen' } },
        ),
      );
      station.importSamples();
      const result = await station.workflow.ship(orderId(station, 'LUM-10424'), {
        packages: [{ weightLbs: 6.2 }, { weightLbs: 3.1 }],
        stationUser: 'ana',
      });
      if (result.outcome !== 'printed') throw new Error(JSON.stringify(result));
      await waitForLabels(station.printer, 2);
      await waitUntil(() => Buffer.concat(received).toString('latin1').includes('LUM-10424'));
      await waitUntil(() =>
        station.spool.list({ printerId: 'slip' }).some((j) => j.state === 'printed'),
      );
      const slip = Buffer.concat(received).toString('latin1');
      expect(slip).toContain('Order LUM-10424');
      expect(slip).toMatch(/1 +Winter gift trio +GIFT-TRIO/);
      expect(slip).toMatch(/2 +Pine candle 12 oz +CNDL-PINE-12/);
      expect(slip).toContain(`Tracking: ${result.label.trackingNumber}`);
      expect(slip).toContain('ana');
      expect(slip).toContain('Thank you from Lumen');
      expect(station.spool.list({ printerId: 'slip' }).map((j) => j.kind)).toEqual(['slip']);
      // The labels went to the label printer only.
      expect(station.printer.labels).toHaveLength(2);
    } finally {
      receipt.close();
    }
  });
});
