import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/tmp.js';
import { call, demoStation } from './support.js';
import type { Station, StationOptions } from '../../../src/core/station/index.js';

async function withStation(
  extra: (base: string) => Partial<StationOptions>,
  work: (s: Station, dataDir: string, outside: string) => Promise<void>,
) {
  const base = tempDir();
  const dataDir = join(base, 'data', 'station');
  const outside = join(base, 'drop');
  mkdirSync(outside, { recursive: true });
  const { station } = demoStation(dataDir, extra(base));
  await station.start();
  try {
    await work(station, dataDir, outside);
  } finally {
    await station.stop();
  }
}

const activeId = async (s: Station) => (await call(s, 'station.status', {})).profile!.id;

describe('9. the hot folder never points at the station itself', () => {
  it('the web host refuses the data directory and its parents, even under an allowed root', async () => {
    // A root that contains the data directory (as a careless --hot-folder-root / would).
    await withStation(
      (base) => ({ hotFolderRoots: [base] }),
      async (s, dataDir) => {
        const id = await activeId(s);
        for (const folder of [
          dataDir,
          dirname(dataDir),
          dirname(dirname(dataDir)),
          join(dataDir, 'virtual-printer'),
        ]) {
          const r = await s.dispatch('profiles.update', { id, hotFolder: folder });
          expect(r, folder).toMatchObject({
            ok: false,
            error: { code: 'validation', message: expect.stringMatching(/data directory/) },
          });
        }
        expect((await call(s, 'station.status', {})).profile!.hotFolder).toBeNull();
        expect(existsSync(join(dataDir, 'failed'))).toBe(false);
      },
    );
  });

  it('the web host takes only folders under a root given on its command line', async () => {
    await withStation(
      () => ({}),
      async (s, _dataDir, outside) => {
        const refused = await s.dispatch('profiles.update', {
          id: await activeId(s),
          hotFolder: outside,
        });
        expect(refused).toMatchObject({
          ok: false,
          error: { message: expect.stringMatching(/--hot-folder-root/) },
        });
      },
    );
    await withStation(
      (base) => ({ hotFolderRoots: [join(base, 'drop')] }),
      async (s, _d, outside) => {
        const id = await activeId(s);
        const elsewhere = await s.dispatch('profiles.update', { id, hotFolder: '/etc' });
        expect(elsewhere.ok).toBe(false);
        const escaping = await s.dispatch('profiles.update', {
          id,
          hotFolder: join(outside, '..', '..', 'etc'),
        });
        expect(escaping.ok).toBe(false);
        const view = await call(s, 'profiles.update', { id, hotFolder: outside });
        expect(view.hotFolder).toBe(outside);
      },
    );
  });

  it('in Electron the folder comes from the native dialog, never from typed text', async () => {
    let answer: string | null = null;
    await withStation(
      () => ({ host: 'electron', chooseFolder: async () => answer }),
      async (s, dataDir, outside) => {
        const id = await activeId(s);
        const typed = await s.dispatch('profiles.update', { id, hotFolder: outside });
        expect(typed).toMatchObject({
          ok: false,
          error: { message: expect.stringMatching(/Choose folder/) },
        });
        answer = dataDir;
        const own = await s.dispatch('profiles.chooseHotFolder', { id });
        expect(own).toMatchObject({
          ok: false,
          error: { message: expect.stringMatching(/data directory/) },
        });
        answer = null; // cancelled
        expect((await call(s, 'profiles.chooseHotFolder', { id })).hotFolder).toBeNull();
        answer = outside;
        expect((await call(s, 'profiles.chooseHotFolder', { id })).hotFolder).toBe(outside);
        // Clearing it needs no dialog.
        expect((await call(s, 'profiles.update', { id, hotFolder: null })).hotFolder).toBeNull();
      },
    );
  });

  it('a hot folder set to the data directory by hand is not watched, and settings.json stays put', async () => {
    const base = tempDir();
    const dataDir = join(base, 'station');
    const first = demoStation(dataDir);
    await first.station.start();
    const id = await activeId(first.station);
    await first.station.stop();
    const settingsFile = join(dataDir, 'settings.json');
    const raw = JSON.parse(readFileSync(settingsFile, 'utf8'));
    raw.profiles.find((p: { id: string }) => p.id === id).hotFolder = dataDir;
    writeFileSync(settingsFile, JSON.stringify(raw));
    const lines: string[] = [];
    const second = demoStation(dataDir, { log: (l) => lines.push(l) });
    await second.station.start();
    try {
      expect(second.station.context.runtimeOrNull()?.hotFolder ?? null).toBeNull();
      expect(lines.join('\n')).toMatch(/hot folder.*data directory/);
      expect(existsSync(settingsFile)).toBe(true);
      expect(existsSync(join(dataDir, 'failed'))).toBe(false);
    } finally {
      await second.station.stop();
    }
  });
});
