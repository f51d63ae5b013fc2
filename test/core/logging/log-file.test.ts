import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  openStationLog,
  Redactor,
  REDACTED,
  rememberingVault,
} from '../../../src/core/logging/index.js';
import { MemorySecretVault } from '../../../src/core/profiles/secret-vault.js';
import { tempDir } from '../../support/tmp.js';

const CLIENT_SECRET = 'sk_live_9f8e7d6c5b4a3210';
const SITE_PASSWORD = 'Warehouse-Pg-Pa55!';
const BEARER = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzdGF0aW9uIn0.c2lnbmF0dXJl';
const ENV_SECRET = 'provisioned-secret-from-env-42';

function allLogText(dir: string): string {
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

describe('the rotating log file', () => {
  it('never writes a client secret, site store password or bearer token, however it is given', async () => {
    const dataDir = tempDir();
    const mirrored: string[] = [];
    const redactor = new Redactor({ STATION_SECRET_DOCK3: ENV_SECRET, HOME: '/home/ana' });
    const log = openStationLog({
      dataDir,
      host: 'web',
      redactor,
      mirror: (l) => mirrored.push(l),
    });
    // The vault the station uses: what goes in (Settings) and comes out (sign-in) is remembered.
    const vault = rememberingVault(new MemorySecretVault(), redactor);
    vault.set('profile:p1:clientSecret', CLIENT_SECRET);
    await vault.set('site-store:password', SITE_PASSWORD);

    log.line(`sign-in failed for client c1 with secret ${CLIENT_SECRET}: 401`);
    log.line(`site store: connect postgres://station:${SITE_PASSWORD}@db.site.local/shipping_site`);
    log.line(`request headers: Authorization: Bearer ${BEARER}`);
    log.line(
      `token request body: grant_type=client_credentials&client_secret=other-unknown-secret`,
    );
    log.line(`provisioning read {"clientSecret": "json-pasted-secret", "name": "Dock 3"}`);
    log.line(`profile from env: ${ENV_SECRET}`);
    log.error('platform call failed', {
      profile: { name: 'Dock 3', clientId: 'c1', clientSecret: CLIENT_SECRET },
      siteStore: { url: 'postgres://station@db.site.local/shipping_site', password: 'x-pass-x' },
      headers: { authorization: `Bearer ${BEARER}` },
      err: new Error(`upstream said: invalid token ${BEARER}`),
    });
    await log.close();

    const text = allLogText(log.dir);
    for (const secret of [
      CLIENT_SECRET,
      SITE_PASSWORD,
      BEARER,
      'other-unknown-secret',
      'json-pasted-secret',
      ENV_SECRET,
      'x-pass-x',
    ]) {
      expect(text).not.toContain(secret);
      expect(mirrored.join('\n')).not.toContain(secret);
    }
    // What site IT needs is still there.
    expect(text).toContain('sign-in failed for client c1 with secret [redacted]: 401');
    expect(text).toContain('postgres://station:[redacted]@db.site.local/shipping_site');
    expect(text).toContain('"clientId":"c1"');
    expect(text).toContain('"name":"Dock 3"');
    expect(text.split(REDACTED).length).toBeGreaterThan(8);
    const first = JSON.parse(text.split('\n')[0]!) as Record<string, unknown>;
    expect(first).toMatchObject({ level: 'info', host: 'web', pid: process.pid });
    expect(typeof first['time']).toBe('string');
  });

  it('leaves ordinary lines alone (addresses, ports, words like "token" in a sentence)', () => {
    const r = new Redactor({});
    for (const line of [
      'token request failed: 401 INVALID_CLIENT (correlationId 7f3a)',
      'printer ZD421 at 10.1.4.20:9100 is out of paper',
      'web host listening on http://127.0.0.1:7410/',
      'site store station@db.site.local:5432/shipping_site unreachable',
      'profile Dock 3: hasSecret true, secretSource the macOS keychain',
    ])
      expect(r.text(line)).toBe(line);
    expect(r.value({ hasSecret: true, secretSource: 'keychain', clientId: 'c1' })).toEqual({
      hasSecret: true,
      secretSource: 'keychain',
      clientId: 'c1',
    });
  });

  it('rotates by size and keeps only the given number of old files, private to the user', async () => {
    const dataDir = tempDir();
    const log = openStationLog({ dataDir, host: 'electron', maxSize: '2K', keep: 2 });
    for (let i = 0; i < 200; i++) log.info(`line ${i} ${'x'.repeat(40)}`);
    await log.close();
    const files = readdirSync(log.dir).sort();
    expect(files).toEqual(['station.log', 'station.log.1', 'station.log.2']);
    for (const f of files) expect(statSync(join(log.dir, f)).size).toBeLessThan(4096);
    // The newest lines are in the current file; the oldest are gone.
    expect(readFileSync(log.file, 'utf8')).toContain('line 199 ');
    expect(allLogText(log.dir)).not.toContain('"line 0 ');
    expect(process.platform === 'win32' || (statSync(log.file).mode & 0o777) === 0o600).toBe(true);
  });
});
