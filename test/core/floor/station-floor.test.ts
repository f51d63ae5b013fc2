import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { BatchView } from '../../../src/shared/views.js';
import { call, demoStationsPerTest, scanOrder, until } from '../station/support.js';

const stations = demoStationsPerTest();

const file = [
  'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,package,weight_lbs,sku,item_name,quantity,upc,image_url',
  'FLR-1,Ann Lee,1 Main St,Evanston,IL,60201,US,1,1.2,MUG-BLUE,Blue mug,2,012345678905,https://img.example.com/mug.png',
  'FLR-2,Bo Diaz,2 Main St,Austin,TX,78702,US,1,0.8,TEA-1,Tea tin,1,,',
  'FLR-3,Cy Park,3 Main St,Boston,MA,02110,US,1,,TEA-1,Tea tin,1,,',
].join('\n');

async function started() {
  const { s } = await stations.start();
  await call(s, 'orders.import', { fileName: 'floor.csv', content: file });
  return s;
}

describe('the packing floor through the contract (#15)', () => {
  it('verifies by scan, refuses Buy until verified when the profile requires it, override with a reason', async () => {
    const s = await started();
    const profile = (await call(s, 'profiles.list', {})).find((p) => p.active)!;
    const updated = await call(s, 'profiles.update', {
      id: profile.id,
      requireItemVerification: true,
    });
    expect(updated.requireItemVerification).toBe(true);

    const scan = await scanOrder(s, 'FLR-1');
    expect(scan.verification).toMatchObject({
      required: true,
      verified: false,
      lines: [
        {
          sku: 'MUG-BLUE',
          barcode: '012345678905',
          imageUrl: 'https://img.example.com/mug.png',
          quantity: 2,
          scanned: 0,
        },
      ],
    });
    const quote = await call(s, 'pack.rate', {
      orderId: scan.order.id,
      packages: [{ weightLbs: 1.2, boxId: null }],
    });
    const refused = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'validation',
        message: expect.stringMatching(/FLR-1 is not verified.*MUG-BLUE 0 of 2/),
      },
    });

    const wrong = await call(s, 'verify.scan', { orderId: scan.order.id, value: 'TEA-1' });
    expect(wrong).toMatchObject({
      outcome: 'wrong-item',
      message: expect.stringMatching(/TEA-1 is not in this order/),
    });
    const two = await call(s, 'verify.scan', {
      orderId: scan.order.id,
      value: '012345678905',
      quantity: 2,
    });
    expect(two).toMatchObject({
      outcome: 'counted',
      message: '2 × MUG-BLUE: 2 of 2. Every item is in the box.',
    });
    expect(two.verification.verified).toBe(true);
    const bought = await call(s, 'pack.buy', { shipmentId: quote.shipmentId });
    expect(bought.label?.trackingNumber).toBeTruthy();

    // Override: a name and a reason of a few characters.
    const scan2 = await scanOrder(s, 'FLR-2');
    const noReason = await s.dispatch('verify.override', {
      orderId: scan2.order.id,
      by: 'Lee',
      reason: '',
    });
    expect(noReason).toMatchObject({ ok: false, error: { code: 'validation' } });
    const over = await call(s, 'verify.override', {
      orderId: scan2.order.id,
      by: 'Lee',
      reason: 'scanner broken',
    });
    expect(over).toMatchObject({
      verified: true,
      override: { by: 'Lee', reason: 'scanner broken' },
    });

    const page = await call(s, 'orders.page', { statuses: [], limit: 50, offset: 0 });
    expect(page.counts).toMatchObject({ labelled: 1, verified: 1 });
    expect(page.rows.find((r) => r.orderNumber === 'FLR-2')).toMatchObject({
      status: 'verified',
      units: 1,
    });
  });

  it('a batch from a filter buys every open single-item order with a weight and reports progress', async () => {
    const { s, sandbox } = await stations.start();
    await call(s, 'orders.import', { fileName: 'floor.csv', content: file });
    const heard: BatchView[] = [];
    s.onEvent((name, payload) => {
      if (name === 'batch-progress') heard.push(payload as BatchView);
    });
    const started_ = await call(s, 'batch.start', {
      filter: { statuses: ['open'], singleItem: true, weightKnown: true, search: 'FLR' },
      description: 'single items',
    });
    expect(started_.total).toBe(1); // FLR-2 (FLR-1 has two mugs, FLR-3 no weight)
    const done = await until(() => heard.find((b) => b.id === started_.id && b.state === 'done'));
    expect(done).toMatchObject({
      bought: 1,
      failed: 0,
      items: [{ orderNumber: 'FLR-2', state: 'bought' }],
    });
    expect(done.cost).toBeGreaterThan(0);
    expect((await call(s, 'batch.list', {}))[0]).toMatchObject({ id: started_.id, state: 'done' });

    // End of day counts it; CSV and the receipt printer.
    const today = new Date().toISOString().slice(0, 10);
    const day = await call(s, 'endOfDay.summary', { from: today, to: today });
    expect(day.labels).toBe(1);
    expect(day.cost).toBe(done.cost);
    expect(day.onManifest).toBe(0);
    const csv = await call(s, 'endOfDay.csv', { from: today, to: today });
    expect(csv.fileName).toBe(`end-of-day-${today}.csv`);
    expect(csv.csv.split('\r\n')[1]).toMatch(
      // …, labels, cost, packages, return labels, return cost, voided labels, voided cost.
      new RegExp(`^${today},[A-Z]+,.*,1,${done.cost.toFixed(2)},1,0,0\\.00,0,0\\.00$`),
    );

    // The manifest: one per brand and carrier; a second close-out has nothing new; a platform
    // without the endpoint (404) is said in words, not as an error.
    const manifest = await call(s, 'endOfDay.manifest', { from: today, to: today });
    expect(manifest).toMatchObject({ offered: true, message: '1 of 1 manifest made.' });
    expect(manifest.manifests[0]).toMatchObject({
      labels: 1,
      manifestId: expect.stringMatching(/^mf_/),
    });
    // Recorded: the close-out question counts it as on a manifest already.
    expect((await call(s, 'endOfDay.summary', { from: today, to: today })).onManifest).toBe(1);
    const again = await call(s, 'endOfDay.manifest', { from: today, to: today });
    // Said as a close-out already done, not as a refusal.
    expect(again.message).toBe(
      'Already closed out: every label of these days is on a manifest. Nothing new was sent.',
    );
    expect(again.manifests[0]).toMatchObject({
      manifestId: null,
      message: expect.stringMatching(
        /^Already closed out: every \S+ label of .+ is on a manifest\.$/,
      ),
    });
    sandbox().faults.add({
      method: 'POST',
      path: '/api/v1/manifests',
      kind: 'status',
      status: 404,
    });
    const absent = await call(s, 'endOfDay.manifest', { from: today, to: today });
    expect(absent).toMatchObject({ offered: false, manifests: [] });
    expect(absent.message).toMatch(/no manifest endpoint \(it answered 404\)/);
    sandbox().faults.clear();

    const none = await s.dispatch('endOfDay.print', { from: today, to: today });
    expect(none).toMatchObject({
      ok: false,
      error: { code: 'printer-offline', message: expect.stringMatching(/no receipt printer/) },
    });
    let received = '';
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('data', (d) => (received += d.toString('latin1')));
      socket.on('error', () => {});
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    stations.onEnd(async () => {
      for (const x of sockets) x.destroy();
      await new Promise((ok) => server.close(ok));
    });
    await call(s, 'printers.add', {
      name: 'TM-m30',
      host: '127.0.0.1',
      port: (server.address() as { port: number }).port,
      role: 'receipt',
    });
    const job = await call(s, 'endOfDay.print', { from: today, to: today });
    expect(job.printerName).toBe('TM-m30');
    await until(() => received.includes('END OF DAY'));
    expect(received).toContain(`1 label  $${done.cost.toFixed(2)}`);
  });
  it('a manifest leaves out a label the platform refuses and closes out the rest of that carrier', async () => {
    const { s } = await stations.start();
    const twins = [
      'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs,sku,item_name,quantity',
      'MF-1,Bo Diaz,2 Main St,Austin,TX,78702,US,0.8,TEA-1,Tea tin,1',
      'MF-2,Bo Diaz,2 Main St,Austin,TX,78702,US,0.8,TEA-1,Tea tin,1',
      'MF-3,Bo Diaz,2 Main St,Austin,TX,78702,US,0.8,TEA-1,Tea tin,1',
    ].join('\n');
    await call(s, 'orders.import', { fileName: 'twins.csv', content: twins });
    const bought: { trackingNumber: string; carrier: string }[] = [];
    for (const n of ['MF-1', 'MF-2', 'MF-3']) {
      const scan = await scanOrder(s, n);
      const quote = await call(s, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 0.8, boxId: null }],
      });
      const r = await call(s, 'pack.buy', { shipmentId: quote.shipmentId });
      bought.push({ trackingNumber: r.label!.trackingNumber, carrier: r.label!.carrier });
    }
    // The same order, weight and address: the rule picks the same carrier for all three.
    expect(new Set(bought.map((b) => b.carrier)).size).toBe(1);
    // MF-2's label as the platform does not know it (bought against another sandbox, say).
    s.context
      .runtime()
      .workflow.shipments.db.prepare(
        "UPDATE labels SET platform_label_id = 'lbl_not_here' WHERE tracking_number = ?",
      )
      .run(bought[1]!.trackingNumber);

    const today = new Date().toISOString().slice(0, 10);
    const result = await call(s, 'endOfDay.manifest', { from: today, to: today });
    expect(result.message).toBe(
      '1 of 1 manifest made. 1 label left out: the platform refused it (below).',
    );
    const line = result.manifests[0]!;
    expect(line).toMatchObject({
      carrier: bought[0]!.carrier,
      labels: 2,
      manifestId: expect.stringMatching(/^mf_/),
      leftOut: [
        {
          trackingNumber: bought[1]!.trackingNumber,
          orderNumber: 'MF-2',
          reason: expect.stringContaining('lbl_not_here'),
        },
      ],
    });
    expect(line.message).toContain(
      `without 1 label the platform refused: ${bought[1]!.trackingNumber} (order MF-2)`,
    );

    // A second close-out: the two are on a manifest, the unknown one is still left out and said.
    const again = await call(s, 'endOfDay.manifest', { from: today, to: today });
    expect(again.message).toBe(
      'Already closed out: every label of these days that the platform knows is on a manifest. Nothing new was sent. 1 label left out: the platform refused it (below).',
    );
    expect(again.manifests[0]!.leftOut).toEqual([
      expect.objectContaining({ trackingNumber: bought[1]!.trackingNumber }),
    ]);
  });
});
