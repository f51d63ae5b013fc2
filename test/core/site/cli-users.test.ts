import { execFile, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/storage/database.js';
import { LocalUsers } from '../../../src/core/users/local.js';
import { verifyPin } from '../../../src/core/users/pin.js';
import { tempDir } from '../../support/tmp.js';

// `npm run site -- users add` as site IT types it, on a station alone (--station-dir): the same
// command code as against a site store, without a PostgreSQL cluster.

const repo = join(import.meta.dirname, '../../..');
let dataDir: string;

beforeEach(() => {
  dataDir = tempDir('cli-users-');
  openDatabase(join(dataDir, 'station.db')).close();
});

/**
 * A terminal for the CLI needs util-linux's `script` (Linux; CI installs Debian, where it is
 * always there). macOS's `script` takes other options: there the terminal tests do not run.
 */
const utilLinuxScript = /util-linux/.test(
  spawnSync('script', ['--version']).stdout?.toString() ?? '',
);

const cliArgs = (args: string[]) => [
  '--import',
  'tsx',
  'src/core/site/cli.ts',
  'users',
  ...args,
  '--station-dir',
  dataDir,
];

/** Standard input from a pipe, as a script gives it. */
function run(args: string[], input = '') {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      cliArgs(args),
      { cwd: repo },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(input);
  });
}

/**
 * Under a terminal (a pty from util-linux's `script`): each answer is typed once the question
 * is on the screen, and the screen is everything the terminal showed, echo included.
 */
function typed(args: string[], answers: [question: RegExp, answer: string][]) {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, ...cliArgs(args)].map(quote).join(' ');
  return new Promise<{ code: number; screen: string }>((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: repo });
    let screen = '';
    let answered = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      const next = answers[answered];
      if (next && next[0].test(screen.slice(screen.lastIndexOf('\n', screen.length - 2) + 1))) {
        answered += 1;
        child.stdin.write(`${next[1]}\r`);
      }
    });
    // A question never asked must not hang the file: what was on the screen is the answer.
    const stuck = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(stuck);
      resolve({ code: code ?? 1, screen });
    });
  });
}

const users = () => {
  const db = openDatabase(join(dataDir, 'station.db'));
  try {
    return new LocalUsers(db).list();
  } finally {
    db.close();
  }
};

// Six runs of the CLI, each a process of its own: more than the default 20 s on a loaded machine.
describe('npm run site -- users add', { timeout: 60_000 }, () => {
  it('enables a disabled user again with no new badge or PIN, keeping what is not given', async () => {
    expect(
      await run(['add', 'ana', '--name', 'Ana Ruiz', '--role', 'packer', '--pin'], '2468\n'),
    ).toMatchObject({ code: 0, stdout: 'Ana Ruiz (ana) is a packer.\n' });
    const before = users()[0]!;
    expect(await run(['disable', 'ana'])).toMatchObject({ code: 0 });
    expect(users()[0]!.active).toBe(false);

    // As the tester typed it: name and role again, no --badge or --pin.
    const again = await run(['add', 'ana', '--name', 'Ana Ruiz', '--role', 'packer']);
    expect(again).toMatchObject({
      code: 0,
      stdout: 'Ana Ruiz (ana) is a packer. Enabled again: Ana Ruiz can sign in. Kept: their PIN.\n',
    });
    expect(users()).toEqual([{ ...before, active: true }]);
    expect(await verifyPin('2468', users()[0]!.pinHash!)).toBe(true);

    // Only what changes: the role; the name and PIN are kept.
    expect(await run(['add', 'ana', '--role', 'lead'])).toMatchObject({
      code: 0,
      stdout: 'Ana Ruiz (ana) is a shift lead. Kept: their PIN.\n',
    });
    expect(users()).toEqual([{ ...before, role: 'lead', active: true }]);

    // A new user still needs a name, a role and a badge or a PIN.
    expect(await run(['add', 'bo', '--name', 'Bo', '--role', 'lead'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^bo is a new user: give them a --badge, a --pin or both/),
    });
    expect(await run(['add', 'bo', '--role', 'lead', '--pin'], '1357\n')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^--name is missing\./),
    });
    expect(users().map((u) => u.userId)).toEqual(['ana']);
  });

  it.runIf(utilLinuxScript)(
    'from a terminal the PIN is not shown as it is typed, and is asked twice',
    async () => {
      const added = await typed(
        ['add', 'cy', '--name', 'Cy Okafor', '--role', 'packer', '--pin'],
        [
          [/^PIN \(4 to 12 digits.*\): $/, '80417'],
          [/^The same PIN again: $/, '80417'],
        ],
      );
      expect(added.code).toBe(0);
      expect(added.screen).toContain('PIN (4 to 12 digits, not shown as typed, then Enter): ');
      expect(added.screen).toContain('Cy Okafor (cy) is a packer.');
      expect(added.screen).not.toContain('80417');
      expect(await verifyPin('80417', users()[0]!.pinHash!)).toBe(true);

      // Two different PINs: refused, and the PIN stays what it was.
      const slipped = await typed(
        ['add', 'cy', '--pin'],
        [
          [/^PIN \(4 to 12 digits.*\): $/, '11112'],
          [/^The same PIN again: $/, '11113'],
        ],
      );
      expect(slipped.code).toBe(2);
      expect(slipped.screen).toContain(
        'The two PINs typed differ. Nothing was saved; run the command again.',
      );
      expect(slipped.screen).not.toMatch(/1111[23]/);
      expect(await verifyPin('80417', users()[0]!.pinHash!)).toBe(true);
    },
  );
});
