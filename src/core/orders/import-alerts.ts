import type { Db } from '../storage/database.js';
import type { StationScope } from '../storage/scope.js';
import type { ImportError } from '../../shared/features/packing.js';
import { importError } from './import-error.js';
import type { OrderFileFormat } from './order-import.js';
import type { ImportReport } from './types.js';

/** Problems kept with an alert: enough to say what went wrong; the whole report is in failed/. */
const KEPT_PROBLEMS = 5;

export interface ImportAlert {
  id: number;
  fileName: string;
  /** Where the hot folder moved the file (its report is beside it, `.report.json`). */
  movedTo: string;
  ordersLeftOut: number;
  problemCount: number;
  /** The first problems, with the place the Orders view gives them ("row 6 (order #2003)"). */
  problems: Pick<ImportError, 'where' | 'reason'>[];
  createdAt: string;
}

/**
 * Order files from the hot folder that had problems, until a shift lead dismisses them (Needs
 * attention). An import from the Orders view shows its report on screen and is not kept here.
 */
export class ImportAlerts {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      add: db.prepare(
        `INSERT INTO import_alerts (profile_id, environment, file_name, moved_to, orders_left_out,
           problem_count, problems, created_at)
         VALUES (@profileId, @environment, @fileName, @movedTo, @ordersLeftOut, @problemCount,
           @problems, @createdAt)`,
      ),
      open: db.prepare<
        [string, string],
        {
          id: number;
          file_name: string;
          moved_to: string;
          orders_left_out: number;
          problem_count: number;
          problems: string;
          created_at: string;
        }
      >(
        `SELECT id, file_name, moved_to, orders_left_out, problem_count, problems, created_at
         FROM import_alerts WHERE profile_id = ? AND environment = ? AND dismissed_at IS NULL
         ORDER BY id`,
      ),
      count: db
        .prepare<[string, string], number>(
          `SELECT count(*) FROM import_alerts
           WHERE profile_id = ? AND environment = ? AND dismissed_at IS NULL`,
        )
        .pluck(),
      dismiss: db.prepare<[string, string, number, string, string]>(
        `UPDATE import_alerts SET dismissed_at = ?, dismissed_by = ?
         WHERE id = ? AND profile_id = ? AND environment = ? AND dismissed_at IS NULL`,
      ),
    };
  }

  /** Kept when the file had any problem (the report's); nothing otherwise. */
  add(
    scope: StationScope,
    file: { fileName: string; movedTo: string; report: ImportReport; format: OrderFileFormat },
    now = new Date(),
  ): void {
    const { report } = file;
    if (report.problemCount === 0) return;
    this.s.add.run({
      ...scope,
      fileName: file.fileName,
      movedTo: file.movedTo,
      ordersLeftOut: report.ordersLeftOut ?? 0,
      problemCount: report.problemCount,
      problems: JSON.stringify(
        report.problems.slice(0, KEPT_PROBLEMS).map((p) => {
          // As the Orders view lists it: "row 2 (order A-1), weight_lbs: …".
          const { where, field, reason } = importError(p, file.format);
          return { where: field.startsWith('(') ? where : `${where}, ${field}`, reason };
        }),
      ),
      createdAt: now.toISOString(),
    });
  }

  open(scope: StationScope): ImportAlert[] {
    return this.s.open.all(scope.profileId, scope.environment).map((r) => ({
      id: r.id,
      fileName: r.file_name,
      movedTo: r.moved_to,
      ordersLeftOut: r.orders_left_out,
      problemCount: r.problem_count,
      problems: JSON.parse(r.problems) as ImportAlert['problems'],
      createdAt: r.created_at,
    }));
  }

  /** How many are open (the header's count, asked with every status: no row is read). */
  count(scope: StationScope): number {
    return this.s.count.get(scope.profileId, scope.environment) ?? 0;
  }

  /** False when there is no such open alert in this scope. */
  dismiss(scope: StationScope, id: number, by: string, now = new Date()): boolean {
    return (
      this.s.dismiss.run(now.toISOString(), by, id, scope.profileId, scope.environment).changes ===
      1
    );
  }
}
