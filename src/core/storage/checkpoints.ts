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
 *
 * A WAL checkpointed whole restarts at the next write, and `synchronous = NORMAL` syncs its
 * header then: the checkpoint makes that next write itself (the schema version written as it
 * is), so the sync happens here too, not in the first commit of the next scan.
 */
export function checkpointInBackground(db: Db, options: BackgroundCheckpointOptions): () => void {
  const now = options.now ?? Date.now;
  const atLeast = options.atLeastEveryMs ?? 30_000;
  let last = now();
  db.pragma('wal_autocheckpoint = 0');
  const changesSoFar = db.prepare<[], { n: number }>('SELECT total_changes() AS n');
  let changesAtLast = -1;
  const checkpoint = () => {
    if (!db.open) return;
    last = now();
    // Nothing written since the last one (our own no-op below does not count): nothing to do.
    const changes = changesSoFar.get()!.n;
    if (changes === changesAtLast) return;
    changesAtLast = changes;
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as {
      busy: number;
      log: number;
      checkpointed: number;
    }[];
    // A WAL copied whole starts over at the next write, which syncs its header first (6 ms
    // here): that next write is done now, while idle, rather than by a packer's commit.
    if (result && result.log > 0 && result.checkpointed === result.log) {
      const version = db.pragma('user_version', { simple: true }) as number;
      db.pragma(`user_version = ${version}`);
    }
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
