export { PlatformClient, inlineZpl } from './client.js';
export {
  ConnectivityMonitor,
  PACKING_CAPABILITIES,
  capabilityOf,
  type CapabilitySnapshot,
  type PlatformCapability,
  type ConnectivityListener,
  type ConnectivitySnapshot,
  type ConnectivityState,
} from './connectivity.js';
export {
  PlatformError,
  isPlatformError,
  type FieldError,
  type PlatformErrorKind,
} from './errors.js';
export * from './schemas.js';
export { TokenManager, TokenStore, type TokenStats } from './tokens.js';
export type { PlatformRequestEvent, RequestObserver, RetryPolicy } from './transport.js';
export type * from './types.js';
