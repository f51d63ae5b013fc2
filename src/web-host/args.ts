import { intOption, parseCli } from '../core/cli-args.js';

export interface WebHostArgs {
  port: number;
  /** --port was given: a taken port is then an error, not a reason to pick another. */
  portGiven: boolean;
  dataDir: string | null;
  provision: string | null;
  /** Folders under which a hot folder may be set from the page. */
  hotFolderRoots: string[];
  /** The shift-lead console: the Site view only, for a screen with no printer or scanner. */
  console: boolean;
  help: boolean;
}

/** The station's default address: stable, so a bookmark-free shortcut can say where it is. */
export const DEFAULT_PORT = 7410;

export const usage = `usage: npm run web -- [--port N] [--data-dir DIR] [--provision FILE] [--hot-folder-root DIR] [--console]

  --port N          listen on 127.0.0.1:N (default: ${DEFAULT_PORT}, or a free port with a message
                    when ${DEFAULT_PORT} is taken; 0: any free port)
  --data-dir DIR    the station's data directory (default: STATION_DATA_DIR, else the app's)
  --provision FILE  set up a profile from a provisioning file (see docs/core.md)
  --hot-folder-root DIR
                    a hot folder set in the browser must lie under DIR (repeatable)
  --console         the shift-lead console: the Site view only (no packing, printer or scanner);
                    the data directory's profile and site store say which site (docs/site.md)`;

export function parseArgs(argv: readonly string[]): WebHostArgs {
  const { values } = parseCli(
    {
      args: [...argv],
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        provision: { type: 'string' },
        'hot-folder-root': { type: 'string', multiple: true },
        console: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    usage,
  );
  const port = intOption('port', values.port, { min: 0, max: 65535 }, usage);
  return {
    port: port ?? DEFAULT_PORT,
    portGiven: port !== undefined,
    dataDir: values['data-dir'] ?? null,
    provision: values.provision ?? null,
    hotFolderRoots: values['hot-folder-root'] ?? [],
    console: values.console ?? false,
    help: values.help ?? false,
  };
}
