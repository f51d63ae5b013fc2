/** The USB scale: read a weight, list the scales. Handlers: src/core/station/features/scale.ts. */
import type * as V from '../views.js';
import { def, none } from './define.js';

export const scaleCalls = {
  'pack.readScale': def<V.WeightReading>()(none),
  /** The USB scales this computer sees, for Settings; a note says why there are none. */
  'devices.discoverScales': def<V.ScaleDiscovery>()(none),
};
