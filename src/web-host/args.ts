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

export const usage = `usage: npm run web -- [--port N] [--data-dir DIR] [--provision FILE] [--hot-folder-root DIR]

  --port N          listen on 127.0.0.1:N (default: ${DEFAULT_PORT}, or a free port with a message
                    when ${DEFAULT_PORT} is taken; 0: any free port)
  --data-dir DIR    the station's data directory (default: STATION_DATA_DIR, else the app's)
  --provision FILE  set up a profile from a provisioning file (see docs/core.md)
  --hot-folder-root DIR
                    a hot folder set in the browser must lie under DIR (repeatable)
  --console         the shift-lead console: the Site view only (no packing, printer or scanner);
                    the data directory's profile and site store say which site (docs/site.md)`;

export function parseArgs(argv: readonly string[]): WebHostArgs {
  const args: WebHostArgs = {
    port: DEFAULT_PORT,
    portGiven: false,
    dataDir: null,
    provision: null,
    hotFolderRoots: [],
    console: false,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value\n\n${usage}`);
      return v;
    };
    switch (flag) {
      case '--port': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0 || n > 65535)
          throw new Error(`--port must be 0..65535\n\n${usage}`);
        args.port = n;
        args.portGiven = true;
        break;
      }
      case '--data-dir':
        args.dataDir = value();
        break;
      case '--provision':
        args.provision = value();
        break;
      case '--console':
        args.console = true;
        break;
      case '--hot-folder-root':
        args.hotFolderRoots.push(value());
        break;
      case '-h':
      case '--help':
        args.help = true;
        break;
      default:
        throw new Error(`unknown option ${arg}\n\n${usage}`);
    }
  }
  return args;
}
