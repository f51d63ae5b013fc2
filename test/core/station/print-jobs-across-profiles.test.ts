import { describe, expect, it } from 'vitest';
import { startPlainZebra } from '../../support/plain-zebra.js';
import {
  call,
  demoStationsPerTest,
  onlyLabelPrinter,
  packOrder,
  until,
  harborProfile,
} from './support.js';

const stations = demoStationsPerTest();

describe('a print job outlives a switch of profile', () => {
  it("prints on its own profile's printer after the station switched to another profile", async () => {
    const { s, sandbox } = await stations.start();
    const zebra = await startPlainZebra();
    stations.onEnd(zebra.close);
    zebra.setFault('paper-out');
    const dock4 = await onlyLabelPrinter(s, 'Dock 4', zebra.port);
    const bought = await packOrder(s, 'LUM-10421');
    expect(bought.label?.trackingNumber).toBeTruthy();
    const waiting = await until(async () =>
      (await call(s, 'queue.list', {})).printJobs.find((j) => j.printerId === dock4),
    );

    // Another profile of this station takes over the screen while the paper is out.
    await call(s, 'profiles.create', harborProfile(sandbox().url));
    expect((await call(s, 'station.status', {})).profile?.name).toBe('Harbor Edison');
    // Under the new profile (its printers do not include Dock 4) the job still waits for paper,
    // named with its profile.
    await new Promise((done) => setTimeout(done, 2500)); // two of the spool's status polls
    const later = (await call(s, 'queue.list', {})).printJobs.find((j) => j.id === waiting.id)!;
    expect(later.state).toBe('queued');
    expect(later.printerName).toBe('Dock 4 (profile Demo station (embedded sandbox))');

    // Paper in: it prints there, never "not set up at this station any more".
    zebra.setFault(null);
    const done = await until(async () => {
      const job = s.context.spool.get(Number(waiting.id))!;
      return job.state === 'queued' || job.state === 'sending' ? null : job;
    });
    expect(done.lastError ?? '').not.toMatch(/not set up/);
    expect(done.state).toBe('printed');
    expect(zebra.received()).toContain('^XA');
  });
});
