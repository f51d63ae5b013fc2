import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CliUsageError, intOption, parseCli } from '../../src/core/cli-args.js';

const USAGE = 'usage: thing [--port N] [--name X]';
const options = {
  port: { type: 'string' },
  name: { type: 'string', multiple: true },
  verbose: { type: 'boolean', short: 'v' },
} as const;

describe('parseCli (node:util parseArgs, strict)', () => {
  it('reads flags in both spellings, repeated and short', () => {
    const { values } = parseCli(
      { args: ['--port', '80', '--name=a', '--name', 'b', '-v'], options },
      USAGE,
    );
    expect(values).toEqual({ port: '80', name: ['a', 'b'], verbose: true });
  });

  it.each([
    [['--bogus'], /^unknown option --bogus\n\nusage: thing/],
    [['--port'], /^--port needs a value\n\nusage: thing/],
    [['--port='], /^--port needs a value\n\nusage: thing/],
    [['stray'], /^unexpected argument stray\n\nusage: thing/],
  ])('%j is refused in words, with the usage', (args, message) => {
    expect(() => parseCli({ args, options }, USAGE)).toThrow(CliUsageError);
    expect(() => parseCli({ args, options }, USAGE)).toThrow(message);
  });

  it('intOption checks bounds and names the flag', () => {
    expect(intOption('port', '0', { min: 0, max: 65535 }, USAGE)).toBe(0);
    expect(intOption('port', undefined, { min: 0 }, USAGE)).toBeUndefined();
    expect(() => intOption('port', '70000', { min: 0, max: 65535 }, USAGE)).toThrow(
      /^--port must be 0\.\.65535, got "70000"/,
    );
    expect(() => intOption('n', '1.5', { min: 1 }, USAGE)).toThrow(/--n must be an integer >= 1/);
  });
});

/** Runs a CLI of the project and returns how it ended. */
async function run(script: string, args: string[]) {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, SITE_STORE_URL: '' },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
}

describe('every command line refuses an unknown flag with its usage (exit 2)', () => {
  it.each([
    ['src/web-host/cli.ts', /^unknown option --bogus\n\nusage: npm run web/],
    ['src/core/site/cli.ts', /^unknown option --bogus\n\nusage: npm run site/],
    [
      'src/core/printing/virtual-printer/cli.ts',
      /unknown option --bogus\n\nusage: npm run virtual-printer/,
    ],
    ['bench/run.ts', /^unknown option --bogus\n\nusage: npm run bench/],
    ['src/sandbox/cli.ts', /Unknown option '--bogus'.*\nusage: npm run sandbox/s],
  ])('%s', async (script, message) => {
    const r = await run(script, ['--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('npm run site: no command, an unknown command, no --url are said in words', async () => {
    expect((await run('src/core/site/cli.ts', ['--url', 'postgres://u@h/d'])).stderr).toMatch(
      /^which command: migrate, status, offline-purchase, users, setting or stations\?/,
    );
    expect(
      (await run('src/core/site/cli.ts', ['drop', '--url', 'postgres://u@h/d'])).stderr,
    ).toMatch(/^unknown command drop/);
    const noUrl = await run('src/core/site/cli.ts', ['status']);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/^--url is needed \(or SITE_STORE_URL\)/);
  });

  it('scripts/native-deps.mjs refuses a flag it does not know', async () => {
    const r = await promisify(execFile)(process.execPath, [
      'scripts/native-deps.mjs',
      '--bogus',
    ]).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/usage: node scripts\/native-deps\.mjs \[--require\]/);
  });
});
