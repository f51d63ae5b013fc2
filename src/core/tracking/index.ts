export { TrackerBoard, type BoardFilter, type BoardListQuery, type StatusCount } from './board.js';
export {
  CarrierHealth,
  describeProblem,
  explainRateErrors,
  type CarrierAccountHealth,
  type CarrierAccountProblem,
  type RateProblem,
} from './carrier-health.js';
export {
  TrackerPoller,
  type PollResult,
  type PollerStatus,
  type TrackerPollerOptions,
} from './poller.js';
export { TrackerStore, type TrackerSyncState } from './store.js';
export * from './types.js';
