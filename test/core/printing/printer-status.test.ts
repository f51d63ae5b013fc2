import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkPrinter } from '../../../src/core/printing/drivers/network.js';
import { PrinterAnswers } from '../../../src/core/printing/drivers/printer-answers.js';
import { OsQueuePrinter } from '../../../src/core/printing/drivers/os-queue.js';
import type { PrinterConfig } from '../../../src/core/printing/types.js';
import type { Station } from '../../../src/core/station/index.js';
import { startPlainZebra, type PlainZebra } from '../../support/plain-zebra.js';
import { tempDir } from '../../support/tmp.js';
import { call, demoStation } from '../station/support.js';

/**
 * A stand-in for CUPS' lpstat at the OS edge: answers `lpstat -l -p QUEUE` the way CUPS 2.4 does
 * in the C locale, from what the test wrote into `<dir>/<queue>`; an unknown queue fails.
 */
function fakeLpstat(dir: string, queues: Record<string, string>) {
  for (const [q, text] of Object.entries(queues)) writeFileSync(join(dir, `${q}.state`), text);
  const lpstat = join(dir, 'lpstat');
  writeFileSync(
    lpstat,
    `#!/bin/sh
[ "$1" = "-l" ] && [ "$2" = "-p" ] || exit 2
if [ -f "${dir}/$3.state" ]; then cat "${dir}/$3.state"; exit 0; fi
echo "lpstat: Invalid destination name in list \\"$3\\"." >&2; exit 1
`,
  );
  chmodSync(lpstat, 0o755);
  return lpstat;
}

const idle = (q: string, alerts = 'none') =>
  `printer ${q} is idle.  enabled since Mon 23 Nov 2026 09:12:01 AM UTC
\tForm mounted:
\tContent types: any
\tPrinter types: unknown
\tDescription: Zebra ZD421
\tAlerts: ${alerts}
\tLocation: Dock 2
`;
const disabled = (q: string) =>
  `printer ${q} disabled since Mon 23 Nov 2026 10:40:11 AM UTC -
\tPaused
\tAlerts: paused
`;

const queue = (q: string): PrinterConfig => ({ id: q, name: 'ZD421', kind: 'os', queue: q });

describe('CUPS queue status (site IT)', () => {
  it('reads a healthy queue as ready, and paper out, lid open and a paused queue as what they are', async () => {
    const dir = tempDir();
    const lpstat = fakeLpstat(dir, {
      healthy: idle('healthy'),
      empty: idle('empty', 'media-empty-error media-needed-warning'),
      open: idle('open', 'door-open-error'),
      low: idle('low', 'marker-supply-low-warning'),
      held: disabled('held'),
    });
    const status = (q: string) =>
      new OsQueuePrinter(queue(q), { lpstatCommand: lpstat, platform: 'linux' }).status();
    expect(await status('healthy')).toMatchObject({ ready: true, faults: [] });
    // A warning (toner low) does not stop printing.
    expect(await status('low')).toMatchObject({ ready: true, faults: [] });
    expect(await status('empty')).toMatchObject({ ready: false, faults: ['paper-out'] });
    expect(await status('open')).toMatchObject({ ready: false, faults: ['head-open'] });
    expect(await status('held')).toMatchObject({ ready: false, faults: ['paused'] });
    await expect(status('gone')).rejects.toMatchObject({
      code: 'printer-not-found',
      message: expect.stringContaining('no print queue "gone"'),
    });
  });
});

describe('printer status through the station', () => {
  let station: Station | null = null;
  let zebra: PlainZebra | null = null;
  const path = process.env.PATH;
  afterEach(async () => {
    await station?.stop();
    station = null;
    await zebra?.close();
    zebra = null;
    process.env.PATH = path;
  });

  it('shows a healthy CUPS queue as ready and a paper-out one as out of paper, in words', async () => {
    const bin = tempDir();
    fakeLpstat(bin, {
      zebra_ok: idle('zebra_ok'),
      zebra_empty: idle('zebra_empty', 'media-empty-error'),
    });
    process.env.PATH = `${bin}:${path}`;
    station = demoStation(tempDir()).station;
    await station.start();
    const demo = (await call(station, 'station.status', {})).profile!;
    await call(station, 'profiles.update', {
      id: demo.id,
      printers: [
        ...demo.printers,
        { id: 'cups-ok', name: 'ZD421 CUPS', kind: 'os', queue: 'zebra_ok', dpi: 203 },
        { id: 'cups-empty', name: 'ZD420 CUPS', kind: 'os', queue: 'zebra_empty', dpi: 203 },
      ],
    });
    const ok = await call(station, 'printers.status', { printerId: 'cups-ok' });
    expect(ok).toMatchObject({ state: 'ready', message: 'ZD421 CUPS (queue zebra_ok) is ready' });
    const empty = await call(station, 'printers.status', { printerId: 'cups-empty' });
    expect(empty.state).toBe('paper-out');
    expect(empty.message).toBe('Printer ZD420 CUPS (queue zebra_empty) is out of paper');
    expect(empty.message).not.toMatch(/Alerts|media-empty/);
  });

  it('asks a printer that never answers ~HQES only once, however often its status is asked', async () => {
    zebra = await startPlainZebra();
    station = demoStation(tempDir()).station;
    await station.start();
    const view = await call(station, 'printers.add', {
      name: 'ZD410 old firmware',
      host: '127.0.0.1',
      port: zebra.port,
    });
    const id = view.printers.find((p) => p.port === zebra!.port)!.id;
    for (let i = 0; i < 4; i++)
      expect(await call(station, 'printers.status', { printerId: id })).toMatchObject({
        state: 'ready',
      });
    expect(zebra.connections()).toBeGreaterThanOrEqual(4);
    expect(zebra.hqesAsked()).toBe(1);
  });

  it('names a network printer out of paper as such, in words, not "unknown" with its raw answer', async () => {
    zebra = await startPlainZebra();
    station = demoStation(tempDir()).station;
    await station.start();
    const view = await call(station, 'printers.add', {
      name: 'ZD421 dock 3',
      host: '127.0.0.1',
      port: zebra.port,
    });
    const id = view.printers.find((p) => p.port === zebra!.port)!.id;
    zebra.setFault('paper-out');
    const status = await call(station, 'printers.status', { printerId: id });
    expect(status.state).toBe('paper-out');
    expect(status.message).toBe(`Printer ZD421 dock 3 at 127.0.0.1:${zebra.port} is out of paper`);
    expect(status.message).not.toContain('030,');
  });

  it('remembers per printer, across drivers, what it answers', async () => {
    zebra = await startPlainZebra();
    const other = await startPlainZebra();
    try {
      const answers = new PrinterAnswers();
      const cfg = (port: number): PrinterConfig => ({
        id: `p${port}`,
        name: 'ZD410',
        kind: 'network',
        host: '127.0.0.1',
        port,
      });
      for (let i = 0; i < 3; i++)
        await new NetworkPrinter(cfg(zebra.port), { answers, hqesTimeoutMs: 300 }).status();
      expect(zebra.hqesAsked()).toBe(1);
      // Another printer is asked for itself.
      await new NetworkPrinter(cfg(other.port), { answers, hqesTimeoutMs: 300 }).status();
      expect(other.hqesAsked()).toBe(1);
    } finally {
      await other.close();
    }
  });
});
