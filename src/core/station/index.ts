export { createStation, type Station, type StationOptions } from './station.js';
export { defaultDataDir, PRODUCT_NAME } from './data-dir.js';
export type { EmbeddedSandbox, StartSandbox } from './ports.js';
export { StationFailure, toStationError } from './errors.js';
