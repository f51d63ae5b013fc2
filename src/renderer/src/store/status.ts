import type { StationStatus } from '../../../shared/views';
import { call } from '../bridge';
import type { Slice } from './types';

export interface StatusSlice {
  status: StationStatus | null;
  statusError: string | null;
  setStatus(status: StationStatus): void;
  refreshStatus(): Promise<void>;
}

/** Which profile (and environment) a status is of: what the views' contents belong to. */
const scopeOf = (s: StationStatus | null) =>
  s?.profile ? `${s.profile.id}\u0000${s.profile.environment}` : '';

export const createStatusSlice: Slice<StatusSlice> = (set, get) => {
  /**
   * Another profile is active: what the views hold of the previous one (the order and label on
   * Pack, History's list, selection and audit, the Orders view's page, picks and batch) goes,
   * so nothing of one site or brand is shown, or reprinted, in another. Each view reads its
   * own again when it is shown.
   */
  const take = (status: StationStatus) => {
    const before = get().status;
    const changed = before !== null && scopeOf(before) !== scopeOf(status);
    set({ status, statusError: null });
    if (!changed) return;
    get().clearPack();
    set({
      history: { ...get().history, labels: [], total: 0, offset: 0, searched: '' },
      selectedLabel: null,
      audit: [],
      reprintWarnings: null,
      ordersPage: null,
      picked: [],
      batch: null,
      endOfDay: null,
    });
  };
  return {
    status: null,
    statusError: null,
    setStatus: take,
    async refreshStatus() {
      const r = await call('station.status', {});
      if (r.ok) take(r.value);
      else set({ statusError: r.error.message });
    },
  };
};
