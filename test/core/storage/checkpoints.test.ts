import { openSync, readSync, closeSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointInBackground } from '../../../src/core/storage/checkpoints.js';
import { openDatabase, type Db } from '../../../src/core/storage/database.js';
import { tempDir } from '../../support/tmp.js';

// The background WAL checkpoint (src/core/storage/checkpoints.ts) on a real SQLite file: the
// WAL's own header says when it restarted (its checkpoint sequence number and salts change each
// time SQLite starts writing it from the beginning again), and the database file grows when a
// checkpoint has copied the WAL's pages into it.

/** Polls until `check` is true; the test's timeout is the only bound. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

/** The WAL header's checkpoint sequence number and salts (bytes 12–23, big-endian). */
function walHeader(file: string): string {
  const fd = openSync(`${file}-wal`, 'r');
  try {
    const header = Buffer.alloc(24);
    readSync(fd, header, 0, 24, 0);
    return header.subarray(12, 24).toString('hex');
  } finally {
    closeSync(fd);
  }
}

const size = (file: string) => statSync(file).size;

const open: { db: Db; stop: () => void }[] = [];
afterEach(() => {
  for (const { db, stop } of open.splice(0)) {
    stop();
    db.close();
  }
});

/** A station database with the background checkpoint on a fake clock and a switchable idle. */
function station() {
  const file = join(tempDir(), 'station.db');
  const db = openDatabase(file);
  db.exec('CREATE TABLE filler (x TEXT)');
  const state = { idle: false, asked: 0, now: 1_000_000 };
  const stop = checkpointInBackground(db, {
    idle: () => {
      state.asked++;
      return state.idle;
    },
    everyMs: 5,
    atLeastEveryMs: 60_000,
    now: () => state.now,
  });
  open.push({ db, stop });
  const insert = db.prepare('INSERT INTO filler (x) VALUES (?)');
  /** `kb` rows of 1 KB, in one commit (a 4 KB page holds three). */
  const write = (kb: number) =>
    db.transaction(() => {
      for (let i = 0; i < kb; i++) insert.run('x'.repeat(1000));
    })();
  /** Waits for `n` more looks at idle(): that many ticks of the timer have passed. */
  const ticks = async (n: number) => {
    const from = state.asked;
    await until(() => state.asked >= from + n);
  };
  return { file, db, state, stop, write, ticks };
}

describe('background WAL checkpoints', () => {
  it("SQLite's own autocheckpoint is off while it runs; stop() puts it back and checkpoints once", async () => {
    const { file, db, state, stop, write, ticks } = station();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    // Busy the whole time: nothing is checkpointed by the timer.
    write(50);
    await ticks(3);
    const header = walHeader(file);
    const dbSize = size(file);
    stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    // The last checkpoint copied the rows into the database file, and the WAL restarted.
    expect(size(file)).toBeGreaterThan(dbSize + 40 * 1024);
    expect(walHeader(file)).not.toBe(header);
    // And the timer is gone: while a timer of the same period fires five times, idle() is not
    // asked again.
    const asked = state.asked;
    let fired = 0;
    const marker = setInterval(() => fired++, 5);
    await until(() => fired >= 5);
    clearInterval(marker);
    expect(state.asked).toBe(asked);
  });

  it('while the station is busy nothing is checkpointed, and the WAL grows past 1,000 pages; at atLeastEveryMs it is checkpointed anyway', async () => {
    const { file, state, write, ticks } = station();
    write(10);
    await ticks(2);
    const header = walHeader(file);
    const dbSize = size(file);
    // About 1,700 pages: SQLite's own checkpoint would have run at 1,000.
    write(5000);
    await ticks(5);
    expect(walHeader(file)).toBe(header);
    expect(size(file)).toBe(dbSize);
    const walSize = size(`${file}-wal`);
    expect(walSize).toBeGreaterThan(1000 * 4096);
    write(100);
    await ticks(5);
    // Still the same WAL, written on, not restarted.
    expect(walHeader(file)).toBe(header);
    expect(size(`${file}-wal`)).toBeGreaterThan(walSize);

    // 60 s later with the station still busy: checkpointed, and the WAL restarted at once.
    state.now += 60_000;
    await until(() => walHeader(file) !== header);
    expect(size(file)).toBeGreaterThan(dbSize + 5000 * 1000);
  });

  it('an idle moment checkpoints and restarts the WAL, which is then written from its start again', async () => {
    const { file, state, write, ticks } = station();
    write(2000);
    await ticks(2);
    const busyHeader = walHeader(file);
    const dbSize = size(file);
    state.idle = true;
    await until(() => walHeader(file) !== busyHeader);
    expect(size(file)).toBeGreaterThan(dbSize + 2000 * 1000);
    const walSize = size(`${file}-wal`);

    // Nothing written since: the next idle ticks leave the WAL as it is (no restart each time).
    const restarted = walHeader(file);
    await ticks(5);
    expect(walHeader(file)).toBe(restarted);

    // New writes go at the WAL's start again: it does not grow while it is checkpointed.
    for (let round = 0; round < 3; round++) {
      const before = walHeader(file);
      write(1000);
      await until(() => walHeader(file) !== before);
    }
    expect(size(`${file}-wal`)).toBe(walSize);
  });
});
