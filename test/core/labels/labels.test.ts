import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { LabelRepository } from '../../../src/core/labels/label-repository.js';
import type { LabelPrintRequest } from '../../../src/core/labels/print-queue.js';
import { LabelReprints, ReprintError } from '../../../src/core/labels/reprint.js';
import type { LabelSearch } from '../../../src/core/labels/types.js';
import { applyLabelRetention } from '../../../src/core/labels/retention.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import type { StationScope } from '../../../src/core/storage/scope.js';
import { tempDir } from '../../support/tmp.js';
import { seedLabels, seedStoredLabels } from './seed.js';

const harbor: StationScope = { profileId: 'harbor-edison', environment: 'sandbox' };
const harborProd: StationScope = { profileId: 'harbor-edison', environment: 'production' };
const other: StationScope = { profileId: 'lumen', environment: 'sandbox' };

function setup() {
  const file = join(tempDir(), 'station.db');
  const db = openDatabase(file);
  seedLabels(db, harbor, [
    {
      orderNumber: 'DW-1',
      tenantId: 'tnt_driftwood',
      tracking: '1ZA',
      createdAt: '2026-11-01T10:00:00.000Z',
    },
    {
      orderNumber: 'DW-2',
      tenantId: 'tnt_driftwood',
      tracking: '1ZB',
      createdAt: '2026-11-02T10:00:00.000Z',
      extraTracking: ['1ZB-2'],
    },
    {
      orderNumber: 'PC-1',
      tenantId: 'tnt_pinecrest',
      tracking: '1ZC',
      createdAt: '2026-11-03T10:00:00.000Z',
    },
    {
      orderNumber: 'PC-2',
      tenantId: 'tnt_pinecrest',
      tracking: '1ZD',
      createdAt: '2026-11-03T10:00:00.000Z',
    },
    {
      orderNumber: 'DW-3',
      tenantId: 'tnt_driftwood',
      tracking: '1ZE',
      createdAt: '2026-11-05T10:00:00.000Z',
    },
  ]);
  seedLabels(db, harborProd, [
    {
      orderNumber: 'DW-1',
      tenantId: 'tnt_driftwood',
      tracking: 'PROD-1',
      createdAt: '2026-11-01T11:00:00.000Z',
    },
  ]);
  seedLabels(db, other, [
    {
      orderNumber: 'DW-1',
      tenantId: 'tnt_lumen',
      tracking: 'LUM-1',
      createdAt: '2026-11-01T12:00:00.000Z',
    },
  ]);
  return { db, file, labels: new LabelRepository(db) };
}

const numbers = (page: { labels: { orderNumber: string }[] }) =>
  page.labels.map((l) => l.orderNumber);

describe('label cache', () => {
  it('finds labels by order, tracking number (any package), brand and date range, in this profile and environment only', () => {
    const { labels } = setup();
    expect(
      labels.search(harbor, { orderNumber: 'DW-1' }).labels.map((l) => l.trackingNumber),
    ).toEqual(['1ZA']);
    expect(
      labels.search(harborProd, { orderNumber: 'DW-1' }).labels.map((l) => l.trackingNumber),
    ).toEqual(['PROD-1']);
    expect(labels.findByTracking(harbor, '1ZB-2')?.orderNumber).toBe('DW-2');
    expect(labels.findByTracking(harbor, 'PROD-1')).toBeUndefined();
    expect(labels.findByTracking(harbor, 'LUM-1')).toBeUndefined();
    expect(numbers(labels.search(harbor, { tenantId: 'tnt_pinecrest' }))).toEqual(['PC-2', 'PC-1']);
    expect(
      numbers(
        labels.search(harbor, { from: '2026-11-02T00:00:00.000Z', to: '2026-11-04T00:00:00.000Z' }),
      ),
    ).toEqual(['PC-2', 'PC-1', 'DW-2']);
    expect(
      numbers(
        labels.search(harbor, { tenantId: 'tnt_driftwood', from: '2026-11-02T00:00:00.000Z' }),
      ),
    ).toEqual(['DW-3', 'DW-2']);
    expect(
      labels.search(harbor, { trackingNumber: '1ZB-2' }).labels[0]!.packageTrackingNumbers,
    ).toEqual(['1ZB', '1ZB-2']);
  });

  it('finds a part of a number among the newest labels only, through a rowid range', () => {
    const { file, labels } = setup();
    // Harbor's labels have ids 1–5 (DW-1 … DW-3); a window from id 3 leaves DW-1 and DW-2 out.
    const ids = numbers(labels.search(harbor, {})).length;
    expect(ids).toBe(5);
    expect(labels.newestWindowStart(100_000)).toBe(0);
    expect(labels.newestWindowStart(5)).toBe(3); // seven labels in all: 3 … 7
    expect(numbers(labels.search(harbor, { numberPart: { text: 'W-', fromId: 0 } }))).toEqual([
      'DW-3',
      'DW-2',
      'DW-1',
    ]);
    expect(numbers(labels.search(harbor, { numberPart: { text: 'W-', fromId: 3 } }))).toEqual([
      'DW-3',
    ]);
    // A tracking number's part; another profile's label never.
    expect(numbers(labels.search(harbor, { numberPart: { text: 'ZD', fromId: 0 } }))).toEqual([
      'PC-2',
    ]);
    expect(labels.count(harbor, { numberPart: { text: 'LUM', fromId: 0 } })).toBe(0);
    // The window is a range of the primary key, not a walk of the profile's index.
    const traced = new Database(file, { verbose: (sql) => ran.push(String(sql)) });
    const ran: string[] = [];
    try {
      new LabelRepository(traced).searchSummaries(harbor, {
        numberPart: { text: 'W-', fromId: 3 },
      });
      const plan = (traced.prepare(`EXPLAIN QUERY PLAN ${ran[0]}`).all() as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
      expect(plan).toMatch(/SEARCH l USING INTEGER PRIMARY KEY \(rowid>\?\)/);
    } finally {
      traced.close();
    }
  });

  it('pages newest first without skipping or repeating labels with the same time', () => {
    const { labels } = setup();
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = labels.search(harbor, { limit: 2, cursor });
      seen.push(...numbers(page));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(['DW-3', 'PC-2', 'PC-1', 'DW-2', 'DW-1']);
  });

  it('counts and pages far down a brand/date list exactly, through the per-day counts', () => {
    const file = join(tempDir(), 'station.db');
    const db = openDatabase(file);
    const labels = new LabelRepository(db);
    // 6,000 labels over 30 days, two brands, several at the same instant, at uneven times.
    const rows = Array.from({ length: 6000 }, (_, i) => ({
      orderNumber: `ORD-${i}`,
      tenantId: i % 3 === 0 ? 'tnt_a' : 'tnt_b',
      tracking: `1Z${i}`,
      createdAt: new Date(
        Date.parse('2026-01-01T00:00:00Z') + Math.floor(i / 3) * 1_296_000,
      ).toISOString(),
    }));
    seedLabels(db, harbor, rows);
    seedLabels(
      db,
      other,
      rows.slice(0, 100).map((r) => ({ ...r, orderNumber: `X${r.orderNumber}` })),
    );
    const ids = seedLabels(db, harbor, [
      {
        orderNumber: 'LATE',
        tenantId: 'tnt_a',
        tracking: '1ZL',
        createdAt: '2026-02-01T00:00:00.000Z',
      },
    ]);
    // Brute force: every harbor label, newest first, as the repository orders them.
    const all = db
      .prepare<[], { id: number; tenant_id: string; created_at: string }>(
        `SELECT id, tenant_id, created_at FROM labels WHERE profile_id = 'harbor-edison' AND environment = 'sandbox'
          ORDER BY created_at DESC, id DESC`,
      )
      .all();
    expect(all[0]!.id).toBe(ids[0]);
    const cases: LabelSearch[] = [
      {},
      { tenantId: 'tnt_b' },
      { from: '2026-01-05T13:17:00.000Z' },
      { to: '2026-01-20T07:00:00.000Z', tenantId: 'tnt_a' },
      { from: '2026-01-03T00:00:00.000Z', to: '2026-01-25T00:00:00.000Z' },
      { from: '2026-01-10T12:00:00.000Z', to: '2026-01-10T18:00:00.000Z' },
      { from: '2026-01-12T00:00:00.000Z', to: '2026-01-11T00:00:00.000Z' },
    ];
    for (const q of cases) {
      const expected = all.filter(
        (l) =>
          (!q.tenantId || l.tenant_id === q.tenantId) &&
          (!q.from || l.created_at >= q.from) &&
          (!q.to || l.created_at < q.to),
      );
      expect(labels.count(harbor, q)).toBe(expected.length);
      for (const offset of [0, 2001, 2500, 3999, expected.length - 10, expected.length + 5]) {
        const page = labels.searchSummaries(harbor, { ...q, offset, limit: 50 });
        expect(page.labels.map((l) => l.id)).toEqual(
          expected.slice(Math.max(0, offset), Math.max(0, offset) + 50).map((l) => l.id),
        );
      }
    }
  });

  it('drops the ZPL of labels older than the retention date and keeps the record', () => {
    const { labels } = setup();
    expect(labels.dropZplBefore(harbor, '2026-11-03T00:00:00.000Z')).toBe(2);
    const old = labels.findByTracking(harbor, '1ZA')!;
    expect(old.zpl).toBeNull();
    expect(old.zplDroppedAt).not.toBeNull();
    expect(old).toMatchObject({ trackingNumber: '1ZA', costCents: 980, orderNumber: 'DW-1' });
    expect(labels.findByTracking(harbor, '1ZC')!.zpl).toContain('1ZC');
    expect(labels.findByTracking(harborProd, 'PROD-1')!.zpl).not.toBeNull();
  });

  it('reprints with the person and the reason in the audit log and a new print job', async () => {
    const { db, labels } = setup();
    const jobs: LabelPrintRequest[] = [];
    const reprints = new LabelReprints(db, labels, {
      enqueue: (job) => {
        jobs.push(job);
        return { id: jobs.length };
      },
    });
    const label = labels.findByTracking(harbor, '1ZC')!;
    const record = await reprints.reprint(harbor, {
      labelId: label.id,
      printerId: 'zd421-1',
      stationUser: 'Rosa (shift lead)',
      reason: 'label smudged',
    });
    expect(jobs).toEqual([
      {
        printerId: 'zd421-1',
        payload: label.zpl,
        labelId: label.platformLabelId,
        orderReference: label.orderReference,
        kind: 'reprint',
        reason: 'label smudged (Rosa (shift lead))',
      },
    ]);
    expect(reprints.history(label.id)).toEqual([
      expect.objectContaining({
        id: record.id,
        stationUser: 'Rosa (shift lead)',
        reason: 'label smudged',
        printJobId: 1,
      }),
    ]);
    const other1 = labels.findByTracking(harbor, '1ZA')!;
    expect(reprints.counts([label.id, other1.id])).toEqual(
      new Map([
        [label.id, 1],
        [other1.id, 0],
      ]),
    );
    await expect(
      reprints.reprint(harbor, {
        labelId: label.id,
        printerId: 'zd421-1',
        stationUser: 'Rosa',
        reason: '  ',
      }),
    ).rejects.toMatchObject({ code: 'reprint-reason-required' });
    // A label of another profile is not reachable from this one.
    const foreign = labels.findByTracking(other, 'LUM-1')!;
    await expect(
      reprints.reprint(harbor, {
        labelId: foreign.id,
        printerId: 'p',
        stationUser: 'x',
        reason: 'y',
      }),
    ).rejects.toBeInstanceOf(ReprintError);
    expect(jobs).toHaveLength(1);
  });

  it('applies the profile retention in days, and nothing without a setting', () => {
    const { labels } = setup();
    const now = new Date('2026-11-06T10:00:00.000Z');
    expect(applyLabelRetention(labels, harbor, undefined, now)).toBe(0);
    // Cut-off Nov 3 10:00: the labels of Nov 1 and Nov 2 lose their ZPL; Nov 3 10:00 keeps it.
    expect(applyLabelRetention(labels, harbor, 3, now)).toBe(2);
    expect(labels.findByTracking(harbor, '1ZB')!.zpl).toBeNull();
    expect(labels.findByTracking(harbor, '1ZC')!.zpl).not.toBeNull();
  });

  it('refuses to reprint a label whose ZPL retention dropped, unless it can fetch it again', async () => {
    const { db, labels } = setup();
    labels.dropZplBefore(harbor, '2026-11-02T00:00:00.000Z');
    const label = labels.findByTracking(harbor, '1ZA')!;
    const jobs: LabelPrintRequest[] = [];
    const noFetch = new LabelReprints(db, labels, { enqueue: (j) => jobs.push(j) });
    await expect(
      noFetch.reprint(harbor, { labelId: label.id, printerId: 'p', stationUser: 'x', reason: 'y' }),
    ).rejects.toMatchObject({ code: 'label-zpl-expired' });
    const withFetch = new LabelReprints(
      db,
      labels,
      { enqueue: (j) => jobs.push(j) },
      {
        fetchZpl: async () => '^XA^FDagain^FS^XZ',
      },
    );
    await withFetch.reprint(harbor, {
      labelId: label.id,
      printerId: 'p',
      stationUser: 'x',
      reason: 'y',
    });
    expect(jobs.map((j) => j.payload)).toEqual(['^XA^FDagain^FS^XZ']);
    expect(labels.get(label.id)!.zpl).toBe('^XA^FDagain^FS^XZ');
  });

  it('lists a history page in one indexed query that never reads ZPL; ZPL only for one label', () => {
    const { file } = setup();
    // A second connection to the same file that reports every statement it runs.
    const ran: string[] = [];
    const traced = new Database(file, { verbose: (sql) => ran.push(String(sql)) });
    try {
      const repo = new LabelRepository(traced);
      const shapes: LabelSearch[] = [
        {},
        { orderNumber: 'DW-2' },
        { trackingNumber: '1ZB-2' },
        { tenantId: 'tnt_driftwood' },
        { from: '2026-11-02T00:00:00.000Z', to: '2026-11-04T00:00:00.000Z' },
        { tenantId: 'tnt_pinecrest', from: '2026-11-01T00:00:00.000Z', limit: 1 },
      ];
      for (const query of shapes) {
        ran.length = 0;
        const page = repo.searchSummaries(harbor, query);
        expect(page.labels.length, JSON.stringify(query)).toBeGreaterThan(0);
        expect(ran, JSON.stringify(query)).toHaveLength(1);
        expect(ran[0]).not.toMatch(/label_zpl|\bzpl\b/);
        const details = (
          traced.prepare(`EXPLAIN QUERY PLAN ${ran[0]}`).all() as { detail: string }[]
        )
          .map((r) => r.detail)
          .join(' | ');
        expect(details, ran[0]).not.toMatch(/SCAN (l|labels|p|label_packages)\b(?! USING)/);
      }
      // By tracking number: from label_packages to the few labels, never every label of the
      // profile tested one by one (the walk took seconds at 10,000,000 labels); the count too.
      for (const run of [
        () => repo.searchSummaries(harbor, { trackingNumber: '1ZB-2' }),
        () => repo.count(harbor, { trackingNumber: '1ZB-2' }),
      ]) {
        ran.length = 0;
        run();
        const plan = (traced.prepare(`EXPLAIN QUERY PLAN ${ran[0]}`).all() as { detail: string }[])
          .map((r) => r.detail)
          .join(' | ');
        expect(plan).toMatch(/SEARCH l USING INTEGER PRIMARY KEY/);
      }
      ran.length = 0;
      const dw2 = repo.searchSummaries(harbor, { orderNumber: 'DW-2' }).labels[0]!;
      expect(dw2).not.toHaveProperty('zpl');
      expect(dw2).toMatchObject({ packageTrackingNumbers: ['1ZB', '1ZB-2'], zplAvailable: true });
      // The full search (kept for callers that print from it) adds one query for the whole page.
      ran.length = 0;
      const full = repo.search(harbor, { tenantId: 'tnt_driftwood' });
      expect(ran).toHaveLength(2);
      expect(full.labels.map((l) => l.zpl)).toEqual([
        '^XA^FD1ZE^FS^XZ',
        '^XA^FD1ZB^FS^XZ',
        '^XA^FD1ZA^FS^XZ',
      ]);
      // Retention: the list says the ZPL is gone without reading it.
      repo.dropZplBefore(harbor, '2026-11-02T00:00:00.000Z');
      const listed = repo.searchSummaries(harbor, { orderNumber: 'DW-1' }).labels[0]!;
      expect(listed.zplAvailable).toBe(false);
      expect(listed.zplDroppedAt).not.toBeNull();
      expect(repo.get(listed.id)!.zpl).toBeNull();
      expect(repo.get(dw2.id)!.zpl).toBe('^XA^FD1ZB^FS^XZ');
    } finally {
      traced.close();
    }
  });
});

describe('a label as the purchase path stores it', () => {
  it('is exactly what reading it back gives, packages and ZPL included', () => {
    const db = openDatabase(join(tempDir(), 'station.db'));
    const stored = seedStoredLabels(db, harbor, [
      {
        orderNumber: 'ONE-1',
        tenantId: 'tnt_driftwood',
        tracking: '1ZONE',
        createdAt: '2026-11-05T10:00:00.000Z',
      },
      {
        orderNumber: 'TWO-1',
        tenantId: 'tnt_pinecrest',
        tracking: '1ZTWO',
        createdAt: '2026-11-05T11:00:00.000Z',
        extraTracking: ['1ZTWO-2', '1ZTWO-3'],
      },
    ]);
    const repo = new LabelRepository(db);
    expect(stored).toHaveLength(2);
    for (const label of stored) expect(repo.get(label.id)).toEqual(label);
    db.close();
  });
});
