import { HidScale } from '../../devices/index.js';
import { parseScaleDevice } from '../../../shared/boxes.js';
import type { StationContext } from '../context.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { scaleCalls } from '../../../shared/features/scale.js';

/**
 * The USB HID scale (node-hid): which one (Settings' choice, else the profile's, else the first known scale
 * found), reading it, and listing the scales this computer sees.
 */
export function scaleHandlers(ctx: StationContext): FeatureHandlers<typeof scaleCalls> {
  let open: { key: string; scale: HidScale } | null = null;
  const hid = ctx.options.hid ? { hid: ctx.options.hid } : {};

  function chosen(): { vendorId?: number; productId?: number } {
    const picked = parseScaleDevice(ctx.stationSettings().scale.device);
    if (picked) return picked;
    const p = ctx.runtimeOrNull()?.profile.scale;
    return {
      ...(p?.vendorId !== undefined ? { vendorId: p.vendorId } : {}),
      ...(p?.productId !== undefined ? { productId: p.productId } : {}),
    };
  }

  async function scale(): Promise<HidScale> {
    const which = chosen();
    const key = JSON.stringify(which);
    if (open?.key === key) return open.scale;
    // Another scale was chosen in Settings: let go of the old one first.
    await open?.scale.close();
    open = { key, scale: new HidScale({ ...which, ...hid }) };
    return open.scale;
  }

  return {
    'pack.readScale': async () => {
      const s = await scale();
      try {
        const reading = await s.read();
        return {
          weightLbs: reading.weightLbs,
          stable: reading.state === 'stable' || reading.state === 'zero',
          message: reading.message,
        };
      } catch (error) {
        open = null;
        await s.close().catch(() => undefined);
        return {
          weightLbs: null,
          stable: false,
          message: `The scale could not be read (${hidReason(error)}); type the weight.`,
        };
      }
    },
    'devices.discoverScales': async () => {
      try {
        const found = await new HidScale(hid).list();
        return {
          scales: found.map((f) => ({
            device: `${hex4(f.vendorId)}:${hex4(f.productId)}`,
            model: f.model,
          })),
          note: found.length
            ? null
            : 'none is plugged in (HID scales: Dymo, Stamps.com, Mettler Toledo and others).',
        };
      } catch (error) {
        ctx.log(`scale discovery: ${(error as Error).message}`);
        return {
          scales: [],
          note: `HID devices cannot be listed on this computer (${hidReason(error)}).`,
        };
      }
    },
  };
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0');

/** node-hid's (hidapi's) errors, in words a person setting up a station can act on. */
function hidReason(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  if (/cannot open device/i.test(message))
    return process.platform === 'linux'
      ? 'permission denied: give this user access to the scale with a udev rule (see docs/printing-and-devices.md)'
      : 'another program has the scale open, or the system refused access to it';
  if (/Cannot find module|could not load|\.node/i.test(message))
    return 'the HID module (node-hid) could not be loaded on this computer';
  return message;
}
