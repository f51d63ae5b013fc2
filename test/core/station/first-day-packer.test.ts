import { describe, expect, it } from 'vitest';
import { closedPort } from '../../support/ports.js';
import { startVirtualPrinter } from '../../../src/core/printing/virtual-printer/server.js';
import type { Station } from '../../../src/core/station/index.js';
import type { PrinterConfig } from '../../../src/shared/views.js';
import { allPrinted, call, demoStationsPerTest, packOrder, scanOrder, until } from './support.js';

/**
 * Issue 13, what a packer and a shift lead hit on their first day, through the station's
 * contract: a demo station on its embedded sandbox, real SQLite, real TCP printers.
 */

const stations = demoStationsPerTest();
const station = async (): Promise<Station> => (await stations.start()).s;

async function usePrinter(s: Station, printer: PrinterConfig) {
  await call(s, 'profiles.update', {
    id: 'demo',
    printers: [printer],
    defaultPrinterId: printer.id,
  });
}

/** A virtual printer on a TCP port, made the station's label printer; closed after the test. */
async function useVirtualPrinter(s: Station, id: string, name: string, dpi: 203 | 300 = 203) {
  const vp = await startVirtualPrinter({ dpi });
  stations.onEnd(() => vp.close());
  await usePrinter(s, { id, name, kind: 'network', host: '127.0.0.1', port: vp.port, dpi });
  return vp;
}

describe('packer: bought but waiting for the printer (#13.7)', () => {
  it('says amber "bought — waiting for ZD421 (not answering)" when the label printer is down, not "sent"', async () => {
    const s = await station();
    await usePrinter(s, {
      id: 'zd421',
      name: 'ZD421',
      kind: 'network',
      host: '127.0.0.1',
      port: await closedPort(),
      dpi: 203,
    });
    // The header's probe finds out first; that is what a packer sees before scanning.
    await until(async () => {
      const st = await call(s, 'station.status', {});
      return st.printer?.state === 'offline';
    });
    const bought = await packOrder(s, 'LUM-10421');
    expect(bought.outcome).toBe('print-waiting');
    expect(bought.label?.trackingNumber).toBeTruthy();
    expect(bought.message).toBe(
      'Bought — waiting for ZD421 (not answering); it prints when the printer is back.',
    );
    expect(bought.message).not.toMatch(/Sent to/);
  });

  it('still says "Sent to" when the printer answers', async () => {
    const s = await station();
    const bought = await packOrder(s, 'LUM-10421');
    expect(bought.outcome).toBe('printing');
    expect(bought.message).toMatch(/Sent to Virtual printer\.$/);
  });
});

describe('packer: the header follows "Use for labels" at once', () => {
  it('a new label printer is asked at once, not at the next steady probe 10 s later', async () => {
    const s = await station();
    // The demo's virtual printer is ready: the header asks it again only every 10 s.
    await until(async () => (await call(s, 'station.status', {})).printer?.state === 'ready');
    await usePrinter(s, {
      id: 'zd421',
      name: 'ZD421',
      kind: 'network',
      host: '127.0.0.1',
      port: await closedPort(),
      dpi: 203,
    });
    const deadline = Date.now() + 4000;
    let seen: string | undefined;
    while (Date.now() < deadline) {
      const printer = (await call(s, 'station.status', {})).printer;
      seen = `${printer?.printerId}:${printer?.state}`;
      if (seen === 'zd421:offline') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).toBe('zd421:offline');
  });
});

describe('packer: a reprint while the label still waits for its printer', () => {
  it('queues no second copy (two labels with one tracking number); once it printed, a reprint prints', async () => {
    const s = await station();
    const vp = await useVirtualPrinter(s, 'vp', 'ZD421');
    vp.setFault('paper-out');
    await until(async () => (await call(s, 'station.status', {})).printer?.state === 'paper-out');
    const bought = await packOrder(s, 'LUM-10421');
    expect(bought.outcome).toBe('print-waiting');
    // Nothing came out, so the packer asks for a reprint: told why, nothing queued.
    const refused = await s.dispatch('labels.reprint', {
      id: bought.label!.id,
      reason: 'nothing came out',
    });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message: expect.stringMatching(
          new RegExp(
            `^${bought.label!.trackingNumber} has not printed yet: its print job waits for the printer .*No second copy was queued\\. To print it on another printer, move its job in Queue \\(Alt\\+3\\)\\.$`,
          ),
        ),
      },
    });
    // Paper back in: the label prints once.
    vp.setFault(null);
    await until(() => vp.labels.length >= 1);
    await until(async () => (await call(s, 'queue.list', {})).printJobs.length === 0);
    expect(vp.labels).toHaveLength(1);
    // Printed: a reprint is a reprint again.
    await call(s, 'labels.reprint', { id: bought.label!.id, reason: 'smudged' });
    await until(() => vp.labels.length === 2);
  });
});

describe('packer: multi-package orders (#13.9)', () => {
  it("a labelled order rescanned shows the weight it was bought at, not the order file's", async () => {
    const s = await station();
    const scan = await scanOrder(s, 'LUM-10423');
    expect(scan.order.packages[0]!.weightLbs).toBe(2.9);
    const quote = await call(s, 'pack.rate', {
      orderId: scan.order.id,
      packages: [{ weightLbs: 3.4, boxId: null }],
    });
    expect((await call(s, 'pack.buy', { shipmentId: quote.shipmentId })).label).toBeTruthy();
    const rescan = await scanOrder(s, 'LUM-10423');
    expect(rescan.existingLabels).toHaveLength(1);
    expect(rescan.order.packages[0]!.weightLbs).toBe(3.4);
  });

  it('shows every package tracking number and reprints one package or all of them', async () => {
    const s = await station();
    const vp = await useVirtualPrinter(s, 'vp', 'Bench printer');
    const bought = await packOrder(s, 'LUM-10424');
    const label = bought.label!;
    expect(label.packageTrackingNumbers).toHaveLength(2);
    expect(label.packageTrackingNumbers[0]).toBe(label.trackingNumber);
    expect(new Set(label.packageTrackingNumbers).size).toBe(2);
    await until(async () => vp.labels.length === 2);

    // History and a rescan carry both numbers too.
    const page = await call(s, 'labels.search', { query: 'LUM-10424' });
    expect(page.labels[0]!.packageTrackingNumbers).toEqual(label.packageTrackingNumbers);
    const rescan = await scanOrder(s, 'LUM-10424');
    expect(rescan.existingLabels[0]!.packageTrackingNumbers).toEqual(label.packageTrackingNumbers);

    // Package 2 alone: one label out, with the second tracking number on it (once the label's
    // own job is confirmed printed: a reprint of a label still printing is refused).
    await allPrinted(s);
    await call(s, 'labels.reprint', { id: label.id, reason: 'torn', packageIndex: 1 });
    const audit = await call(s, 'labels.audit', { labelId: label.id });
    expect(audit.map((a) => a.reason)).toEqual([
      `torn (package 2 of 2, ${label.packageTrackingNumbers[1]})`,
    ]);
    await until(async () => vp.labels.length === 3);
    expect(vp.labels[2]!.zpl).toContain(label.packageTrackingNumbers[1]!);
    expect(vp.labels[2]!.zpl).not.toContain(label.packageTrackingNumbers[0]!);

    // All of them: two labels out, said so in the audit.
    await allPrinted(s);
    await call(s, 'labels.reprint', { id: label.id, reason: 'both smudged' });
    await until(async () => vp.labels.length === 5);
    expect((await call(s, 'labels.audit', { labelId: label.id })).map((a) => a.reason)).toContain(
      'both smudged (all 2 packages)',
    );

    const missing = await s.dispatch('labels.reprint', {
      id: label.id,
      reason: 'torn',
      packageIndex: 2,
    });
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'not-found', message: expect.stringContaining('no package 3') },
    });
  });
});

describe('shift lead: DPI warnings (#13.19)', () => {
  it('warns when a 203-dpi label is reprinted to a 300-dpi printer', async () => {
    const s = await station();
    const bought = await packOrder(s, 'LUM-10421');
    await allPrinted(s);
    await useVirtualPrinter(s, 'zd621', 'ZD621', 300);
    const job = await call(s, 'labels.reprint', { id: bought.label!.id, reason: 'jammed' });
    expect(job.warnings).toHaveLength(1);
    expect(job.warnings[0]).toMatch(/203-dpi/);
    expect(job.warnings[0]).toMatch(/ZD621 .* 300 dpi/);

    // A new purchase to that printer says it too, before the packer walks to the printer.
    const next = await packOrder(s, 'LUM-10422');
    expect(next.printJob?.warnings).toEqual([expect.stringMatching(/203-dpi/)]);
  });

  it('gives no warning when the label fits the printer', async () => {
    const s = await station();
    const bought = await packOrder(s, 'LUM-10421');
    await allPrinted(s);
    const job = await call(s, 'labels.reprint', { id: bought.label!.id, reason: 'jammed' });
    expect(job.warnings).toEqual([]);
  });
});

describe('shift lead: orders list (#13.21)', () => {
  it('searches by order number and ship-to name, and says which orders are labelled', async () => {
    const s = await station();
    await packOrder(s, 'LUM-10421');
    const all = await call(s, 'orders.list', {});
    expect(all.length).toBeGreaterThan(3);
    expect(all.find((o) => o.orderNumber === 'LUM-10421')?.status).toBe('labelled');
    expect(all.find((o) => o.orderNumber === 'LUM-10422')?.status).toBe('open');

    const byNumber = await call(s, 'orders.list', { search: '10422' });
    expect(byNumber.map((o) => o.orderNumber)).toEqual(['LUM-10422']);
    const byName = await call(s, 'orders.list', { search: 'okafor' });
    expect(byName.map((o) => o.orderNumber)).toEqual(['LUM-10421']);
    expect(byName[0]!.status).toBe('labelled');
    expect(await call(s, 'orders.list', { search: '100%_' })).toEqual([]);
  });
});

describe('shift lead: import errors (#13.22)', () => {
  it('names the row a spreadsheet shows (header = row 1) and the order', async () => {
    const s = await station();
    const header =
      'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_postal_code,ship_to_country,weight_lbs';
    const rows = [
      'OK-1,Ann,1 Main St,Austin,78701,US,1.5',
      'OK-2,Bob,2 Main St,Austin,78701,US,2',
      'BAD-3,Cy,3 Main St,Austin,78701,US,heavy',
    ];
    const report = await call(s, 'orders.import', {
      fileName: 'day.csv',
      content: [header, ...rows].join('\n'),
    });
    expect(report.imported).toBe(2);
    expect(report.errors).toEqual([
      {
        row: 4,
        orderNumber: 'BAD-3',
        field: 'weight_lbs',
        reason: '"heavy" is not a number',
        where: 'row 4 (order BAD-3)',
      },
    ]);
  });

  it('names the order position and number in a JSON file', async () => {
    const s = await station();
    const report = await call(s, 'orders.import', {
      fileName: 'day.json',
      content: JSON.stringify([
        {
          orderNumber: 'J-1',
          shipTo: {
            name: 'Ann',
            addressLine1: '1 Main St',
            city: 'Austin',
            postalCode: '78701',
            countryCode: 'US',
          },
          packages: [{ weightLbs: 1 }],
        },
        { orderNumber: 'J-2', shipTo: { name: 'Bob' }, packages: [{ weightLbs: 1 }] },
      ]),
    });
    expect(report.imported).toBe(1);
    expect(report.errors.length).toBeGreaterThan(0);
    for (const e of report.errors) {
      expect(e.row).toBe(2);
      expect(e.orderNumber).toBe('J-2');
      expect(e.where).toBe('order 2 in the file (J-2)');
    }
  });
});

describe('packer: an address the platform refuses', () => {
  it("a label refused for its ship-to says where it is put right, not only the platform's words", async () => {
    const s = await station();
    const report = await call(s, 'orders.import', {
      fileName: 'noname.csv',
      content:
        'order_number,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs\nNN-1,1 Main St,Austin,TX,78701,US,1.5\n',
    });
    expect(report.imported).toBe(1);
    const scan = await scanOrder(s, 'NN-1');
    const quote = await call(s, 'pack.rate', {
      orderId: scan.order.id,
      packages: [{ weightLbs: 1.5, boxId: null }],
    });
    const bought = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
    expect(bought).toMatchObject({
      ok: false,
      error: {
        message: expect.stringMatching(
          /name.*\(ref [^)]+\)\. The order's ship-to address is what was refused: put it right in the order file \(or the store's order\) and import it again, then scan the order\. Nothing was bought\.$/,
        ),
      },
    });
  });
});
