import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dispatch, type Handlers } from '../../../src/core/station/dispatch.js';
import { StationFailure, toStationError } from '../../../src/core/station/errors.js';
import { PlatformError } from '../../../src/core/platform/errors.js';
import { calls } from '../../../src/shared/contract.js';
import { defaultDataDir } from '../../../src/core/station/data-dir.js';

const handlers = new Proxy({} as Handlers, {
  get: (_t, name) => async (input: unknown) => {
    if (name === 'labels.get') throw new StationFailure('not-found', 'No label 9.');
    if (name === 'pack.buy')
      throw new PlatformError({
        kind: 'unknown-outcome',
        message: 'maybe bought',
        operation: 'purchaseLabel',
        method: 'POST',
        path: '/api/v1/labels',
        tenantId: 'tnt_lumen',
      });
    return { name, input };
  },
});

describe('the station contract', () => {
  it('joins every feature module’s calls, none declared by two features', async () => {
    // Each module in src/shared/features exports its map as `…Calls`; the contract must join
    // them all (a map left out would have no host), and a name in two maps would be overwritten.
    const dir = fileURLToPath(new URL('../../../src/shared/features/', import.meta.url));
    const modules = await Promise.all(
      readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => import(join(dir, f)) as Promise<Record<string, unknown>>),
    );
    const maps = modules.flatMap((m) =>
      Object.entries(m)
        .filter(([name]) => name.endsWith('Calls'))
        .map(([, map]) => map as object),
    );
    expect(maps.length).toBeGreaterThanOrEqual(8);
    const names = maps.flatMap((m) => Object.keys(m));
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(names.sort()).toEqual(Object.keys(calls).sort());
  });

  it('validates input with the call’s schema before any handler runs', async () => {
    const r = await dispatch(handlers, 'labels.reprint', { id: '1', reason: '' });
    expect(r).toMatchObject({ ok: false, error: { code: 'validation' } });
    if (!r.ok) expect(r.error.message).toContain('reason');
    const unknown = await dispatch(handlers, 'fs.readFile', {});
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('refuses a History date it cannot read, naming the field, before any search runs', async () => {
    for (const name of ['labels.search', 'site.labels'] as const) {
      const r = await dispatch(handlers, name, { from: 'yesterday' });
      expect(r).toMatchObject({ ok: false, error: { code: 'validation' } });
      expect(JSON.stringify(r)).toContain('not a date (use YYYY-MM-DD)');
      expect(JSON.stringify(r)).toContain('from');
    }
    const fine = await dispatch(handlers, 'labels.search', {
      from: '2026-11-23',
      to: '2026-11-24',
    });
    expect(fine.ok).toBe(true);
  });

  it('fills defaults and passes the parsed input', async () => {
    const r = await dispatch(handlers, 'orders.list', {});
    expect(r).toEqual({ ok: true, value: { name: 'orders.list', input: { limit: 100 } } });
  });

  it('turns thrown errors into stable codes', async () => {
    expect(await dispatch(handlers, 'labels.get', { id: '9' })).toEqual({
      ok: false,
      error: { code: 'not-found', message: 'No label 9.' },
    });
    const r = await dispatch(handlers, 'pack.buy', { shipmentId: '1' });
    expect(r).toMatchObject({ ok: false, error: { code: 'purchase-outcome-unknown' } });
    // A bare system error is not guessed to be the platform's (test/core/station/error-path.test.ts).
    expect(toStationError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })).code).toBe(
      'internal',
    );
    expect(toStationError(new Error('boom')).code).toBe('internal');
  });
});

describe('the default data directory', () => {
  it('is Electron’s userData for "Shipping Station" on each OS, unless STATION_DATA_DIR says otherwise', () => {
    expect(defaultDataDir({}, 'linux', '/home/p')).toBe('/home/p/.config/Shipping Station');
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/x' }, 'linux', '/home/p')).toBe(
      '/x/Shipping Station',
    );
    expect(defaultDataDir({}, 'darwin', '/Users/p')).toBe(
      '/Users/p/Library/Application Support/Shipping Station',
    );
    expect(
      defaultDataDir({ APPDATA: 'C:\\Users\\p\\AppData\\Roaming' }, 'win32', 'C:\\Users\\p'),
    ).toMatch(/Roaming.Shipping Station$/);
    expect(defaultDataDir({ STATION_DATA_DIR: '/data/st' }, 'linux', '/home/p')).toBe('/data/st');
  });
});
