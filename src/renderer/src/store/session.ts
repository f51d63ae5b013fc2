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

export const useSession = create<SessionState>()((set) => ({
  session: null,
  leadPrompt: null,
  load: async () => {
    const r = await call('users.session', {});
    if (r.ok) set({ session: r.value });
  },
  setSession: (session) => set({ session }),
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
