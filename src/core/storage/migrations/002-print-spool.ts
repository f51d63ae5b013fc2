import type { Migration } from './index.js';

/** Owned by printing (issue 4): the durable print spool. */
export const migration002: Migration = {
  version: 2,
  name: 'print-spool',
  up(db) {
    db.exec(`
      -- One row per thing to come out of a printer. The payload is the bytes themselves (ZPL or
      -- ESC/POS), so a job prints the same even if the label row it came from changes.
      CREATE TABLE print_jobs (
        id INTEGER PRIMARY KEY,
        printer_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('label', 'test', 'slip', 'reprint')),
        state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'printed', 'failed', 'unknown', 'cancelled')),
        payload BLOB NOT NULL,
        label_id TEXT,
        order_reference TEXT,
        reason TEXT,
        attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        last_error TEXT,
        last_error_code TEXT,
        -- epoch milliseconds; a queued job is not tried before this
        next_attempt_at INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        printed_at TEXT
      ) STRICT;
      CREATE INDEX print_jobs_by_state ON print_jobs (state, printer_id, id);
      CREATE INDEX print_jobs_by_label ON print_jobs (label_id) WHERE label_id IS NOT NULL;
      CREATE INDEX print_jobs_by_order ON print_jobs (order_reference) WHERE order_reference IS NOT NULL;

      -- What happened to a job and who did it: the shift lead's actions are kept.
      CREATE TABLE print_job_events (
        id INTEGER PRIMARY KEY,
        job_id INTEGER NOT NULL REFERENCES print_jobs (id),
        at TEXT NOT NULL,
        state TEXT NOT NULL,
        message TEXT
      ) STRICT;
      CREATE INDEX print_job_events_by_job ON print_job_events (job_id, id);
    `);
  },
};
