/** The USB scale: read a weight, list the scales. Handlers: src/core/station/features/scale.ts. */
import { def, none } from './define.js';

export interface DiscoveredScale {
  /** What `settings.update` takes as `scale.device`: "vendor:product" in hex ("0922:8003"). */
  device: string;
  /** "Dymo M25", or the product name the scale gives. */
  model: string;
}

export interface ScaleDiscovery {
  scales: DiscoveredScale[];
  /** Why none could be listed ("USB is not available on this computer: …"); null when searched. */
  note: string | null;
}

export interface WeightReading {
  weightLbs: number | null;
  stable: boolean;
  message: string;
}

export const scaleCalls = {
  'pack.readScale': def<WeightReading>()(none),
  /** The USB scales this computer sees, for Settings; a note says why there are none. */
  'devices.discoverScales': def<ScaleDiscovery>()(none),
};
