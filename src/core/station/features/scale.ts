import { UsbScale } from '../../devices/index.js';
import { parseScaleDevice } from '../../../shared/boxes.js';
import type { StationContext } from '../context.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { scaleCalls } from '../../../shared/features/scale.js';

/**
 * The USB scale: which one (Settings' choice, else the profile's, else the first known scale
 * found), reading it, and listing the scales this computer sees.
 */
export function scaleHandlers(ctx: StationContext): FeatureHandlers<typeof scaleCalls> {
  let open: { key: string; scale: UsbScale } | null = null;
  const bus = ctx.options.usbBus ? { bus: ctx.options.usbBus } : {};

  function chosen(): { vendorId?: number; productId?: number } {
    const picked = parseScaleDevice(ctx.stationSettings().scale.device);
    if (picked) return picked;
    const p = ctx.runtimeOrNull()?.profile.scale;
    return {
      ...(p?.vendorId !== undefined ? { vendorId: p.vendorId } : {}),
      ...(p?.productId !== undefined ? { productId: p.productId } : {}),
    };
  }

  async function scale(): Promise<UsbScale> {
    const which = chosen();
    const key = JSON.stringify(which);
    if (open?.key === key) return open.scale;
    // Another scale was chosen in Settings: let go of the old one first.
    await open?.scale.close();
    open = { key, scale: new UsbScale({ ...which, ...bus }) };
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
          message: `The scale could not be read (${usbReason(error)}); type the weight.`,
        };
      }
    },
    'devices.discoverScales': async () => {
      try {
        const found = await new UsbScale(bus).list();
        return {
          scales: found.map((f) => ({
            device: `${hex4(f.vendorId)}:${hex4(f.productId)}`,
            model: f.model,
          })),
          note: found.length
            ? null
            : 'No known USB scale is plugged in (Dymo, Stamps.com, Mettler Toledo).',
        };
      } catch (error) {
        ctx.log(`scale discovery: ${(error as Error).message}`);
        return {
          scales: [],
          note: `USB devices cannot be listed on this computer (${usbReason(error)}).`,
        };
      }
    },
  };
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0');

/** node-usb's errors, in words a person setting up a station can act on. */
function usbReason(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  if (/\/sys\/bus\/usb\/devices\/? not found/.test(message))
    return 'no USB bus: /sys/bus/usb is missing, as in a container or virtual machine';
  if (/LIBUSB_ERROR_ACCESS/.test(message))
    return 'permission denied: give this user access to the scale (a udev rule on Linux)';
  return message;
}
