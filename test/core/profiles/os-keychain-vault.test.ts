import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectOsKeychain } from '../../../src/core/profiles/os-keychain-vault.js';
import { tempDir } from '../../support/tmp.js';

/**
 * The OS keychain is a true edge of the machine (there is no Secret Service on CI), so these
 * tests put a stand-in `secret-tool` on PATH that behaves like libsecret's: `store` reads the
 * secret from stdin, `lookup` prints it or exits 1 quietly, `clear` removes it, and with no
 * D-Bus session it fails with an error on stderr. It also records every command line it got.
 */
function fakeSecretTool(
  dir: string,
  mode: 'working' | 'no-dbus',
): { keyring: string; argvLog: string } {
  const keyring = join(dir, 'keyring.json');
  const argvLog = join(dir, 'argv.log');
  const script = `#!/usr/bin/env node
const fs = require('node:fs');
const [cmd, ...rest] = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(argvLog)}, JSON.stringify(process.argv.slice(2)) + '\\n');
if (${JSON.stringify(mode)} === 'no-dbus') {
  process.stderr.write('secret-tool: Cannot autolaunch D-Bus without X11 $DISPLAY\\n');
  process.exit(1);
}
const file = ${JSON.stringify(keyring)};
const ring = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
const attrs = rest.filter((a, i) => !(a.startsWith('--label') || rest[i - 1] === '--label')).join('|');
if (cmd === 'store') {
  ring[attrs] = fs.readFileSync(0, 'utf8');
  fs.writeFileSync(file, JSON.stringify(ring));
} else if (cmd === 'lookup') {
  if (!(attrs in ring)) process.exit(1);
  process.stdout.write(ring[attrs]);
} else if (cmd === 'clear') {
  delete ring[attrs];
  fs.writeFileSync(file, JSON.stringify(ring));
} else process.exit(2);
`;
  const tool = join(dir, 'secret-tool');
  writeFileSync(tool, script);
  chmodSync(tool, 0o755);
  return { keyring, argvLog };
}

describe('OS keychain vault (Secret Service through secret-tool)', () => {
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
  });

  it('stores, reads and clears a secret, which never appears on a command line', async () => {
    const dir = tempDir('keychain-');
    const { argvLog, keyring } = fakeSecretTool(dir, 'working');
    process.env.PATH = `${dir}:${path}`;
    const found = await detectOsKeychain({ platform: 'linux' });
    if (!found.vault) throw new Error(found.reason);
    const { vault } = found;
    expect(vault.description).toMatch(/Secret Service/);
    expect(await vault.has('profile:a:clientSecret')).toBe(false);

    await vault.set('profile:a:clientSecret', 's3cret-value-xyz');
    await vault.set('profile:b:clientSecret', 'other-secret');
    expect(await vault.get('profile:a:clientSecret')).toBe('s3cret-value-xyz');
    expect(readFileSync(keyring, 'utf8')).toContain('s3cret-value-xyz');

    // A second process (a restart) reads it back from the keychain, not from memory.
    const again = await detectOsKeychain({ platform: 'linux' });
    expect(await again.vault!.get('profile:a:clientSecret')).toBe('s3cret-value-xyz');

    await again.vault!.delete('profile:a:clientSecret');
    expect(await again.vault!.get('profile:a:clientSecret')).toBeUndefined();
    expect(await again.vault!.get('profile:b:clientSecret')).toBe('other-secret');

    expect(readFileSync(keyring, 'utf8')).not.toContain('s3cret-value-xyz');
    expect(readFileSync(argvLog, 'utf8')).not.toContain('s3cret-value-xyz');
  });

  it('says why there is no keychain when the Secret Service is unreachable, or the tool missing', async () => {
    const dir = tempDir('keychain-');
    fakeSecretTool(dir, 'no-dbus');
    process.env.PATH = `${dir}:${path}`;
    const noBus = await detectOsKeychain({ platform: 'linux' });
    expect(noBus.vault).toBeNull();
    expect(noBus.vault === null && noBus.reason).toMatch(/not reachable: .*D-Bus/);

    process.env.PATH = join(dir, 'nothing-here');
    const missing = await detectOsKeychain({ platform: 'linux' });
    expect(missing.vault === null && missing.reason).toMatch(/libsecret-tools/);

    const windows = await detectOsKeychain({ platform: 'win32' });
    expect(windows.vault === null && windows.reason).toMatch(/Electron app/);
  });
});
