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
  askLead(message: string): void;
  closeLead(): void;
}

export const useSession = create<SessionState>()((set) => ({
  session: null,
  leadPrompt: null,
  load: async () => {
    const r = await call('users.session', {});
    if (r.ok) set({ session: r.value });
  },
  setSession: (session) => set({ session }),
  askLead: (leadPrompt) => set({ leadPrompt }),
  closeLead: () => set({ leadPrompt: null }),
}));
