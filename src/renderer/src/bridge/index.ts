import type { StationBridge } from '../../../shared/bridge';
import type { CallName, Input, Output } from '../../../shared/contract';
import type { Result } from '../../../shared/result';
import { connectWeb } from './web';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in a browser. */
    station?: StationBridge;
  }
}

let bridge: StationBridge | null = null;
const connectionListeners = new Set<(c: boolean) => void>();

export function getBridge(): StationBridge {
  if (!bridge) {
    bridge =
      window.station ??
      connectWeb((connected) => {
        for (const l of connectionListeners) l(connected);
      });
  }
  return bridge;
}

export function onHostConnection(listener: (connected: boolean) => void): () => void {
  connectionListeners.add(listener);
  return () => connectionListeners.delete(listener);
}

const errorListeners = new Set<(error: { code: string; message: string }) => void>();

/** Every refused call (sign-in and shift-lead prompts listen for theirs, issue 14). */
export function onCallError(
  listener: (error: { code: string; message: string }) => void,
): () => void {
  errorListeners.add(listener);
  return () => errorListeners.delete(listener);
}

export function call<K extends CallName>(name: K, input: Input<K>): Promise<Result<Output<K>>> {
  return getBridge()
    .call(name, input)
    .then((r) => {
      if (!r.ok) for (const l of errorListeners) l(r.error);
      return r;
    });
}
