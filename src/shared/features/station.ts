/** The station itself: the header's status line. Handlers: src/core/station/features/status.ts. */
import type * as V from '../views.js';
import { def, none } from './define.js';

export const stationCalls = {
  'station.status': def<V.StationStatus>()(none),
};
