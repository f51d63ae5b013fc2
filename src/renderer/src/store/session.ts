import { create } from 'zustand';
import { call } from '../bridge';
import type { SessionView } from '../../../shared/features/site-services';
import { readsInOrder } from '../lib/reads-in-order';

/** Who is packing, and a shift lead's approval being asked for (issue 14). */
export interface SessionState {
  session: SessionView | null;
  /** The refused action's message while the lead-approval dialog is open. */
  leadPrompt: string | null;
  load(): Promise<void>;
  setSession(s: SessionView): void;
  /** Opens the dialog; resolves true once a lead approved, false when it was cancelled. */
  askLead(message: string): Promise<boolean>;
  closeLead(approved?: boolean): void;
}

/** The open dialog's answer (one dialog at a time: a new question cancels the one before). */
let answer: ((approved: boolean) => void) | null = null;

/** The session's reads, taken in the order asked (see load). */
const reads = readsInOrder();

export const useSession = create<SessionState>()((set) => ({
  session: null,
  leadPrompt: null,
  load: async () => {
    // An earlier read answered last (a loaded machine) must not put back a user the station has
    // signed out since; reads asked one after another (a status event each) still land in turn.
    const asked = reads.ask();
    const r = await call('users.session', {});
    if (r.ok && reads.take(asked)) set({ session: r.value });
  },
  setSession: (session) => {
    reads.supersede(); // a read asked before this (a sign-in's answer) is older than it
    set({ session });
  },
  askLead: (leadPrompt) => {
    answer?.(false);
    set({ leadPrompt });
    return new Promise<boolean>((resolve) => {
      answer = resolve;
    });
  },
  closeLead: (approved = false) => {
    const resolve = answer;
    answer = null;
    set({ leadPrompt: null });
    resolve?.(approved);
  },
}));
