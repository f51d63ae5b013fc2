import { EventEmitter } from 'node:events';
import type { EventName, Events } from '../../shared/contract.js';

/** The station's outgoing events, typed by the contract. Hosts forward every one of them. */
export class StationEvents {
  readonly #emitter = new EventEmitter();
  constructor() {
    this.#emitter.setMaxListeners(50);
  }
  emit<E extends EventName>(name: E, payload: Events[E]): void {
    this.#emitter.emit(name, payload);
    this.#emitter.emit('*', name, payload);
  }
  /** Every event, for a host to forward: returns the unsubscribe function. */
  onAny(listener: (name: EventName, payload: unknown) => void): () => void {
    this.#emitter.on('*', listener);
    return () => this.#emitter.off('*', listener);
  }
  on<E extends EventName>(name: E, listener: (payload: Events[E]) => void): () => void {
    this.#emitter.on(name, listener);
    return () => this.#emitter.off(name, listener);
  }
}
