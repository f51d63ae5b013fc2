import type { StationStatus } from '../../../shared/views';
import { call } from '../bridge';
import type { Slice } from './types';

export interface StatusSlice {
  status: StationStatus | null;
  statusError: string | null;
  setStatus(status: StationStatus): void;
  refreshStatus(): Promise<void>;
}

export const createStatusSlice: Slice<StatusSlice> = (set) => ({
  status: null,
  statusError: null,
  setStatus: (status) => set({ status, statusError: null }),
  async refreshStatus() {
    const r = await call('station.status', {});
    if (r.ok) set({ status: r.value, statusError: null });
    else set({ statusError: r.error.message });
  },
});
