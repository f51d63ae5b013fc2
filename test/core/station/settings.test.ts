import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStation, type Station } from '../../../src/core/station/index.js';
import { MemorySecretVault } from '../../../src/core/profiles/secret-vault.js';
import { ConfSettingsStore } from '../../../src/core/profiles/settings-store.js';
import type { BoxPreset } from '../../../src/shared/views.js';
import { tempDir } from '../../support/tmp.js';
import { call, demoStation } from './support.js';

const tall: BoxPreset = {
  id: 'box-tall',
  name: 'Tall 6×6×24',
  code: 'BOX-TALL',
  lengthIn: 6,
  widthIn: 6,
  heightIn: 24,
};

/** A station on a real data directory; settings need no profile and no sandbox. */
function station(dataDir: string): Station {
  return createStation({
    dataDir,
    host: 'web',
    settings: new ConfSettingsStore(join(dataDir, 'settings.json')),
    vault: new MemorySecretVault(),
  });
}

async function withStation(work: (s: Station, dataDir: string) => Promise<void>) {
  const dataDir = tempDir();
  const s = station(dataDir);
  try {
    await work(s, dataDir);
  } finally {
    await s.stop();
  }
}

describe('Settings: box presets', () => {
  it('saves an edited list (trimmed) to the settings file, and a new station reads it back', async () => {
    const dataDir = tempDir();
    const first = station(dataDir);
    const before = await call(first, 'settings.get', {});
    const edited = [
      ...before.boxes.filter((b) => b.code !== 'BOX-L'),
      { ...tall, name: '  Tall 6×6×24 ', code: ' BOX-TALL ' },
    ];
    const saved = await call(first, 'settings.update', { boxes: edited });
    expect(saved.boxes.map((b) => b.code)).toEqual(['BOX-S', 'BOX-M', 'BOX-TALL']);
    expect(saved.boxes[2]).toEqual(tall);
    await first.stop();

    const file = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as {
      station: { boxes: BoxPreset[] };
    };
    expect(file.station.boxes.map((b) => b.code)).toEqual(['BOX-S', 'BOX-M', 'BOX-TALL']);
    const again = station(dataDir);
    try {
      expect((await call(again, 'settings.get', {})).boxes).toEqual(saved.boxes);
    } finally {
      await again.stop();
    }
  });

  it('refuses a list with a bad preset, names every problem, and keeps the saved list', async () => {
    await withStation(async (s) => {
      const before = await call(s, 'settings.get', {});
      const r = await s.dispatch('settings.update', {
        boxes: [
          ...before.boxes,
          { ...tall, code: 'box-m' },
          { ...tall, id: 'b2', code: 'BOX TALL!' },
          { ...tall, id: 'b3', code: 'BOX-X', name: ' ', heightIn: 0 },
          { ...tall, id: 'b4', code: 'BOX-Y', lengthIn: 500 },
        ],
      });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe('validation');
      // Dimensions beyond the contract's limit are refused at the boundary, by field.
      expect(r.error.message).toMatch(/boxes\.6\.lengthIn/);

      const refused = await s.dispatch('settings.update', {
        boxes: [
          ...before.boxes,
          { ...tall, code: 'box-m' },
          { ...tall, id: 'b2', code: 'BOX TALL!' },
          { ...tall, id: 'b3', code: 'BOX-X', name: ' ', heightIn: 0.0001 },
          { ...tall, id: 'b4', code: 'BOX-Y', lengthIn: 150 },
        ],
      });
      expect(refused.ok).toBe(false);
      if (refused.ok) return;
      expect(refused.error.code).toBe('validation');
      expect(refused.error.message).toContain(
        'Box 4 (box-m): scan code box-m is already used by box 2.',
      );
      expect(refused.error.message).toContain(
        'Box 5 (BOX TALL!): scan code "BOX TALL!" may only hold letters, digits and dashes.',
      );
      expect(refused.error.message).toContain('Box 6 (BOX-X): give it a name');
      expect(refused.error.message).toContain(
        'Box 7 (BOX-Y): Length of 150 in is more than 108 in',
      );
      expect(refused.error.details).toContainEqual(
        expect.objectContaining({ field: 'boxes.3.code' }),
      );
      expect((await call(s, 'settings.get', {})).boxes).toEqual(before.boxes);
    });
  });

  it('refuses a preset with no code, or a zero or negative side', async () => {
    await withStation(async (s) => {
      for (const bad of [
        { ...tall, code: '' },
        { ...tall, widthIn: 0 },
        { ...tall, heightIn: -2 },
      ]) {
        const r = await s.dispatch('settings.update', { boxes: [bad] });
        expect(r.ok, JSON.stringify(bad)).toBe(false);
      }
      expect((await call(s, 'settings.get', {})).boxes.map((b) => b.code)).toEqual([
        'BOX-S',
        'BOX-M',
        'BOX-L',
      ]);
    });
  });

  it('a saved preset is scanned on Pack (any case) and its size goes on the package rated', async () => {
    const { station: s } = demoStation(tempDir());
    await s.start();
    try {
      const { boxes } = await call(s, 'settings.get', {});
      await call(s, 'settings.update', { boxes: [...boxes, tall] });
      expect(await call(s, 'pack.scan', { value: 'box-tall' })).toEqual({ kind: 'box', box: tall });

      const found = await call(s, 'pack.scan', { value: 'LUM-10422' });
      if (found.kind !== 'order') throw new Error(found.kind);
      const quote = await call(s, 'pack.rate', {
        orderId: found.order.id,
        packages: [{ weightLbs: 2.5, boxId: 'box-tall' }],
      });
      const shipment = s.context.runtime().workflow.shipments.get(Number(quote.shipmentId))!;
      expect(shipment.shipment.packages[0]).toMatchObject({
        lengthIn: 6,
        widthIn: 6,
        heightIn: 24,
      });

      // Removed from Settings: no longer a box, and a package cannot name it.
      await call(s, 'settings.update', { boxes });
      expect((await call(s, 'pack.scan', { value: 'BOX-TALL' })).kind).toBe('not-found');
      const r = await s.dispatch('pack.rate', {
        orderId: found.order.id,
        packages: [{ weightLbs: 2.5, boxId: 'box-tall' }],
      });
      expect(r.ok ? null : r.error.message).toMatch(/not one of the station's box presets/);
    } finally {
      await s.stop();
    }
  });
});

describe('Settings: a rate rule that names nothing this profile has', () => {
  it('is refused with what the carrier accounts offer; one that excludes every carrier too', async () => {
    const { station: s } = demoStation(tempDir());
    await s.start();
    try {
      // The profile's carrier accounts, as the station read them at start.
      const carriers = await (async () => {
        for (;;) {
          const list = await call(s, 'carriers.list', {});
          if (list.length) return list;
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const rule = {
        strategy: 'cheapest' as const,
        preferredServiceLevels: [] as string[],
        maxTransitDays: null,
        excludedCarriers: [] as string[],
      };
      const typo = await s.dispatch('profiles.update', {
        id: 'demo',
        rateRule: { ...rule, preferredServiceLevels: ['FOO_BAR', 'ups ground'] },
      });
      expect(typo).toMatchObject({
        ok: false,
        error: {
          code: 'validation',
          message: expect.stringMatching(
            /^The rate rule was not saved: FOO_BAR is not a service level of this profile's carrier accounts \(they offer .*UPS_GROUND.*\)\.$/,
          ),
        },
      });
      const nope = await s.dispatch('profiles.update', {
        id: 'demo',
        rateRule: { ...rule, excludedCarriers: ['USPS', 'NOPE'] },
      });
      expect(!nope.ok && nope.error.message).toMatch(/NOPE is not a carrier of this profile's/);
      const every = [...new Set(carriers.map((c) => c.carrier))];
      const all = await s.dispatch('profiles.update', {
        id: 'demo',
        rateRule: { ...rule, excludedCarriers: every },
      });
      expect(!all.ok && all.error.message).toMatch(/excludes every carrier this profile has/);
      // Excluding the carriers that work, leaving only FedEx (its connection PENDING in the demo).
      const working = every.filter((c) => c !== 'FEDEX');
      const pending = await s.dispatch('profiles.update', {
        id: 'demo',
        rateRule: { ...rule, excludedCarriers: working },
      });
      expect(!pending.ok && pending.error.message).toBe(
        'The rate rule was not saved: it leaves only FEDEX (PENDING), which cannot rate now, so no order could be rated until its connection is authorized.',
      );
      // Written as a person would ("ups ground"), a known service level is taken.
      await call(s, 'profiles.update', {
        id: 'demo',
        rateRule: { ...rule, preferredServiceLevels: ['ups ground'] },
      });
      const saved = (await call(s, 'profiles.list', {})).find((p) => p.id === 'demo')!;
      expect(saved.rateRule.preferredServiceLevels).toEqual(['ups ground']);
    } finally {
      await s.stop();
    }
  });
});
