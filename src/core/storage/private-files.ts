import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/**
 * The station's files hold shipping records, addresses and (in Electron) encrypted secrets:
 * they belong to the user running the station and nobody else on the machine, whatever the
 * umask. Directories the station creates are 0700, its files 0600. (Windows has no such modes;
 * there the profile directory's ACL already keeps other users out.)
 */
const posix = process.platform !== 'win32';

/** Creates a directory (and missing parents) readable by its owner only. */
export function makePrivateDir(dir: string): void {
  if (existsSync(dir)) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The umask can only take bits away, but say it outright: the mode is the point.
  if (posix) chmodSync(dir, 0o700);
}

/** Creates an empty file 0600 when it is missing, and makes an existing one 0600. */
export function makePrivateFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  if (posix) chmodSync(file, 0o600);
}

/** Makes the files that exist 0600 (SQLite's -wal and -shm appear once the database is used). */
export function keepPrivate(...files: string[]): void {
  if (!posix) return;
  for (const file of files) if (existsSync(file)) chmodSync(file, 0o600);
}
