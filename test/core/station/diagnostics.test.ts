import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStationLog, Redactor, rememberingVault } from '../../../src/core/logging/index.js';
import { MemorySecretVault } from '../../../src/core/profiles/secret-vault.js';
import type { Station } from '../../../src/core/station/index.js';
import { tempDir } from '../../support/tmp.js';
import { call, demoStation } from './support.js';

const CLIENT_SECRET = 'demo-harbor-full-secret';
const SITE_PASSWORD = 'Site-Store-Pw-7731';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

const running: Station[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});

describe('Export diagnostics', () => {
  it('writes logs, versions, database stats and profiles for site IT, with no secret in any file', async () => {
    const dataDir = tempDir();
    // A log line from an earlier run, written before its secret was known to the redactor.
    mkdirSync(join(dataDir, 'logs'), { recursive: true });
    writeFileSync(
      join(dataDir, 'logs', 'station.log.1'),
      `{"level":"info","msg":"old build logged ${CLIENT_SECRET} and Bearer abc.def.ghi"}\n`,
    );
    const redactor = new Redactor({});
    const stationLog = openStationLog({ dataDir, host: 'web', redactor });
    const { station: s, sandbox } = demoStation(dataDir, {
      stationLog,
      vault: rememberingVault(new MemorySecretVault(), redactor),
      version: '9.8.7',
    });
    running.push(s);
    await s.start();

    await call(s, 'profiles.create', {
      environment: 'sandbox',
      baseUrl: sandbox().url,
      clientId: 'demo-harbor-full',
      clientSecret: CLIENT_SECRET,
      name: 'Harbor Edison',
      tenantId: 'tnt_harbor',
      shippingSiteId: 'site_harbor_edison',
    });
    // A site store nobody listens on: saved, with its password in the vault.
    await call(s, 'site.configure', {
      siteStore: {
        url: 'postgres://station@127.0.0.1:1/shipping_site',
        stationId: 'st-9',
        stationName: 'Dock 9',
      },
      password: SITE_PASSWORD,
    });
    stationLog.line(`a careless line: ${CLIENT_SECRET} / ${SITE_PASSWORD}`);
    // Site IT's set-up, refused or not, is in the log (without the secrets typed).
    const harbor = (await call(s, 'profiles.list', {})).find((p) => p.name === 'Harbor Edison')!;
    await call(s, 'profiles.setSecret', { id: harbor.id, clientSecret: CLIENT_SECRET });
    const wrong = await s.dispatch('profiles.setSecret', {
      id: harbor.id,
      clientSecret: 'Not-The-Secret-77',
    });
    expect(wrong.ok).toBe(false);

    const done = await call(s, 'station.exportDiagnostics', {});
    expect(done.folder.startsWith(join(dataDir, 'diagnostics', 'station-diagnostics-'))).toBe(true);
    const files = filesUnder(done.folder);
    expect(files.map((f) => relative(done.folder, f)).sort()).toEqual([
      'about.json',
      'database.json',
      join('logs', 'station.log'),
      join('logs', 'station.log.1'),
      'profiles.json',
    ]);
    const all = files.map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const secret of [CLIENT_SECRET, SITE_PASSWORD, 'abc.def.ghi'])
      expect(all).not.toContain(secret);

    const about = JSON.parse(readFileSync(join(done.folder, 'about.json'), 'utf8'));
    expect(about).toMatchObject({
      app: { version: '9.8.7', host: 'web' },
      versions: { node: process.versions.node, electron: null },
      os: { platform: process.platform, arch: process.arch },
      dataDir,
    });
    const profiles = JSON.parse(readFileSync(join(done.folder, 'profiles.json'), 'utf8'));
    expect(profiles.profiles).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'Harbor Edison',
          baseUrl: sandbox().url,
          clientId: 'demo-harbor-full',
          hasSecret: true,
        }),
      ]),
    );
    expect(profiles.siteStore).toMatchObject({ stationName: 'Dock 9' });
    const db = JSON.parse(readFileSync(join(done.folder, 'database.json'), 'utf8'));
    expect(db.rows).toMatchObject({ orders: expect.any(Number), labels: 0 });
    expect(db.rows.orders).toBeGreaterThan(0); // the demo's sample orders
    // The site store is unreachable: every order waits in the outbox for it.
    expect(db.rows.site_outbox).toBe(db.rows.orders);
    expect(db).toMatchObject({
      siteOutboxDepth: db.rows.orders,
      offlineQueueWaiting: 0,
      printJobsPending: 0,
    });
    expect(db.bytes.database).toBeGreaterThan(0);
    expect(db.schemaVersion).toBeGreaterThan(0);
    const log = readFileSync(join(done.folder, 'logs', 'station.log'), 'utf8');
    expect(log).toMatch(
      /profile created: Harbor Edison \(harbor-edison, sandbox, tenant tnt_harbor, site site_harbor_edison\)/,
    );
    expect(log).toMatch(/client secret replaced for profile Harbor Edison/);
    expect(log).toMatch(/profiles\.setSecret refused \(validation\): .*The secret was not stored/);
    expect(log).not.toContain('Not-The-Secret-77');
    // The redacted lines are still there for site IT to read.
    expect(readFileSync(join(done.folder, 'logs', 'station.log.1'), 'utf8')).toContain(
      'old build logged [redacted]',
    );
  });
});
