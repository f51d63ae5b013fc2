import type { Db } from '../storage/database.js';
import type { Clock, StationScope } from '../storage/scope.js';
import { systemClock } from '../storage/scope.js';
import type { LabelRepository } from './label-repository.js';
import { printJobIdOf, type LabelPrintQueue } from './print-queue.js';
import type { ReprintRecord, StoredLabel } from './types.js';
import { voidedReprintWords, type LabelVoids } from './voids.js';

export type ReprintErrorCode =
  | 'label-not-found'
  | 'reprint-reason-required'
  | 'label-zpl-expired'
  | 'label-package-not-found'
  | 'label-still-waiting'
  | 'label-voided';

export class ReprintError extends Error {
  constructor(
    readonly code: ReprintErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ReprintError';
  }
}

export interface ReprintRequest {
  labelId: number;
  printerId: string;
  /** The station user's name, as typed at sign-in. */
  stationUser: string;
  reason: string;
  /** One package of a multi-package label (0-based); all of them when absent. */
  packageIndex?: number | undefined;
}

/** The `^XA…^XZ` block of each package, in order (one per package on the platform's labels). */
export function packageBlocks(zpl: string): string[] {
  return zpl.match(/\^XA[\s\S]*?\^XZ/g) ?? [];
}

/** Fetches a label's ZPL again from the platform when retention has dropped it. */
export type ZplFetcher = (label: StoredLabel) => Promise<string>;

interface ReprintRow {
  id: number;
  label_id: number;
  station_user: string;
  reason: string;
  printer_id: string;
  print_job_id: number | null;
  created_at: string;
}

/** Reprints: every one is written to the audit log (who, why, which printer) and spooled anew. */
export class LabelReprints {
  private readonly s;

  constructor(
    db: Db,
    private readonly labels: LabelRepository,
    private readonly printQueue: LabelPrintQueue,
    private readonly options: { clock?: Clock; fetchZpl?: ZplFetcher } = {},
    /** Labels marked voided at the carrier: never reprinted. */
    private readonly voids?: Pick<LabelVoids, 'get'>,
  ) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO reprints (label_id, profile_id, environment, tenant_id, station_user, reason, printer_id, created_at)
         VALUES (@labelId, @profileId, @environment, @tenantId, @stationUser, @reason, @printerId, @createdAt)`,
      ),
      setJob: db.prepare<[number | null, number]>(
        `UPDATE reprints SET print_job_id = ? WHERE id = ?`,
      ),
      forLabel: db.prepare<[number], ReprintRow>(
        `SELECT * FROM reprints WHERE label_id = ? ORDER BY id`,
      ),
      counts: db.prepare<[string], { label_id: number; n: number }>(
        `SELECT label_id, count(*) AS n FROM reprints
         WHERE label_id IN (SELECT value FROM json_each(?)) GROUP BY label_id`,
      ),
    };
  }

  async reprint(scope: StationScope, request: ReprintRequest): Promise<ReprintRecord> {
    const label = this.labels.get(request.labelId);
    if (!label || label.profileId !== scope.profileId || label.environment !== scope.environment)
      throw new ReprintError('label-not-found', `No label ${request.labelId} in this profile.`);
    const stationUser = request.stationUser.trim();
    const reason = request.reason.trim();
    if (!stationUser || !reason)
      throw new ReprintError(
        'reprint-reason-required',
        'A reprint needs the name of the person asking and a reason.',
      );
    // Voided at the carrier: a copy on a parcel would travel on a label nobody pays for.
    const voided = this.voids?.get(label.id);
    if (voided) throw new ReprintError('label-voided', voidedReprintWords(label, voided));
    // The label has not printed yet (its job, or an earlier reprint's, waits for a printer):
    // a copy queued now would print too when that printer is back, two labels with one
    // tracking number. The waiting job is said instead; Queue moves it to another printer.
    const waiting =
      request.packageIndex === undefined
        ? this.printQueue.pendingLabelJob?.(label.platformLabelId)
        : undefined;
    if (waiting)
      throw new ReprintError(
        'label-still-waiting',
        `${label.trackingNumber} has not printed yet: its print job waits for the printer${waiting.lastError ? ` (${waiting.lastError.replace(/\.$/, '')})` : ''} and prints by itself when the printer is ready. No second copy was queued. To print it on another printer, move its job in Queue (Alt+3).`,
      );
    let zpl = label.zpl;
    if (zpl === null) {
      if (!this.options.fetchZpl)
        throw new ReprintError(
          'label-zpl-expired',
          `The ZPL of ${label.trackingNumber} was dropped by the retention setting on ${label.zplDroppedAt}; fetch it from the platform to reprint.`,
        );
      zpl = await this.options.fetchZpl(label);
      this.labels.restoreZpl(label.id, zpl);
    }
    let payload = zpl;
    let why = reason;
    if (request.packageIndex !== undefined) {
      const blocks = packageBlocks(zpl);
      const one = blocks[request.packageIndex];
      if (one === undefined)
        throw new ReprintError(
          'label-package-not-found',
          `${label.trackingNumber} has ${blocks.length} package label${blocks.length === 1 ? '' : 's'}; there is no package ${request.packageIndex + 1}.`,
        );
      payload = `${one}\n`;
      why = `${reason} (package ${request.packageIndex + 1} of ${blocks.length}, ${label.packageTrackingNumbers[request.packageIndex] ?? label.trackingNumber})`;
    } else if (label.packageTrackingNumbers.length > 1)
      // Every package of a multi-package label: said, as one package alone is.
      why = `${reason} (all ${label.packageTrackingNumbers.length} packages)`;
    const createdAt = (this.options.clock ?? systemClock)().toISOString();
    // The audit row is committed before the job is spooled: a reprint is never unaccounted for.
    const id = Number(
      this.s.insert.run({
        labelId: label.id,
        profileId: scope.profileId,
        environment: scope.environment,
        tenantId: label.tenantId,
        stationUser,
        reason: why,
        printerId: request.printerId,
        createdAt,
      }).lastInsertRowid,
    );
    const job = await this.printQueue.enqueue({
      printerId: request.printerId,
      payload,
      labelId: label.platformLabelId,
      orderReference: label.orderReference,
      kind: 'reprint',
      reason: `${why} (${stationUser})`,
    });
    const printJobId = printJobIdOf(job);
    this.s.setJob.run(printJobId, id);
    return {
      id,
      labelId: label.id,
      stationUser,
      reason: why,
      printerId: request.printerId,
      printJobId,
      createdAt,
    };
  }

  /** How many times each of these labels was reprinted (a history page in one query). */
  counts(labelIds: readonly number[]): Map<number, number> {
    const counts = new Map(labelIds.map((id) => [id, 0]));
    for (const row of this.s.counts.all(JSON.stringify(labelIds))) counts.set(row.label_id, row.n);
    return counts;
  }

  history(labelId: number): ReprintRecord[] {
    return this.s.forLabel.all(labelId).map((r) => ({
      id: r.id,
      labelId: r.label_id,
      stationUser: r.station_user,
      reason: r.reason,
      printerId: r.printer_id,
      printJobId: r.print_job_id,
      createdAt: r.created_at,
    }));
  }
}
