/**
 * The `station` bridge as the renderer sees it, whichever host serves it: the Electron preload
 * exposes it on `window.station`; in a browser the renderer builds it over the web host's
 * WebSocket. Both forward every call over one channel, typed here from the contract; the host
 * (`dispatch`) refuses a name the contract does not declare. Never written call by call.
 */
import type { CallName, EventName, Input, Output, Events } from './contract.js';
import type { Result } from './result.js';

export interface StationBridge {
  call<K extends CallName>(name: K, input: Input<K>): Promise<Result<Output<K>>>;
  on<E extends EventName>(name: E, listener: (payload: Events[E]) => void): () => void;
  readonly host: 'electron' | 'web';
}

/** The one IPC channel for calls and the one for events (Electron host). */
export const CALL_CHANNEL = 'station:call';
export const EVENT_CHANNEL = 'station:event';

/** The web host's WebSocket frames. */
export type ClientFrame = { id: number; call: string; input: unknown };
export type ServerFrame =
  { id: number; result: Result<unknown> } | { event: string; payload: unknown };
