import type { Slice } from './types';

export const views = [
  { id: 'pack', label: 'Pack', key: '1' },
  { id: 'attention', label: 'Needs attention', key: '2' },
  { id: 'queue', label: 'Queue', key: '3' },
  { id: 'history', label: 'History', key: '4' },
  { id: 'tracking', label: 'Tracking', key: '5' },
  { id: 'carriers', label: 'Carrier accounts', key: '6' },
  { id: 'settings', label: 'Settings', key: '7' },
  { id: 'orders', label: 'Orders', key: '8' },
  { id: 'endofday', label: 'End of day', key: '9' },
  { id: 'site', label: 'Site', key: '0' },
] as const;

export type ViewId = (typeof views)[number]['id'];

export interface NavSlice {
  view: ViewId;
  hostConnected: boolean;
  toast: { kind: 'ok' | 'error'; text: string } | null;
  go(view: ViewId): void;
  setHostConnected(connected: boolean): void;
  notify(kind: 'ok' | 'error', text: string): void;
}

export const createNavSlice: Slice<NavSlice> = (set) => ({
  view: 'pack',
  hostConnected: true,
  toast: null,
  go: (view) => set({ view }),
  setHostConnected: (hostConnected) => set({ hostConnected }),
  notify: (kind, text) => {
    const toast = { kind, text };
    set({ toast });
    // Errors stay longer than confirmations; a newer message replaces an older one.
    setTimeout(
      () => set((s) => (s.toast === toast ? { toast: null } : {})),
      kind === 'error' ? 12_000 : 5000,
    );
  },
});
