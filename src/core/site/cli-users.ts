// `npm run site -- users …` and `npm run site -- setting …` (issue 14), for site/cli.ts.
import { createInterface } from 'node:readline';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../storage/database.js';
import { LocalUsers } from '../users/local.js';
import { badgeDigest, hashPin, pinProblem } from '../users/pin.js';
import { USER_ID, type UserRecord } from '../users/types.js';
import type { SiteStore } from './store.js';
import { parseSiteSetting, SITE_SETTING_KEYS } from './settings.js';

export { SITE_SETTING_KEYS };

/** The options of `npm run site` the users and setting commands read (parsed by site/cli.ts). */
export interface UserOptions {
  name?: string | undefined;
  role?: string | undefined;
  badge?: boolean | undefined;
  pin?: boolean | undefined;
  clear?: boolean | undefined;
}

/** Reads lines from standard input (a terminal or a pipe): the badge, then the PIN. */
function lines(): () => Promise<string> {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const queue: string[] = [];
  const waiting: ((l: string) => void)[] = [];
  rl.on('line', (l) => (waiting.length ? waiting.shift()!(l) : queue.push(l)));
  rl.on('close', () => waiting.splice(0).forEach((w) => w('')));
  return async () => {
    const next = queue.shift();
    if (next !== undefined) return next;
    return new Promise<string>((resolve) => waiting.push(resolve));
  };
}

export async function runUsersCommand(
  args: string[],
  opts: UserOptions,
  where: { store: SiteStore } | { stationDir: string },
  usage: string,
): Promise<number> {
  const sub = args[0];
  // A station's own list lives in its database: a mistyped folder must not become a new one.
  const file = 'stationDir' in where ? join(where.stationDir, 'station.db') : null;
  if (file && !existsSync(file)) {
    console.error(
      `No station data in ${(where as { stationDir: string }).stationDir} (station.db not found). Give the station's data folder (Settings → Station shows it).`,
    );
    return 2;
  }
  const db = file ? openDatabase(file) : null;
  const local = db ? new LocalUsers(db) : null;
  const list = async (): Promise<UserRecord[]> =>
    local ? local.list() : (where as { store: SiteStore }).store.users();
  const save = async (u: UserRecord) =>
    local ? local.upsert(u) : (where as { store: SiteStore }).store.saveUser(u);
  try {
    if (sub === 'list') {
      const users = await list();
      if (users.length === 0) {
        console.log(
          'No users yet: nobody signs in, and every station packs without sign-in. Add one with: npm run site -- users add <id> --name … --role packer|lead --badge',
        );
        return 0;
      }
      console.log('id\tname\trole\tbadge\tPIN\tstate');
      for (const u of users)
        console.log(
          `${u.userId}\t${u.name}\t${u.role}\t${u.badgeSha256 ? 'badge' : '-'}\t${u.pinHash ? 'PIN' : '-'}\t${u.active ? 'active' : 'disabled'}`,
        );
      return 0;
    }
    if (sub === 'add') {
      const userId = args[1] ?? '';
      const name = opts.name?.trim();
      const role = opts.role;
      const missing = !USER_ID.test(userId)
        ? userId
          ? `"${userId}" is not a user id (letters, digits, . - _)`
          : 'the user id is missing'
        : !name
          ? '--name is missing'
          : role === undefined
            ? '--role is missing'
            : role !== 'packer' && role !== 'lead'
              ? `"${role}" is not a role: a user is a packer or a lead`
              : null;
      if (missing) {
        console.error(
          `${missing}. A user needs an id (letters, digits, . - _), --name and --role packer|lead.\n${usage}`,
        );
        return 2;
      }
      if (!opts.badge && !opts.pin) {
        console.error(`Give the user a --badge, a --pin or both.\n${usage}`);
        return 2;
      }
      const read = lines();
      let badgeSha256: string | null = null;
      let pinHash: string | null = null;
      if (opts.badge) {
        process.stderr.write('Scan the badge (then Enter): ');
        const code = (await read()).trim();
        if (!code) {
          console.error('No badge code was read.');
          return 2;
        }
        badgeSha256 = badgeDigest(code);
      }
      if (opts.pin) {
        process.stderr.write('PIN (4 to 12 digits, then Enter): ');
        const pin = (await read()).trim();
        const problem = pinProblem(pin);
        if (problem) {
          console.error(problem);
          return 2;
        }
        pinHash = await hashPin(pin);
      }
      const users = await list();
      const existing = users.find((u) => u.userId === userId);
      const holder = badgeSha256
        ? users.find((u) => u.userId !== userId && u.badgeSha256 === badgeSha256)
        : undefined;
      if (holder) {
        console.error(
          `That badge already belongs to ${holder.name} (${holder.userId}); scan another badge, or disable ${holder.userId} first. Nothing was saved.`,
        );
        return 1;
      }
      await save({
        userId,
        name: name!,
        role: role as 'packer' | 'lead',
        badgeSha256: badgeSha256 ?? existing?.badgeSha256 ?? null,
        pinHash: pinHash ?? existing?.pinHash ?? null,
        active: true,
      });
      console.log(`${name} (${userId}) is a ${role === 'lead' ? 'shift lead' : 'packer'}.`);
      return 0;
    }
    if (sub === 'disable') {
      const u = (await list()).find((x) => x.userId === args[1]);
      if (!u) {
        console.error(`No user ${args[1] ?? ''}.`);
        return 1;
      }
      await save({ ...u, active: false });
      console.log(`${u.name} (${u.userId}) can no longer sign in.`);
      return 0;
    }
    console.error(
      `${sub ? `unknown users command ${sub}` : 'which users command: list, add or disable?'}\n\n${usage}`,
    );
    return 2;
  } finally {
    db?.close();
  }
}

export async function runSettingCommand(
  args: string[],
  opts: UserOptions,
  store: SiteStore,
  usage: string,
): Promise<number> {
  const key = args[0];
  if (!key || !(SITE_SETTING_KEYS as readonly string[]).includes(key)) {
    if (key) console.error(`${key} is not a site setting (${SITE_SETTING_KEYS.join(', ')}).`);
    console.error(usage);
    return 2;
  }
  if (opts.clear) {
    await store.clearSetting(key);
    console.log(`${key} is no longer set for the site; each station uses its own.`);
    return 0;
  }
  if (args[1] === undefined) {
    const all = await store.settings();
    console.log(all[key] ?? '(not set: each station uses its own)');
    return 0;
  }
  const parsed = parseSiteSetting(key, args[1]);
  if (!parsed.ok) {
    console.error(parsed.message);
    return 2;
  }
  await store.setSetting(key, parsed.text);
  // The value said back when it is short (a number, a word); a long JSON one is shown on ask.
  console.log(
    parsed.text.length <= 60
      ? `${key} is now ${parsed.text} for every station of the site.`
      : `${key} is now set for every station of the site (npm run site -- setting ${key} shows it).`,
  );
  return 0;
}
