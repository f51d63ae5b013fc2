import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStation, type Station } from '../../../src/core/station/index.js';
import type { HidPort } from '../../../src/core/devices/index.js';
import { MemorySecretVault } from '../../../src/core/profiles/secret-vault.js';
import { ConfSettingsStore } from '../../../src/core/profiles/settings-store.js';
import { tempDir } from '../../support/tmp.js';
import { FakeHid, FakeHidScale } from '../devices/fake-hid.js';
import { call } from './support.js';

const OZ = 11;

/** A station on a real data directory whose node-hid is the one given. */
async function withStation(
  hid: HidPort | (() => Promise<HidPort>),
  work: (s: Station) => Promise<void>,
) {
  const dataDir = tempDir();
  const s = createStation({
    dataDir,
    host: 'web',
    settings: new ConfSettingsStore(join(dataDir, 'settings.json')),
    vault: new MemorySecretVault(),
    hid,
  });
  try {
    await work(s);
  } finally {
    await s.stop();
  }
}

function twoScales() {
  const bus = new FakeHid();
  const m10 = new FakeHidScale(0x0922, 0x8003, 'M10 10 Lb Digital Postal Scale');
  const m25 = new FakeHidScale(0x0922, 0x8004, 'M25 25 Lb Digital Postal Scale');
  bus.plug(m10);
  bus.plug(m25);
  return { bus, m10, m25 };
}

describe('Settings: the USB scale', () => {
  it('lists the scales plugged in, by model, with the id Settings saves', async () => {
    const { bus } = twoScales();
    await withStation(bus, async (s) => {
      expect(await call(s, 'devices.discoverScales', {})).toEqual({
        scales: [
          { device: '0922:8003', model: 'Dymo M10' },
          { device: '0922:8004', model: 'Dymo M25' },
        ],
        note: null,
      });
    });
  });

  it('says why there is none: nothing plugged in, no HID module, or no permission', async () => {
    await withStation(new FakeHid(), async (s) => {
      const found = await call(s, 'devices.discoverScales', {});
      expect(found.scales).toEqual([]);
      expect(found.note).toMatch(/^none is plugged in \(HID scales/);
    });
    const noModule = async (): Promise<HidPort> => {
      throw new Error("Cannot find module 'node-hid'");
    };
    await withStation(noModule, async (s) => {
      const found = await call(s, 'devices.discoverScales', {});
      expect(found.scales).toEqual([]);
      expect(found.note).toMatch(/HID devices cannot be listed on this computer \(the HID module/);
      expect(await call(s, 'pack.readScale', {})).toMatchObject({
        weightLbs: null,
        stable: false,
        message: expect.stringMatching(/could not be read \(the HID module.*type the weight/),
      });
    });
    // A scale the user may not open (Linux without the udev rule): hidapi's open fails.
    const locked = new FakeHid();
    const m10 = new FakeHidScale(0x0922, 0x8003, 'M10');
    locked.devices.push({ info: m10.info });
    await withStation(locked, async (s) => {
      expect((await call(s, 'pack.readScale', {})).message).toMatch(
        process.platform === 'linux' ? /udev rule/ : /another program has the scale open/,
      );
    });
  });

  it('saves enabled and the chosen device, and refuses a device id that is not one', async () => {
    await withStation(new FakeHid(), async (s) => {
      const saved = await call(s, 'settings.update', {
        scale: { enabled: true, device: '0922:8004' },
      });
      expect(saved.scale).toEqual({ enabled: true, device: '0922:8004' });
      expect((await call(s, 'settings.get', {})).scale).toEqual(saved.scale);
      const r = await s.dispatch('settings.update', {
        scale: { enabled: true, device: 'Dymo M25' },
      });
      expect(r.ok ? null : r.error.message).toMatch(/"Dymo M25" is not a USB device id/);
      await call(s, 'settings.update', { scale: { enabled: false, device: null } });
      expect((await call(s, 'settings.get', {})).scale).toEqual({ enabled: false, device: null });
    });
  });

  it('"Read now" reads the scale chosen in Settings, and says why when it cannot', async () => {
    const { bus, m10, m25 } = twoScales();
    m10.reports.push([3, 4, OZ, 0xff, 0xa0, 0x00]); // 16 oz
    m25.reports.push([3, 4, OZ, 0xff, 0x40, 0x01]); // 32 oz
    await withStation(bus, async (s) => {
      await call(s, 'settings.update', { scale: { enabled: true, device: '0922:8004' } });
      expect(await call(s, 'pack.readScale', {})).toEqual({
        weightLbs: 2,
        stable: true,
        message: '32 oz',
      });
      // Switched to the other scale in Settings: the next read is that one's.
      await call(s, 'settings.update', { scale: { enabled: true, device: '0922:8003' } });
      expect((await call(s, 'pack.readScale', {})).weightLbs).toBe(1);

      // Still settling for every report: no weight, "hold still".
      m10.reports.push(...Array.from({ length: 25 }, (_, i) => [3, 3, OZ, 0xff, 10 + i, 0]));
      expect(await call(s, 'pack.readScale', {})).toMatchObject({
        weightLbs: null,
        stable: false,
        message: expect.stringMatching(/Hold still/),
      });
      // An empty read is no weight, never 0 lb.
      m10.reports.push([]);
      expect((await call(s, 'pack.readScale', {})).weightLbs).toBeNull();

      bus.unplug(m10);
      expect(await call(s, 'pack.readScale', {})).toMatchObject({
        weightLbs: null,
        message: 'No scale is plugged in; type the weight',
      });
    });
  });
});
