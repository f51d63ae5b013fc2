import { NetworkPrinter } from '../../printing/drivers/network.js';
import { describePrinter } from '../../printing/types.js';
import type { StationContext } from '../context.js';
import type { Handlers } from '../dispatch.js';
import { StationFailure } from '../errors.js';
import { printJobView } from '../map.js';

/** Printers (discover, test print, status) and the station's own settings. */
export function deviceHandlers(ctx: StationContext): Partial<Handlers> {
  const printer = (id: string) => {
    const p = ctx.runtime().profile.printers.find((x) => x.id === id);
    if (!p) throw new StationFailure('not-found', `No printer ${id} in this profile.`);
    return p;
  };
  return {
    'printers.discover': async () => {
      // Network discovery is not in core yet: offer the printers the station already knows
      // and any the demo started, so the list is never a lie.
      const found = ctx.runtimeOrNull()?.profile.printers ?? [];
      return found
        .filter((p) => p.kind === 'network')
        .map((p) => ({
          kind: 'network' as const,
          name: p.name,
          address: `${p.host}:${p.port ?? 9100}`,
          dpi: p.dpi ?? null,
        }));
    },
    'printers.testPrint': async ({ printerId }) => {
      const p = printer(printerId);
      const { job } = ctx.spool.printTest(p.id);
      ctx.changed('queue');
      return printJobView(job, p.name);
    },
    'printers.status': async ({ printerId }) => {
      const p = printer(printerId);
      if (p.kind !== 'network')
        return {
          printerId,
          name: describePrinter(p),
          state: 'unknown',
          message: `${describePrinter(p)} does not report its status.`,
        };
      const driver = new NetworkPrinter(p, { connectTimeoutMs: 1500, answerTimeoutMs: 2000 });
      try {
        const s = await driver.status();
        return {
          printerId,
          name: describePrinter(p),
          state: s?.ready ? 'ready' : 'unknown',
          message: s?.ready
            ? `${describePrinter(p)} is ready`
            : `${describePrinter(p)}: ${s?.faults.join(', ') ?? 'no answer'}`,
        };
      } catch (error) {
        return {
          printerId,
          name: describePrinter(p),
          state: 'offline',
          message: (error as Error).message,
        };
      } finally {
        await driver.close().catch(() => {});
      }
    },
    'settings.get': async () => ctx.stationSettings(),
    'settings.update': async (patch) => {
      const next = {
        ...ctx.stationSettings(),
        ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
      };
      ctx.saveStationSettings(next);
      return next;
    },
  };
}
