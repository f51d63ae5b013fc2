// Site IT's command line for the site store:
//   npm run site -- migrate --url postgres://site_owner@db.site.local/shipping_site
//   npm run site -- status  --url …
//   npm run site -- offline-purchase allow|refuse --url …
//   npm run site -- users list --url …
//   npm run site -- users add <user id> --name "Ana Ruiz" --role packer|lead [--badge] [--pin] --url …
//   npm run site -- users disable <user id> --url …
//   npm run site -- setting <key> [<json value> | --clear] --url …   (issue 14's site settings)
// The users commands take --station-dir <data dir> instead of --url for a station alone.
// The password comes from PGPASSWORD (or STATION_SECRET_SITE_STORE), never from the command line;
// a badge code and a PIN are read from standard input (never arguments: they show in `ps`).
import {
  describeSiteStore,
  parseSiteStoreConfig,
  SITE_PASSWORD_ENV,
  SiteConfigError,
  type SiteStoreConfig,
} from './config.js';
import { SiteStore } from './store.js';
import { runUsersCommand, runSettingCommand, SITE_SETTING_KEYS } from './cli-users.js';

const args = process.argv.slice(2);
const command = args[0];
const flag = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const url = flag('url') ?? process.env.SITE_STORE_URL;
const usage =
  'usage: npm run site -- migrate|status|offline-purchase <allow|refuse> --url postgres://user@host:5432/database\n' +
  '       npm run site -- users list|add <id> --name <name> --role packer|lead [--badge] [--pin]|disable <id> (--url … | --station-dir <dir>)\n' +
  `       npm run site -- setting <${SITE_SETTING_KEYS.join('|')}> [<json value> | --clear] --url …\n` +
  `The password is read from PGPASSWORD or ${SITE_PASSWORD_ENV}.`;

if (command === 'users' && flag('station-dir')) {
  process.exitCode = await runUsersCommand(
    args.slice(1),
    { stationDir: flag('station-dir')! },
    usage,
  );
  process.exit();
}
if (!command || !url) {
  console.error(usage);
  process.exit(2);
}
// The address is checked as a station checks its setting, so a typo is said in words.
let config: SiteStoreConfig;
try {
  config = parseSiteStoreConfig({ url, stationId: 'site-cli', stationName: 'site IT' });
} catch (error) {
  if (!(error instanceof SiteConfigError)) throw error;
  console.error(`${error.message.replace(/^siteStore\.url/, '--url')}\n${usage}`);
  process.exit(2);
}
const store = new SiteStore({
  config,
  password: process.env.PGPASSWORD ?? process.env[SITE_PASSWORD_ENV],
});
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
      console.log(`site store ${describeSiteStore(url)}, schema ${await store.schemaVersion()}`);
      console.log(`offlinePurchase: ${(await store.setting('offlinePurchase')) ?? 'allow'}`);
      for (const s of await store.stations())
        console.log(
          `${s.stationName} (${s.stationId}): last seen ${s.lastSeenAt}, ${s.depth} change(s) waiting${s.oldestAt ? ` since ${s.oldestAt}` : ''}`,
        );
      break;
    }
    case 'offline-purchase': {
      const value = args[1];
      if (value !== 'allow' && value !== 'refuse') throw new Error(usage);
      await store.setSetting('offlinePurchase', value);
      console.log(`offlinePurchase is now ${value} for every station of the site.`);
      break;
    }
    case 'users':
      process.exitCode = await runUsersCommand(args.slice(1), { store }, usage);
      break;
    case 'setting':
      process.exitCode = await runSettingCommand(args.slice(1), store, usage);
      break;
    default:
      throw new Error(usage);
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await store.close();
}
