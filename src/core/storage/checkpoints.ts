import type { Db } from './database.js';

export interface BackgroundCheckpointOptions {
  /** True while nothing time-critical is under way (no packer's call). */
  idle: () => boolean;
  /** How often an idle moment is looked for. Default 1 s. */
  everyMs?: number;
  /** A checkpoint runs after this long even without an idle moment (the WAL must not grow without end). Default 30 s. */
  atLeastEveryMs?: number;
  now?: () => number;
}

/**
 * WAL checkpoints off the packer's path. SQLite's own (wal_autocheckpoint, every 1,000 pages)
 * runs inside whichever commit crosses the mark: about one label in twenty then waits for the
 * copy into the database file and its fsync (several ms, 30 ms seen). Here autocheckpoint is
 * off and a PASSIVE checkpoint runs on a timer while the station is idle, and at least every
 * `atLeastEveryMs`. Durability is unchanged: a commit is in the WAL either way. `stop()` puts
 * autocheckpoint back and checkpoints once.
 */
export function checkpointInBackground(db: Db, options: BackgroundCheckpointOptions): () => void {
  const now = options.now ?? Date.now;
  const atLeast = options.atLeastEveryMs ?? 30_000;
  let last = now();
  db.pragma('wal_autocheckpoint = 0');
  const checkpoint = () => {
    if (!db.open) return;
    db.pragma('wal_checkpoint(PASSIVE)');
    last = now();
  };
  const timer = setInterval(() => {
    try {
      if (options.idle() || now() - last >= atLeast) checkpoint();
    } catch {
      // A busy or closed database: the next tick (or SQLite's own on stop) does it.
    }
  }, options.everyMs ?? 1000);
  timer.unref();
  return () => {
    clearInterval(timer);
    if (!db.open) return;
    db.pragma('wal_autocheckpoint = 1000');
    try {
      checkpoint();
    } catch {
      // Left to SQLite's own checkpoint.
    }
  };
}
