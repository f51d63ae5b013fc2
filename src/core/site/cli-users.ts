// `npm run site -- users …` and `npm run site -- setting …` (issue 14), for site/cli.ts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../storage/database.js';
import { LocalUsers } from '../users/local.js';
import { badgeDigest, hashPin, pinProblem } from '../users/pin.js';
import { USER_ID, type UserRecord } from '../users/types.js';
import type { SiteStore } from './store.js';
import { parseSiteSetting, SITE_SETTING_KEYS } from './settings.js';
import { cliInput } from './cli-input.js';

export { SITE_SETTING_KEYS };

/** The options of `npm run site` the users and setting commands read (parsed by site/cli.ts). */
export interface UserOptions {
  name?: string | undefined;
  role?: string | undefined;
  badge?: boolean | undefined;
  pin?: boolean | undefined;
  clear?: boolean | undefined;
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
    if (sub === 'add') return await addUser(args[1] ?? '', opts, list, save, usage);
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

/**
 * `users add <id>`: a new user needs --name, --role and a badge or a PIN; for an id that exists
 * it changes what is given, keeps the rest, and enables a disabled user again (site.md, Users
 * and roles).
 */
async function addUser(
  userId: string,
  opts: UserOptions,
  list: () => Promise<UserRecord[]>,
  save: (u: UserRecord) => Promise<void>,
  usage: string,
): Promise<number> {
  const name = opts.name?.trim();
  const role = opts.role;
  const wrong = !USER_ID.test(userId)
    ? userId
      ? `"${userId}" is not a user id (letters, digits, . - _)`
      : 'the user id is missing'
    : role !== undefined && role !== 'packer' && role !== 'lead'
      ? `"${role}" is not a role: a user is a packer or a lead`
      : opts.name !== undefined && !name
        ? '--name is empty'
        : null;
  if (wrong) {
    console.error(
      `${wrong}. A user needs an id (letters, digits, . - _), --name and --role packer|lead.\n${usage}`,
    );
    return 2;
  }
  const users = await list();
  const existing = users.find((u) => u.userId === userId);
  if (!existing) {
    const missing = !name ? '--name is missing' : role === undefined ? '--role is missing' : null;
    if (missing) {
      console.error(
        `${missing}. A user needs an id (letters, digits, . - _), --name and --role packer|lead.\n${usage}`,
      );
      return 2;
    }
    if (!opts.badge && !opts.pin) {
      console.error(
        `${userId} is a new user: give them a --badge, a --pin or both (an existing user keeps theirs).\n${usage}`,
      );
      return 2;
    }
  }
  const input = cliInput();
  try {
    let badgeSha256: string | null = null;
    let pinHash: string | null = null;
    if (opts.badge) {
      const code = (await input.line('Scan the badge (then Enter): ')).trim();
      if (!code) {
        console.error('No badge code was read. Nothing was saved.');
        return 2;
      }
      badgeSha256 = badgeDigest(code);
    }
    if (opts.pin) {
      const pin = (
        await input.secret(
          input.terminal
            ? 'PIN (4 to 12 digits, not shown as typed, then Enter): '
            : 'PIN (4 to 12 digits, then Enter): ',
        )
      ).trim();
      const problem = pinProblem(pin);
      if (problem) {
        console.error(`${problem} Nothing was saved.`);
        return 2;
      }
      // Typed unseen, a slip of a finger would go unnoticed: a terminal asks for it again.
      if (input.terminal && (await input.secret('The same PIN again: ')).trim() !== pin) {
        console.error('The two PINs typed differ. Nothing was saved; run the command again.');
        return 2;
      }
      pinHash = await hashPin(pin);
    }
    const holder = badgeSha256
      ? users.find((u) => u.userId !== userId && u.badgeSha256 === badgeSha256)
      : undefined;
    if (holder) {
      console.error(
        `That badge already belongs to ${holder.name} (${holder.userId}); scan another badge, or disable ${holder.userId} first. Nothing was saved.`,
      );
      return 1;
    }
    const user: UserRecord = {
      userId,
      name: name ?? existing!.name,
      role: (role ?? existing!.role) as 'packer' | 'lead',
      badgeSha256: badgeSha256 ?? existing?.badgeSha256 ?? null,
      pinHash: pinHash ?? existing?.pinHash ?? null,
      active: true,
    };
    await save(user);
    const kept = [
      !badgeSha256 && existing?.badgeSha256 ? 'badge' : null,
      !pinHash && existing?.pinHash ? 'PIN' : null,
    ].filter(Boolean);
    console.log(
      `${user.name} (${userId}) is a ${user.role === 'lead' ? 'shift lead' : 'packer'}.` +
        (existing && !existing.active ? ` Enabled again: ${user.name} can sign in.` : '') +
        (kept.length ? ` Kept: their ${kept.join(' and ')}.` : ''),
    );
    return 0;
  } finally {
    input.close();
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
