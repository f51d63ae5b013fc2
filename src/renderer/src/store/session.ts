import { create } from 'zustand';
import { call } from '../bridge';
import type { SessionView } from '../../../shared/features/site-services';

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

/** How many session reads were asked (see load). */
let reads = 0;

export const useSession = create<SessionState>()((set) => ({
  session: null,
  leadPrompt: null,
  load: async () => {
    // An earlier read answered last (a loaded machine) must not put back a user the station has
    // signed out since: only the latest read is taken.
    const asked = ++reads;
    const r = await call('users.session', {});
    if (r.ok && asked === reads) set({ session: r.value });
  },
  setSession: (session) => {
    reads++; // a read asked before this (a sign-in's answer) is older than it
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
