import { describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase, type Db } from '../../../src/core/storage/database.js';
import type { PurchaseStep } from '../../../src/core/packing/label-purchase.js';
import { useSandbox } from '../../support/sandbox.js';
import { lumenProfile } from './support/station.js';
import { ledgerFor, orderId, stationFor } from './support/harness.js';

const sb = useSandbox();

/** What another connection to the station's file sees: only what has been committed. */
function committed(reader: Db, shipmentId: number) {
  const shipment = reader
    .prepare<[number], { state: string; rates: string | null }>(
      'SELECT state, rates FROM shipments WHERE id = ?',
    )
    .get(shipmentId);
  const events = reader
    .prepare<[number], { kind: string }>(
      'SELECT kind FROM shipment_events WHERE shipment_id = ? ORDER BY id',
    )
    .all(shipmentId)
    .map((e) => e.kind);
  const purchases = reader
    .prepare<[number], { id: string; state: string }>(
      'SELECT id, state FROM label_purchases WHERE shipment_id = ?',
    )
    .all(shipmentId);
  const labels = reader
    .prepare<[number], { n: number }>(
      'SELECT count(*) AS n FROM labels WHERE purchase_id IN (SELECT id FROM label_purchases WHERE shipment_id = ?)',
    )
    .get(shipmentId)!.n;
  const jobs = reader
    .prepare<[], { n: number }>(`SELECT count(*) AS n FROM print_jobs WHERE kind = 'label'`)
    .get()!.n;
  return {
    state: shipment?.state ?? null,
    rated: shipment?.rates != null,
    events,
    purchases: purchases.map((p) => p.state),
    labels,
    jobs,
  };
}

type Seen = Partial<Record<PurchaseStep, ReturnType<typeof committed>>>;

/** A station whose purchase hooks record what a second connection sees at each step. */
async function watchedStation(overrides: Parameters<typeof lumenProfile>[2] = {}) {
  sb.clearFaults();
  const seen: Seen = {};
  const late: { reader?: Db } = {};
  const station = await stationFor((printers) => lumenProfile(sb.url, printers, overrides), {
    hooks: {
      at: (step, { shipmentId }) => {
        if (late.reader) seen[step] = committed(late.reader, shipmentId);
      },
    },
  });
  const reader = openDatabase(station.dbFile, { readonly: true });
  onTestFinished(() => {
    reader.close();
  });
  late.reader = reader;
  station.importSamples();
  return { station, seen, reader };
}

describe('the commits between the platform answers (issue 16.1)', () => {
  it('ship(): the rating goes with the purchase intent, the label with its print job', async () => {
    const { station, seen } = await watchedStation();
    const result = await station.workflow.ship(orderId(station, 'LUM-10421'), {
      stationUser: 'ana',
    });
    expect(result.outcome).toBe('printed');

    // The rates came back: nothing of them is committed yet.
    expect(seen.rated).toMatchObject({ state: 'ready', rated: false, purchases: [] });
    // The intent is committed before the label request, and the rating with it.
    expect(seen['purchase-committed']).toMatchObject({
      state: 'purchasing',
      rated: true,
      purchases: ['purchasing'],
      labels: 0,
    });
    expect(seen['purchase-committed']!.events).toEqual(['created', 'rated', 'purchasing']);
    // Inside the label's transaction, its print job just stored: neither is committed yet.
    expect(seen['print-job-stored']).toMatchObject({
      state: 'purchasing',
      purchases: ['purchasing'],
      labels: 0,
      jobs: 0,
    });
    // Then both at once, the shipment print-queued.
    expect(seen['label-stored']).toMatchObject({
      state: 'print-queued',
      purchases: ['purchased'],
      labels: 1,
      jobs: 1,
    });
    expect(seen['label-stored']!.events.slice(-2)).toEqual(['purchased', 'print-queued']);
    expect(await ledgerFor(sb.url, 'LUM-10421')).toHaveLength(1);
  });

  it('ship() that stops before buying still keeps the rating it asked for', async () => {
    // Items must be scanned into the box before a label is bought: ship() rates, then stops.
    const { station, reader } = await watchedStation({ requireItemVerification: true });
    const id = orderId(station, 'LUM-10421');
    const soldBefore = (await ledgerFor(sb.url, 'LUM-10421')).length;
    const result = await station.workflow.ship(id, { stationUser: 'ana' });
    expect(result).toMatchObject({ outcome: 'invalid', failure: { code: 'not-verified' } });
    const [shipment] = station.workflow.shipments.forOrder(id);
    expect(committed(reader, shipment!.id)).toMatchObject({
      state: 'rated',
      rated: true,
      purchases: [],
      events: ['created', 'rated'],
    });
    expect(await ledgerFor(sb.url, 'LUM-10421')).toHaveLength(soldBefore);
  });

  it('the rates request is on its way while the new shipment is committed', async () => {
    sb.clearFaults();
    const ratesAsked = () =>
      sb.sandbox.requests().filter((r) => r.method === 'POST' && r.path === '/api/v1/rates').length;
    const at: { asked?: number; state?: string | null } = {};
    const late: { reader?: Db; before?: number } = {};
    const station = await stationFor((printers) => lumenProfile(sb.url, printers), {
      hooks: {
        at: async (step, { shipmentId }) => {
          if (step !== 'shipment-created' || late.before === undefined) return;
          // The sandbox runs in this process: it reads its socket once this hook lets it.
          await new Promise((resolve) => setTimeout(resolve, 50));
          at.asked = ratesAsked() - late.before;
          at.state = committed(late.reader!, shipmentId).state;
        },
      },
    });
    station.importSamples();
    // One scan first: the token is there, so the next rates request goes out at once.
    expect((await station.workflow.rate(orderId(station, 'LUM-10422'), {})).outcome).toBe('rated');
    late.reader = openDatabase(station.dbFile, { readonly: true });
    onTestFinished(() => {
      late.reader?.close();
    });
    late.before = ratesAsked();

    const quote = await station.workflow.rate(orderId(station, 'LUM-10421'), {
      stationUser: 'ana',
    });
    expect(quote.outcome).toBe('rated');
    // The shipment is committed (a rating is a read: a crash here bought nothing) while the
    // platform already has the request.
    expect(at).toEqual({ asked: 1, state: 'ready' });
  });

  it('rate() (the Pack view) commits its rating at once: the packer may confirm much later', async () => {
    const { station, seen } = await watchedStation();
    const quote = await station.workflow.rate(orderId(station, 'LUM-10421'), {
      stationUser: 'ana',
    });
    expect(quote.outcome).toBe('rated');
    expect(seen.rated).toMatchObject({ state: 'rated', rated: true });
  });
});
