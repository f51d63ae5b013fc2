import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, demoStationsPerTest } from './support.js';

const stations = demoStationsPerTest();

/**
 * Site IT types the site store's address in Settings → Site store. A password is never part of
 * it: not in the user part, not as a parameter (PostgreSQL's driver reads `?password=` too), and
 * a refused address is not said back with the password in it. Nothing is stored then, so
 * settings.json (plain text) never holds it. No database is needed: the address is refused
 * before anything is asked of one.
 */
describe('the site store address never carries its password', () => {
  it.each([
    ['as a parameter', 'postgres://station@db.site.local:5432/site?password=Hunter-Pass-123'],
    [
      'as a parameter among others',
      'postgresql://db.site.local/site?user=station&sslmode=require&PASSWORD=Hunter-Pass-123',
    ],
    ['in the user part', 'postgres://station:Hunter-Pass-123@db.site.local/site'],
  ])('%s: refused, said without it, not stored', async (_, url) => {
    const { s, dataDir } = await stations.start();
    const reply = await s.dispatch('site.configure', {
      siteStore: { url, stationId: 'st-4', stationName: 'Station 4' },
    });
    expect(reply).toMatchObject({
      ok: false,
      error: {
        code: 'validation',
        message: expect.stringMatching(/contains a password; remove it/),
      },
    });
    expect(JSON.stringify(reply)).not.toContain('Hunter-Pass-123');
    expect((await call(s, 'site.status', {})).configured).toBe(false);
    expect(readFileSync(join(dataDir, 'settings.json'), 'utf8')).not.toContain('Hunter-Pass-123');
  });

  it('an address that is no URL is said back only when no password is typed in it', async () => {
    const { s } = await stations.start();
    const configure = (url: string) =>
      s.dispatch('site.configure', { siteStore: { url, stationId: 'st-4', stationName: 'S 4' } });
    const libpq = await configure('host=db.site.local dbname=site password=Hunter-Pass-123');
    expect(libpq).toMatchObject({
      ok: false,
      error: { code: 'validation', message: expect.stringMatching(/is not a database address/) },
    });
    expect(JSON.stringify(libpq)).not.toContain('Hunter-Pass-123');
    // Without one, the address is quoted, so site IT sees the typo.
    expect(await configure('db.site.local/site')).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('"db.site.local/site"') },
    });
  });

  it('a site store removed takes its password with it', async () => {
    const { s } = await stations.start();
    // Nothing listens at port 1: saved with a warning, the password kept for it.
    await call(s, 'site.configure', {
      siteStore: {
        url: 'postgres://station@127.0.0.1:1/site',
        stationId: 'st-4',
        stationName: 'S 4',
      },
      password: 'Hunter-Pass-123',
    });
    expect(await call(s, 'site.status', {})).toMatchObject({ configured: true, hasPassword: true });
    await call(s, 'site.configure', { siteStore: null });
    expect(await call(s, 'site.status', {})).toMatchObject({
      configured: false,
      hasPassword: false,
      passwordFrom: null,
    });
  });
});
