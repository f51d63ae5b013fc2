import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Stats } from 'node:fs';

/** What a hot folder entry is when it is not a plain file, in words for site IT. */
export function notPlainWords(entry: Stats): string | null {
  if (entry.isFile()) return null;
  if (entry.isSymbolicLink()) return 'a symbolic link';
  if (entry.isFIFO()) return 'a named pipe';
  if (entry.isSocket()) return 'a socket';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'a device';
  if (entry.isDirectory()) return 'a folder';
  return 'not a plain file';
}

/**
 * Reads a file only when it is a plain file itself: never through a symbolic link (which could
 * make the station read any file of the computer into a report in a shared folder), and never a
 * named pipe or device (whose read waits for ever and stops every later file). Opened without
 * following links and without blocking, then checked on the open file, so a link put in its
 * place between a look and the read is refused as well.
 */
export async function readPlainFile(
  path: string,
): Promise<{ bytes: Buffer } | { notPlain: string }> {
  let handle;
  try {
    handle = await open(
      path,
      constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0),
    );
  } catch (error) {
    // O_NOFOLLOW on a link: ELOOP (Linux, macOS), EMLINK (FreeBSD).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') return { notPlain: 'a symbolic link' };
    throw error;
  }
  try {
    const words = notPlainWords(await handle.stat());
    if (words) return { notPlain: words };
    return { bytes: await handle.readFile() };
  } finally {
    await handle.close();
  }
}
