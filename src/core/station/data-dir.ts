import { homedir } from 'node:os';
import { join } from 'node:path';

export const PRODUCT_NAME = 'Shipping Station';

/**
 * The directory Electron's `app.getPath('userData')` gives "Shipping Station" on each OS,
 * computed in plain Node, so the web host and the app share one station by default.
 * `STATION_DATA_DIR` (and a host's `--data-dir`) override it, so tests and several stations on
 * one machine never share state by accident.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (env['STATION_DATA_DIR']) return env['STATION_DATA_DIR'];
  switch (platform) {
    case 'win32':
      return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), PRODUCT_NAME);
    case 'darwin':
      return join(home, 'Library', 'Application Support', PRODUCT_NAME);
    default:
      return join(env['XDG_CONFIG_HOME'] || join(home, '.config'), PRODUCT_NAME);
  }
}
