export * from './result.js';
export * from './contract.js';
export * from './boxes.js';
export * from './tracking.js';
export type * from './views.js';
export * from './bridge.js';
