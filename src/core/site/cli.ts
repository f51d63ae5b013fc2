// Site IT's command line for the site store:
//   npm run site -- migrate --url postgres://site_owner@db.site.local/shipping_site
//   npm run site -- status  --url …
//   npm run site -- offline-purchase allow|refuse --url …
//   npm run site -- users list --url …
//   npm run site -- users add <user id> --name "Ana Ruiz" --role packer|lead [--badge] [--pin] --url …
//   npm run site -- users disable <user id> --url …
//   npm run site -- setting <key> [<json value> | --clear] --url …   (issue 14's site settings)
//   npm run site -- stations list|retire <station id> --url …
// The users commands take --station-dir <data dir> instead of --url for a station alone.
// The password comes from PGPASSWORD (or STATION_SECRET_SITE_STORE when PGPASSWORD is not set;
// siteItPassword), never from the command line or the address, and every message names the
// variable it was read from; a badge code and a PIN are read from standard input (never
// arguments: they show in `ps`).
import {
  describeSiteStore,
  parseSiteStoreConfig,
  SITE_IT_PASSWORD_ENV,
  SITE_PASSWORD_ENV,
  SiteConfigError,
  siteItPassword,
  type SiteStoreConfig,
} from './config.js';
import { SiteStore } from './store.js';
import { SITE_SCHEMA_VERSION } from './schema.js';
import { olderSchemaWords } from './sync.js';
import { describeSiteErrorForSiteIt, SiteStoreError } from './errors.js';
import { CliUsageError, parseCli } from '../cli-args.js';
import { runSettingCommand, runUsersCommand, SITE_SETTING_KEYS } from './cli-users.js';

const usage =
  'usage: npm run site -- migrate|status|offline-purchase <allow|refuse> --url postgres://user@host:5432/database\n' +
  '       npm run site -- users list|add <id> --name <name> --role packer|lead [--badge] [--pin]|disable <id> (--url … | --station-dir <dir>)\n' +
  '         (users add for an existing id: only what changes; it enables a disabled user again)\n' +
  `       npm run site -- setting <${SITE_SETTING_KEYS.join('|')}> [<json value> | --clear] --url …\n` +
  '       npm run site -- stations list|retire <station id> --url …   (retire: take a station that is gone off the lists)\n' +
  `The password is read from ${SITE_IT_PASSWORD_ENV} (${SITE_PASSWORD_ENV} when ${SITE_IT_PASSWORD_ENV} is not set), never from the command line or the address; --url defaults to SITE_STORE_URL.`;

const COMMANDS: Record<string, number> = {
  migrate: 0,
  status: 0,
  'offline-purchase': 1,
  users: 2,
  setting: 2,
  stations: 2,
};
let command: string;
let url: string;
let positionals: string[];
let options: {
  name?: string;
  role?: string;
  badge?: boolean;
  pin?: boolean;
  clear?: boolean;
  'station-dir'?: string;
};
try {
  const parsed = parseCli(
    {
      options: {
        url: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        name: { type: 'string' },
        role: { type: 'string' },
        badge: { type: 'boolean' },
        pin: { type: 'boolean' },
        clear: { type: 'boolean' },
        'station-dir': { type: 'string' },
      },
      allowPositionals: true,
    },
    usage,
  );
  if (parsed.values.help) {
    console.log(usage);
    process.exit(0);
  }
  positionals = parsed.positionals;
  options = parsed.values;
  command = positionals[0] ?? '';
  if (!command)
    throw new CliUsageError(
      'which command: migrate, status, offline-purchase, users, setting or stations?',
      usage,
    );
  if (!(command in COMMANDS)) throw new CliUsageError(`unknown command ${command}`, usage);
  if (positionals.length > 1 + COMMANDS[command]!)
    throw new CliUsageError(`unexpected argument ${positionals[1 + COMMANDS[command]!]}`, usage);
  if (command === 'offline-purchase' && !['allow', 'refuse'].includes(positionals[1] ?? ''))
    throw new CliUsageError(
      positionals[1]
        ? `offline-purchase is allow or refuse, not "${positionals[1]}"`
        : 'offline-purchase needs allow or refuse',
      usage,
    );
  // A station alone keeps its users in its own SQLite: no store needed.
  if (command === 'users' && options['station-dir']) {
    process.exit(
      await runUsersCommand(
        positionals.slice(1),
        options,
        { stationDir: options['station-dir'] },
        usage,
      ),
    );
  }
  const given = parsed.values.url ?? process.env.SITE_STORE_URL;
  if (!given) throw new CliUsageError('--url is needed (or SITE_STORE_URL)', usage);
  url = given;
} catch (error) {
  if (!(error instanceof CliUsageError)) throw error;
  console.error(error.message);
  process.exit(2);
}
// The address is checked as a station checks its setting, so a typo is said in words.
let config: SiteStoreConfig;
try {
  config = parseSiteStoreConfig(
    { url, stationId: 'site-cli', stationName: 'site IT' },
    `${SITE_IT_PASSWORD_ENV} (never on the command line, which ps shows)`,
  );
} catch (error) {
  if (!(error instanceof SiteConfigError)) throw error;
  console.error(`${error.message.replace(/^siteStore\.url/, '--url')}\n${usage}`);
  process.exit(2);
}
/** When a station was last seen, as a time and how long ago ("2026-11-28 02:40 UTC, 3 min ago"). */
function seen(iso: string): string {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  const ago =
    s < 120
      ? `${s} s ago`
      : s < 7200
        ? `${Math.round(s / 60)} min ago`
        : s < 172_800
          ? `${Math.round(s / 3600)} h ago`
          : `${Math.round(s / 86_400)} days ago`;
  return `${iso.slice(0, 16).replace('T', ' ')} UTC, ${ago}`;
}

async function listStations(): Promise<void> {
  const stations = await store.stations();
  if (stations.length === 0) console.log('No station has checked in yet.');
  for (const s of stations)
    console.log(
      `${s.stationName} (${s.stationId}): ${s.appVersion ?? 'version not said'}; last seen ${seen(s.lastSeenAt)}; ${s.depth} change(s) waiting${s.oldestAt ? ` since ${s.oldestAt}` : ''}`,
    );
}

async function runStationsCommand(args: string[]): Promise<number> {
  const [sub, id] = args;
  if (sub === 'list' && id === undefined) {
    await listStations();
    return 0;
  }
  if (sub !== 'retire' || !id) {
    console.error(
      sub === 'retire'
        ? 'stations retire needs the station id (npm run site -- stations list shows them)'
        : `stations is list or retire <station id>, not "${args.join(' ')}"\n${usage}`,
    );
    return 2;
  }
  const r = await store.retireStation(id);
  if (r.outcome === 'unknown') {
    console.error(
      `No station "${id}" in this site store.${r.known.length ? ` Its stations: ${r.known.join(', ')}.` : ' No station has checked in yet.'}`,
    );
    return 1;
  }
  if (r.outcome === 'running') {
    console.error(
      `${r.stationName} (${id}) checked in ${seen(r.lastSeenAt).split(', ')[1]}: it may still be running (a station is taken for running until two minutes after its last check-in), and a running station is listed again at its next check-in. Close it (or remove the site store in its Settings → Site store); once it has been quiet for two minutes, retire it.`,
    );
    return 1;
  }
  console.log(
    `${r.stationName} (${id}) is no longer listed (last seen ${seen(r.lastSeenAt)}). Its labels, reprints and history stay in the site store; its printers are no longer offered to other stations. Should it start again with this site store, it is listed again.`,
  );
  return 0;
}

// Said in failures as where the password came from, never what it is.
const { password, variable: passwordVariable } = siteItPassword();
const store = new SiteStore({ config, password });
try {
  switch (command) {
    case 'migrate': {
      const { from, to } = await store.migrate();
      console.log(
        from === to
          ? `${describeSiteStore(url)} is already at schema ${to}.`
          : `${describeSiteStore(url)} migrated from schema ${from} to ${to}.`,
      );
      break;
    }
    case 'status': {
      const schema = await store.schemaVersion();
      if (schema === 0) {
        console.log(
          `site store ${describeSiteStore(url)} is not set up yet (no site schema): run npm run site -- migrate --url ${url}`,
        );
        // Not a healthy store: a monitoring script sees it in the exit code too.
        process.exitCode = 1;
        break;
      }
      console.log(`site store ${describeSiteStore(url)}, schema ${schema}`);
      // Older than this version's: stations of this version work with it, without what the
      // later migrations add (said, with who mends it).
      if (schema < SITE_SCHEMA_VERSION) console.log(olderSchemaWords(schema));
      console.log(`offlinePurchase: ${(await store.setting('offlinePurchase')) ?? 'allow'}`);
      await listStations();
      break;
    }
    case 'stations':
      process.exitCode = await runStationsCommand(positionals.slice(1));
      break;
    case 'offline-purchase': {
      const value = positionals[1];
      if (value !== 'allow' && value !== 'refuse') throw new Error(usage);
      await store.setSetting('offlinePurchase', value);
      console.log(`offlinePurchase is now ${value} for every station of the site.`);
      break;
    }
    case 'users':
      process.exitCode = await runUsersCommand(positionals.slice(1), options, { store }, usage);
      break;
    case 'setting':
      process.exitCode = await runSettingCommand(positionals.slice(1), options, store, usage);
      break;
    default:
      throw new Error(usage);
  }
} catch (error) {
  // Site IT's sentence (what was tried, what to check on the server), not a station's.
  console.error(
    error instanceof SiteStoreError
      ? describeSiteErrorForSiteIt(error, url, { variable: passwordVariable })
      : (error as Error).message,
  );
  process.exitCode = 1;
} finally {
  await store.close();
}
// Everything is said. node-postgres leaves open the socket of a login it gave up itself (no
// password to send) until the server's authentication_timeout, a minute: do not wait for it.
process.stdout.write('', () => process.exit());
