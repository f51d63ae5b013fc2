import { describe, expect, it } from 'vitest';
import { startPlainZebra } from '../../support/plain-zebra.js';
import { call, demoStationsPerTest, packOrder, until } from './support.js';

// Trial of 2026-11-29 (late night): a label bought with no label printer printed by itself once
// a printer was added, but Pack's result stayed "WAITING FOR PRINTER": nothing tied the result
// to the print job spooled then. `labels.printJob` gives that job, for Pack to follow.

const stations = demoStationsPerTest();

describe('a label bought with no label printer', () => {
  it('has no print job until a printer is added; then its job is the one that prints it', async () => {
    const { s } = await stations.start();
    const zebra = await startPlainZebra();
    stations.onEnd(() => zebra.close());
    const status = await call(s, 'station.status', {});
    for (const p of status.profile!.printers.filter((x) => x.role === 'label'))
      await call(s, 'printers.remove', { printerId: p.id });

    const bought = await packOrder(s, 'LUM-10421');
    expect(bought.outcome).toBe('print-waiting');
    expect(bought.printJob).toBeNull();
    expect(await call(s, 'labels.printJob', { id: bought.label!.id })).toEqual({ job: null });

    await call(s, 'printers.add', {
      name: 'ZD421 dock 5',
      host: '127.0.0.1',
      port: zebra.port,
      dpi: 203,
      role: 'label',
    });
    const printed = await until(async () => {
      const { job } = await call(s, 'labels.printJob', { id: bought.label!.id });
      return job?.state === 'printed' ? job : undefined;
    });
    expect(printed).toMatchObject({ kind: 'label', printerName: 'ZD421 dock 5' });
    expect(zebra.received()).toContain('LUM-10421');
  });
});
