// Issue #10: the station under platform faults, through the contract a packing screen uses.
import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import type { StationStatus, TrackingBoard } from '../../../src/shared/views.js';
import { tempDir } from '../../support/tmp.js';
import { call, demoStation, orderIdOf, type Sandbox, loseNextLabelAnswer } from './support.js';

async function withStation(work: (s: Station, sandbox: Sandbox) => Promise<void>): Promise<void> {
  const made = demoStation(tempDir());
  await made.station.start();
  try {
    // A quiet station: the sample orders' background ratings answered (an answer after a fault
    // below would turn the header online before it is read).
    await made.station.context.runtime().preRater.settled();
    await work(made.station, made.sandbox());
  } finally {
    await made.station.stop();
  }
}

describe('a tracking outage', () => {
  it('shows as "tracking delayed" on the header and the board and never stops labelling', async () => {
    await withStation(async (s, sandbox) => {
      sandbox.faults.add({ method: 'GET', path: '/api/v1/trackers', kind: 'status', status: 500 });
      const poller = s.context.runtime().poller;
      // Two failed polls: six failed requests, twice the streak that used to mean "offline".
      await expect(poller.pollNow()).rejects.toThrow();
      await expect(poller.pollNow()).rejects.toThrow();

      const status: StationStatus = await call(s, 'station.status', {});
      expect(status.connectivity).toBe('online');
      expect(status.trackingDelayed).toMatch(/^Tracking delayed .*not affected/);
      const board: TrackingBoard = await call(s, 'tracking.board', {});
      expect(board.sync).toMatchObject({ delayed: true });
      expect(board.sync.message).toMatch(/tracker list/);

      const orderId = await orderIdOf(s, 'LUM-10421');
      const quote = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 1.8 }] });
      expect(quote.chosenRateId).not.toBeNull();
      const bought = await call(s, 'pack.buy', { shipmentId: quote.shipmentId });
      expect(bought.label?.trackingNumber).toMatch(/\w/);
      expect(sandbox.ledger()).toHaveLength(1);

      // The tracker list answers again: the delay clears.
      sandbox.faults.clear();
      await poller.pollNow();
      expect((await call(s, 'station.status', {})).trackingDelayed).toBeNull();
      expect((await call(s, 'tracking.board', {})).sync.delayed).toBe(false);
    });
  });
});

describe('a platform that stops answering', () => {
  it("is 'not answering' on the header from its first unanswered packing request, online again at its next answer", async () => {
    await withStation(async (s, sandbox) => {
      const buy = async (order: string) => {
        const orderId = await orderIdOf(s, order);
        const quote = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 1.8 }] });
        return s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
      };
      await buy('LUM-10425');
      expect((await call(s, 'station.status', {})).connectivity).toBe('online');
      // One label request answered with a 503 (never retried: its outcome is unknown).
      sandbox.faults.add({
        method: 'POST',
        path: '/api/v1/labels',
        kind: 'status',
        status: 503,
        times: 1,
      });
      expect(await buy('LUM-10421')).toMatchObject({
        ok: false,
        error: { code: 'purchase-outcome-unknown' },
      });
      const failing = await call(s, 'station.status', {});
      expect(failing.connectivity).toBe('failing');
      expect(failing.connectivityDetail).toMatch(
        /^The platform did not answer the last request for packing \(.*503.*\); it counts as offline after a few in a row\.$/,
      );
      // The next label is bought: online again.
      expect(await buy('LUM-10422')).toMatchObject({ ok: true });
      expect((await call(s, 'station.status', {})).connectivity).toBe('online');
    });
  });

  it('one unanswered label request is not "not answering" once the platform answers anything since (a rating)', async () => {
    await withStation(async (s, sandbox) => {
      const rate = async (order: string) =>
        call(s, 'pack.rate', {
          orderId: await orderIdOf(s, order),
          packages: [{ weightLbs: 1.8 }],
        });
      loseNextLabelAnswer(sandbox);
      const quote = await rate('LUM-10421');
      expect(await s.dispatch('pack.buy', { shipmentId: quote.shipmentId })).toMatchObject({
        ok: false,
        error: { code: 'purchase-outcome-unknown' },
      });
      expect((await call(s, 'station.status', {})).connectivity).toBe('failing');
      // The next order's rates come back: the platform answers, whatever that one reset was.
      await new Promise((r) => setTimeout(r, 5)); // a later millisecond than the reset
      expect((await rate('LUM-10422')).rates.length).toBeGreaterThan(0);
      const now = await call(s, 'station.status', {});
      expect(now.connectivity).toBe('online');
      expect(now.connectivityDetail).toBeNull();
    });
  });
});

describe('deadlines a packer can live with', () => {
  it('a hung token endpoint: the scan is queued with the reason, not stalled', async () => {
    await withStation(async (s, sandbox) => {
      // Weighed at 1.9 lb, not the file's 1.8 the station pre-rated: a rating of its own.
      const orderId = await orderIdOf(s, 'LUM-10421');
      s.context.runtime().client.tokens.forget();
      sandbox.faults.add({ method: 'POST', path: '/api/v1/tokens/m2m', kind: 'hang' });
      // A scan's rating: said within the deadline, nothing bought or queued.
      const said = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 1.9 }] });
      expect(said).toMatchObject({ unreachable: true, queued: false });
      expect(said.reason).toMatch(/token request \(no answer within 5 s\)/);
      expect(said.reason).toMatch(/Nothing was bought or queued\. Ctrl\+Enter queues this order/);
      // Ctrl+Enter (queue): queued with the reason.
      const quote = await call(s, 'pack.rate', {
        orderId,
        packages: [{ weightLbs: 1.9 }],
        queue: true,
      });
      expect(quote.queued).toBe(true);
      expect(quote.reason).toMatch(/Nothing was bought/);
      expect(sandbox.ledger()).toHaveLength(0);
    });
  });

  it('a hung rate request: the scan is queued within the rates deadline', async () => {
    await withStation(async (s, sandbox) => {
      const orderId = await orderIdOf(s, 'LUM-10421');
      sandbox.faults.add({ method: 'POST', path: '/api/v1/rates', kind: 'hang' });
      const quote = await call(s, 'pack.rate', {
        orderId,
        packages: [{ weightLbs: 1.9 }],
        queue: true,
      });
      expect(quote.queued).toBe(true);
      expect(quote.reason).toMatch(/rate request \(no answer within 8 s\)/);
    });
  });

  it('a hung label request is an unknown outcome after its deadline, never bought again', async () => {
    await withStation(async (s, sandbox) => {
      const orderId = await orderIdOf(s, 'LUM-10422');
      const quote = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 3.4 }] });
      // The platform sells the label, and its answer never comes.
      sandbox.faults.add({ method: 'POST', path: '/api/v1/labels', kind: 'hang', after: true });
      const lost = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
      expect(lost).toMatchObject({ ok: false, error: { code: 'purchase-outcome-unknown' } });
      const message = lost.ok ? '' : lost.error.message;
      expect(message).toMatch(/no answer within 15 s/);
      expect(message).toMatch(/Do not buy again/);
      const again = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
      expect(again).toMatchObject({ ok: false, error: { code: 'purchase-outcome-unknown' } });
      expect(sandbox.ledger()).toHaveLength(1);
    });
  }, 40_000);
});

describe('expected failures get a stable code and a sentence, never internal', () => {
  it('unknown print jobs, shipments, queue items and printers', async () => {
    await withStation(async (s) => {
      const logged: string[] = [];
      // The facade logs through the context; an expected failure must log no stack trace.
      const context = s.context as { log: (line: string) => void };
      const log = context.log;
      context.log = (line: string) => {
        logged.push(line);
        log(line);
      };
      const printerId = s.context.runtime().profile.printers[0]!.id;
      const cases = [
        ['queue.retry', { kind: 'print-job', id: '999999' }, 'not-found', /Print job 999999/],
        ['queue.retry', { kind: 'shipment', id: '999999' }, 'not-found', /queued shipment 999999/],
        ['queue.cancel', { kind: 'print-job', id: '999999' }, 'not-found', /Print job 999999/],
        ['queue.move', { id: '999999', printerId }, 'not-found', /Print job 999999/],
        ['attention.resolve', { id: 'print:999999', action: 'retry' }, 'not-found', /999999/],
        ['attention.resolve', { id: 'shipment:999999', action: 'dismiss' }, 'not-found', /999999/],
        [
          'attention.resolve',
          { id: 'purchase:lp_nope', action: 'check-trackers' },
          'not-found',
          /lp_nope/,
        ],
        ['attention.resolve', { id: 'nonsense', action: 'dismiss' }, 'validation', /nonsense/],
        ['attention.resolve', { id: 'print:abc', action: 'cancel' }, 'not-found', /Print job abc/],
        ['queue.cancel', { kind: 'print-job', id: 'abc' }, 'not-found', /Print job abc/],
        ['pack.buy', { shipmentId: 'abc' }, 'not-found', /No shipment abc/],
      ] as const;
      for (const [name, input, code, message] of cases) {
        const reply = await s.dispatch(name, input);
        expect(reply, `${name} ${JSON.stringify(input)}`).toMatchObject({
          ok: false,
          error: { code },
        });
        const text = reply.ok ? '' : reply.error.message;
        expect(text).toMatch(message);
        expect(text).not.toMatch(/constraint|SQLITE|undefined|NaN|stack/i);
      }
      expect(logged.filter((l) => /\n\s+at /.test(l))).toEqual([]);
    });
  });

  it('a job moved to a printer that is not set up', async () => {
    await withStation(async (s) => {
      const printerId = s.context.runtime().profile.printers[0]!.id;
      const job = s.context.spool.enqueue({
        printerId,
        kind: 'test',
        payload: '^XA^FDmove me^FS^XZ',
        reason: 'test',
      }).job;
      await s.context.spool.stop();
      const reply = await s.dispatch('queue.move', { id: String(job.id), printerId: 'nowhere' });
      expect(reply).toMatchObject({ ok: false, error: { code: 'not-found' } });
      expect(reply.ok ? '' : reply.error.message).toMatch(/No printer "nowhere"/);
    });
  });

  it('check-trackers while the tracker list fails: platform-unreachable, and the item stays', async () => {
    await withStation(async (s, sandbox) => {
      const orderId = await orderIdOf(s, 'LUM-10422');
      const quote = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 3.4 }] });
      loseNextLabelAnswer(sandbox);
      const lost = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
      expect(lost).toMatchObject({ ok: false, error: { code: 'purchase-outcome-unknown' } });
      const [item] = await call(s, 'attention.list', {});
      // The platform client's sentence, ended, then what to do (they ran together before).
      expect(item!.detail).toMatch(
        /checks it under Needs attention[^.]*\. Look it up on the platform before deciding \(reference LUM-10422-[0-9A-F]{8}\)\.$/,
      );
      for (const fault of [{ kind: 'status', status: 500 }, { kind: 'reset' }] as const) {
        sandbox.faults.clear();
        sandbox.faults.add({ method: 'GET', path: '/api/v1/trackers', ...fault });
        const reply = await s.dispatch('attention.resolve', {
          id: item!.id,
          action: 'check-trackers',
        });
        expect(reply, fault.kind).toMatchObject({
          ok: false,
          error: { code: 'platform-unreachable' },
        });
        expect(reply.ok ? '' : reply.error.message).toMatch(/still needs attention/);
        // The platform's reference, where there is one, said once (it was said twice).
        const refs = (reply.ok ? '' : reply.error.message).match(/cor_[\w-]+/g) ?? [];
        expect(refs.length, fault.kind).toBeLessThanOrEqual(1);
        if (fault.kind === 'status') expect(refs).toHaveLength(1);
      }
      expect(await call(s, 'attention.list', {})).toHaveLength(1);
    });
  });
});

describe('a large order import', () => {
  it('answers scans while it runs, sends progress, and stores every order', async () => {
    await withStation(async (s) => {
      const count = 20_000;
      const lines = [
        'order_number,ship_to_address1,ship_to_city,ship_to_postal_code,ship_to_country,weight_lbs',
      ];
      for (let i = 1; i <= count; i++) lines.push(`BIG-${i},1 Main St,Springfield,62701,US,2`);
      const progress: unknown[] = [];
      s.onEvent((name, payload) => {
        if (name === 'import-progress') progress.push(payload);
      });
      let finished = false;
      const importing = s.dispatch('orders.import', {
        fileName: 'big.csv',
        content: lines.join('\n'),
      });
      void importing.then(() => (finished = true));
      const scan = await call(s, 'pack.scan', { value: 'LUM-10421' });
      expect(scan.kind).toBe('order');
      expect(finished).toBe(false);
      const report = await importing;
      expect(report).toMatchObject({ ok: true, value: { imported: count, errorCount: 0 } });
      expect(progress).toContainEqual(
        expect.objectContaining({ fileName: 'big.csv', phase: 'storing', total: count }),
      );
    });
  }, 120_000);

  it('a 250,000-row file with a bad column returns the problem list, not internal', async () => {
    await withStation(async (s) => {
      const lines = [
        'order_number,ship_to_address1,ship_to_city,ship_to_postal_code,ship_to_country,weight_lbs',
      ];
      for (let i = 1; i <= 250_000; i++) lines.push(`B-${i},1 Main St,Springfield,62701,US,heavy`);
      const reply = await call(s, 'orders.import', {
        fileName: 'bad.csv',
        content: lines.join('\n'),
      });
      expect(reply).toMatchObject({ imported: 0, errorCount: 250_000 });
      const errors = reply.errors;
      expect(errors.length).toBeGreaterThan(0);
      // Rows as a spreadsheet counts them: the header is row 1.
      expect(errors[0]).toMatchObject({ row: 2, field: 'weight_lbs', where: 'row 2 (order B-1)' });
    });
  }, 120_000);
});
