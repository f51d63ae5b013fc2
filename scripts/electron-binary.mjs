// Where the Electron binary is, or null when it was never downloaded. Electron 45's package
// tries to download the binary when it is required and missing, so this only looks at the
// files (path.txt names the executable inside dist/) and never requires 'electron'.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function electronBinary() {
  const require = createRequire(import.meta.url);
  let dir;
  try {
    dir = dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}
