import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir } from '../storage/private-files.js';

/**
 * One station process per data directory. Two hosts on the same directory (the app and
 * `npm run web`, both using the default) would run two print spools and two queue drainers on
 * one database; the second one refuses to start instead, and says which process holds it.
 * A lock left by a process that no longer exists (a crash, kill -9) is taken over.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  makePrivateDir(dataDir);
  const file = join(dataDir, 'station.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
        throw Object.assign(
          new Error(
            `Another Shipping Station (process ${pid}) is already using ${dataDir}. Close it first, or give this one its own --data-dir.`,
          ),
          { code: 'conflict' },
        );
      }
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock ${dataDir}.`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
