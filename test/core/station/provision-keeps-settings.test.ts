import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startVirtualPrinter,
  type VirtualPrinter,
} from '../../../src/core/printing/virtual-printer/server.js';
import { useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/tmp.js';
import { call, demoStation } from './support.js';

// A shift lead's trial (2026-11-29, evening): Station A's printer jammed, so a lead moved
// Station C's printer to A (Settings → Printers: added, Use for labels). Station A runs as a
// service with `--provision` at every start; at its next start the file put its old printer back
// without a word, and A's labels went to the printer no longer at A.

const external = useSandbox();
const printers: VirtualPrinter[] = [];
beforeAll(async () => {
  for (let i = 0; i < 2; i++) printers.push(await startVirtualPrinter({ port: 0 }));
});
afterAll(async () => {
  for (const p of printers) await p.close();
});

function stationFile(printerPort: number): string {
  const file = join(tempDir(), 'station-a.json');
  writeFileSync(
    file,
    JSON.stringify({
      format: 'shipping-station-profiles',
      version: 1,
      profiles: [
        {
          id: 'lumen-floor',
          name: 'Lumen floor',
          environment: 'sandbox',
          baseUrl: external.url,
          clientId: 'demo-lumen-full',
          clientSecretEnv: 'STATION_SECRET_FLOOR',
          tenantId: 'tnt_lumen',
          shippingSiteId: 'site_lumen_chicago',
          shipFrom: {
            name: 'Dock 9',
            addressLine1: '1550 W Carroll Ave',
            city: 'Chicago',
            stateProvince: 'IL',
            postalCode: '60607',
            countryCode: 'US',
          },
          printers: [
            { id: 'zd-a', name: 'ZD421 A', kind: 'network', host: '127.0.0.1', port: printerPort },
          ],
        },
      ],
    }),
  );
  return file;
}

describe('a provisioning file given at every start', () => {
  it("keeps a printer a shift lead moved to the station in Settings, until site IT's file changes its printers", async () => {
    const data = tempDir();
    const file = stationFile(printers[0]!.port);
    const env = { STATION_SECRET_FLOOR: 'demo-lumen-full-secret' };
    const labelPrinter = async (s: ReturnType<typeof demoStation>['station']) => {
      const p = (await call(s, 'profiles.list', {})).find((x) => x.id === 'lumen-floor')!;
      return p.printers.find((x) => x.id === p.defaultPrinterId)?.name;
    };

    const first = demoStation(data, { provisionFile: file, env });
    await first.station.start();
    try {
      expect(await labelPrinter(first.station)).toBe('ZD421 A');
      // The lead adds Station C's printer and makes it the label printer.
      const added = await call(first.station, 'printers.add', {
        name: 'ZD421 C',
        host: '127.0.0.1',
        port: printers[1]!.port,
      });
      const moved = added.printers.find((p) => p.name === 'ZD421 C')!;
      await call(first.station, 'profiles.update', {
        id: 'lumen-floor',
        printers: added.printers,
        defaultPrinterId: moved.id,
      });
      expect(await labelPrinter(first.station)).toBe('ZD421 C');
    } finally {
      await first.station.stop();
    }

    // Restarted with the same file: the printer moved here stays the label printer.
    const logged: string[] = [];
    const second = demoStation(data, {
      provisionFile: file,
      env,
      log: (line) => logged.push(line),
    });
    await second.station.start();
    try {
      expect(await labelPrinter(second.station)).toBe('ZD421 C');
      expect(logged).toContain(
        'provisioning file: Lumen floor keeps its printers as changed in Settings since the file last set them. To set them from the file, change them in the file.',
      );
    } finally {
      await second.station.stop();
    }

    // Site IT's file now names the printers itself: the file's are taken.
    const third = demoStation(data, { provisionFile: stationFile(printers[1]!.port), env });
    await third.station.start();
    try {
      const profile = (await call(third.station, 'profiles.list', {})).find(
        (p) => p.id === 'lumen-floor',
      )!;
      expect(profile.printers.map((p) => [p.name, p.port])).toEqual([
        ['ZD421 A', printers[1]!.port],
      ]);
    } finally {
      await third.station.stop();
    }
  });
});
