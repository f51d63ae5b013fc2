import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStation, type Station } from '../../../src/core/station/index.js';
import type { UsbBus } from '../../../src/core/devices/index.js';
import { MemorySecretVault } from '../../../src/core/profiles/secret-vault.js';
import { JsonFileSettingsStore } from '../../../src/core/profiles/settings-store.js';
import { tempDir } from '../../support/tmp.js';
import { FakeUsbBus, FakeUsbScale } from '../devices/fake-usb.js';
import { call } from './support.js';

const OZ = 11;

/** A station on a real data directory whose USB bus is the one given. */
async function withStation(
  usbBus: UsbBus | (() => Promise<UsbBus>),
  work: (s: Station) => Promise<void>,
) {
  const dataDir = tempDir();
  const s = createStation({
    dataDir,
    host: 'web',
    settings: new JsonFileSettingsStore(join(dataDir, 'settings.json')),
    vault: new MemorySecretVault(),
    usbBus,
  });
  try {
    await work(s);
  } finally {
    await s.stop();
  }
}

function twoScales() {
  const bus = new FakeUsbBus();
  const m10 = new FakeUsbScale(0x0922, 0x8003, 'M10 10 Lb Digital Postal Scale');
  const m25 = new FakeUsbScale(0x0922, 0x8004, 'M25 25 Lb Digital Postal Scale');
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

  it('says why there is none: nothing plugged in, or no USB bus at all', async () => {
    await withStation(new FakeUsbBus(), async (s) => {
      const found = await call(s, 'devices.discoverScales', {});
      expect(found.scales).toEqual([]);
      expect(found.note).toMatch(/No known USB scale is plugged in/);
    });
    const noBus = async (): Promise<UsbBus> => {
      throw new Error('getDevices error: /sys/bus/usb/devices/ not found (errno 2)');
    };
    await withStation(noBus, async (s) => {
      const found = await call(s, 'devices.discoverScales', {});
      expect(found.scales).toEqual([]);
      expect(found.note).toMatch(/USB devices cannot be listed on this computer \(no USB bus/);
      expect(await call(s, 'pack.readScale', {})).toMatchObject({
        weightLbs: null,
        stable: false,
        message: expect.stringMatching(/could not be read \(no USB bus.*type the weight/),
      });
    });
  });

  it('saves enabled and the chosen device, and refuses a device id that is not one', async () => {
    await withStation(new FakeUsbBus(), async (s) => {
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
