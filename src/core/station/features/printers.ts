import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { whyNoLine } from '../../printing/drivers/tcp-line.js';
import { printerAddress, type PrinterConfig } from '../../../shared/printers.js';
import { slipPrinterOf, type Profile } from '../../profiles/profile-schema.js';
import type { StationContext } from '../context.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { printerCalls } from '../../../shared/features/printers.js';
import { leadFor } from './users.js';
import { StationFailure } from '../errors.js';

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'printer';

/** How long Add printer waits for the name's look-up before it says nothing of it. */
const LOOKUP_MS = 2000;

/**
 * What to say of a printer's host name the network does not know now (null: it does, it is an
 * IP address, or the look-up took too long to tell). Not a refusal: a name may be one only the
 * printer's own network resolves, or a printer switched off may not answer its mDNS name yet.
 */
export async function unknownHostNote(
  printer: { name: string; host: string; port: number },
  ms = LOOKUP_MS,
): Promise<string | null> {
  const { host } = printer;
  if (isIP(host)) return null;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    // Found, or too slow to tell: nothing to say.
    await Promise.race([lookup(host), late]);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTFOUND' && code !== 'EAI_AGAIN' && code !== 'EAI_NONAME') return null;
    // In the words a test print or a label would use for it (whyNoLine).
    return `${printer.name} at ${host} ${whyNoLine(host, printer.port, error)}. A test print says whether it answers.`;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Settings → Printers: site IT adds a network printer by host and port, or removes one, without
 * editing a profile file. The active profile is reopened so the header and spool see it at once.
 */
export function printerSetupHandlers(
  ctx: StationContext,
): Pick<FeatureHandlers<typeof printerCalls>, 'printers.add' | 'printers.remove'> {
  const activeProfile = (): Profile => {
    const p = ctx.runtime().profile;
    // The stored profile, not the runtime's copy: it is what is saved back.
    return ctx.profiles.get(p.id) ?? p;
  };
  const saveAndReopen = async (next: Profile) => ctx.view(await ctx.saveProfile(next));

  return {
    'printers.add': async (input) => {
      const profile = activeProfile();
      const same = profile.printers.find(
        (p) => p.kind === 'network' && p.host === input.host && (p.port ?? 9100) === input.port,
      );
      if (same)
        throw new StationFailure(
          'conflict',
          `${input.host}:${input.port} is already set up as printer "${same.name}".`,
        );
      const taken = new Set(profile.printers.map((p) => p.id));
      let id = slug(input.name);
      for (let i = 2; taken.has(id); i++) id = `${slug(input.name)}-${i}`;
      const printer: PrinterConfig = {
        id,
        name: input.name,
        kind: 'network',
        role: input.role,
        host: input.host,
        port: input.port,
        dpi: input.dpi,
      };
      const note = await unknownHostNote(input);
      const view = await saveAndReopen({ ...profile, printers: [...profile.printers, printer] });
      return note ? { ...view, printerNote: note } : view;
    },
    'printers.remove': async ({ printerId }) => {
      const profile = activeProfile();
      const printer = profile.printers.find((p) => p.id === printerId);
      if (!printer)
        throw new StationFailure('not-found', `No printer ${printerId} in this profile.`);
      leadFor(ctx, {
        kind: 'profile-setting',
        what: `removing printer ${printer.name}`,
        profile: profile.name,
      });
      const waiting = ctx.spool.list({ printerId, states: ['queued', 'sending'] }).length;
      if (waiting > 0)
        throw new StationFailure(
          'conflict',
          `${printer.name} still has ${waiting} print job${waiting === 1 ? '' : 's'} waiting. Move or cancel ${waiting === 1 ? 'it' : 'them'} in Queue (Alt+3) first, then remove the printer.`,
        );
      const printers = profile.printers.filter((p) => p.id !== printerId);
      if (slipPrinterOf(profile) === printerId && !slipPrinterOf({ ...profile, printers }))
        throw new StationFailure(
          'validation',
          `${printer.name} (${printerAddress(printer)}) prints this profile's packing slips. Add another receipt printer first.`,
        );
      const packingSlips =
        profile.packingSlips?.printerId === printerId
          ? { ...profile.packingSlips, printerId: undefined }
          : profile.packingSlips;
      return saveAndReopen({
        ...profile,
        printers,
        labelPrinterId: profile.labelPrinterId === printerId ? undefined : profile.labelPrinterId,
        ...(packingSlips ? { packingSlips } : {}),
      });
    },
  };
}
