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

let leadApprover: ((message: string) => Promise<boolean>) | null = null;

/**
 * Who asks a shift lead when an action needs one (the lead-approval dialog, issue 14): resolves
 * true once a lead approved, false when the packer cancelled.
 */
export function onLeadRequired(approver: (message: string) => Promise<boolean>): () => void {
  leadApprover = approver;
  return () => {
    if (leadApprover === approver) leadApprover = null;
  };
}

/**
 * One call to the station. An action refused for want of a shift lead's approval waits for the
 * lead's badge and is then made again, so the page that asked gets its outcome as if the action
 * had only taken longer (the label bought, the reprint sent); cancelled, the refusal stands. The
 * approval's own call is never asked about (its "… is not a shift lead" is the dialog's to say).
 */
export async function call<K extends CallName>(
  name: K,
  input: Input<K>,
): Promise<Result<Output<K>>> {
  const r = await getBridge().call(name, input);
  if (!r.ok && r.error.code === 'lead-required' && name !== 'users.approve' && leadApprover) {
    if (await leadApprover(r.error.message)) return call(name, input);
    return r;
  }
  if (!r.ok) for (const l of errorListeners) l(r.error);
  return r;
}
