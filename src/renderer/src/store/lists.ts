import type {
  AttentionItem,
  CarrierAccountView,
  LabelDetail,
  LabelSummary,
  QueueView,
  ReprintAuditView,
  TrackingBoard,
} from '../../../shared/views';
import type { AttentionAction } from '../../../shared/views';
import { call } from '../bridge';
import type { Slice } from './types';

export interface AttentionSlice {
  attention: AttentionItem[];
  loadAttention(): Promise<void>;
  resolveAttention(id: string, action: AttentionAction, note?: string): Promise<void>;
}

export const createAttentionSlice: Slice<AttentionSlice> = (set, get) => ({
  attention: [],
  async loadAttention() {
    const r = await call('attention.list', {});
    if (r.ok) set({ attention: r.value });
    else get().notify('error', r.error.message);
  },
  async resolveAttention(id, action, note) {
    const r = await call('attention.resolve', { id, action, ...(note ? { note } : {}) });
    if (r.ok) get().notify('ok', 'Done.');
    else get().notify('error', r.error.message);
    await get().loadAttention();
    void get().refreshStatus();
  },
});

export interface QueueSlice {
  queue: QueueView;
  loadQueue(): Promise<void>;
  queueAction(
    action: 'retry' | 'cancel',
    kind: 'shipment' | 'print-job',
    id: string,
  ): Promise<void>;
  moveJob(id: string, printerId: string): Promise<void>;
}

export const createQueueSlice: Slice<QueueSlice> = (set, get) => ({
  queue: { shipments: [], printJobs: [] },
  async loadQueue() {
    const r = await call('queue.list', {});
    if (r.ok) set({ queue: r.value });
    else get().notify('error', r.error.message);
  },
  async queueAction(action, kind, id) {
    const r = await call(action === 'retry' ? 'queue.retry' : 'queue.cancel', { kind, id });
    if (!r.ok) get().notify('error', r.error.message);
    await get().loadQueue();
  },
  async moveJob(id, printerId) {
    const r = await call('queue.move', { id, printerId });
    if (!r.ok) get().notify('error', r.error.message);
    await get().loadQueue();
  },
});

/** Labels per History page. */
export const HISTORY_PAGE = 50;

export interface HistorySlice {
  history: {
    query: string;
    from: string;
    to: string;
    tenantId: string;
    labels: LabelSummary[];
    /** Every label that matches, across pages. */
    total: number;
    /** Where the page on screen starts among them. */
    offset: number;
  };
  selectedLabel: LabelDetail | null;
  audit: ReprintAuditView[];
  /** What the last reprint said before printing (a 203-dpi label on a 300-dpi printer). */
  reprintWarnings: { labelId: string; warnings: string[] } | null;
  setHistoryQuery(
    patch: Partial<Pick<HistorySlice['history'], 'query' | 'from' | 'to' | 'tenantId'>>,
  ): void;
  /** The page starting at `offset` (the first page by default). */
  searchLabels(offset?: number): Promise<void>;
  selectLabel(id: string): Promise<void>;
  /** `packageIndex`: one package of a multi-package label; every package when absent. */
  reprint(id: string, reason: string, packageIndex?: number): Promise<boolean>;
}

export const createHistorySlice: Slice<HistorySlice> = (set, get) => ({
  history: { query: '', from: '', to: '', tenantId: '', labels: [], total: 0, offset: 0 },
  selectedLabel: null,
  audit: [],
  reprintWarnings: null,
  setHistoryQuery: (patch) => set({ history: { ...get().history, ...patch } }),
  async searchLabels(offset = 0) {
    const h = get().history;
    const r = await call('labels.search', {
      ...(h.query ? { query: h.query } : {}),
      ...(h.from ? { from: h.from } : {}),
      ...(h.to ? { to: h.to } : {}),
      ...(h.tenantId ? { tenantId: h.tenantId } : {}),
      limit: HISTORY_PAGE,
      offset,
    });
    if (r.ok)
      set({
        history: {
          ...get().history,
          labels: r.value.labels,
          total: r.value.total,
          offset: r.value.offset,
        },
      });
    else get().notify('error', r.error.message);
  },
  async selectLabel(id) {
    const [label, audit] = await Promise.all([
      call('labels.get', { id }),
      call('labels.audit', { labelId: id }),
    ]);
    if (label.ok) set({ selectedLabel: label.value });
    else get().notify('error', label.error.message);
    if (audit.ok) set({ audit: audit.value });
  },
  async reprint(id, reason, packageIndex) {
    const r = await call('labels.reprint', {
      id,
      reason,
      ...(packageIndex === undefined ? {} : { packageIndex }),
    });
    set({ reprintWarnings: r.ok ? { labelId: id, warnings: r.value.warnings } : null });
    if (r.ok)
      get().notify(
        r.value.warnings.length ? 'error' : 'ok',
        `Reprint sent to ${r.value.printerName}.${r.value.warnings.length ? ` ${r.value.warnings.join(' ')}` : ''}`,
      );
    else get().notify('error', r.error.message);
    // The row's Reprints count and the audit follow at once, not at the next search.
    const [audit, label] = await Promise.all([
      call('labels.audit', { labelId: id }),
      call('labels.get', { id }),
    ]);
    if (audit.ok) set({ audit: audit.value });
    if (label.ok) {
      const h = get().history;
      set({
        history: {
          ...h,
          labels: h.labels.map((l) => (l.id === id ? { ...l, reprints: label.value.reprints } : l)),
        },
        ...(get().selectedLabel?.id === id ? { selectedLabel: label.value } : {}),
      });
    }
    return r.ok;
  },
});

export interface TrackingSlice {
  tracking: { status: string; search: string; board: TrackingBoard | null; loading: boolean };
  setTrackingFilter(patch: { status?: string; search?: string }): void;
  loadTracking(): Promise<void>;
}

export const createTrackingSlice: Slice<TrackingSlice> = (set, get) => ({
  tracking: { status: '', search: '', board: null, loading: false },
  setTrackingFilter: (patch) => set({ tracking: { ...get().tracking, ...patch } }),
  async loadTracking() {
    const t = get().tracking;
    set({ tracking: { ...t, loading: true } });
    const r = await call('tracking.board', {
      ...(t.status ? { status: t.status } : {}),
      ...(t.search ? { search: t.search } : {}),
      limit: 20_000,
    });
    set({ tracking: { ...get().tracking, loading: false, ...(r.ok ? { board: r.value } : {}) } });
    if (!r.ok) get().notify('error', r.error.message);
  },
});

export interface CarriersSlice {
  carriers: CarrierAccountView[];
  loadCarriers(refresh?: boolean): Promise<void>;
}

export const createCarriersSlice: Slice<CarriersSlice> = (set, get) => ({
  carriers: [],
  async loadCarriers(refresh = false) {
    const r = await call('carriers.list', { refresh });
    if (r.ok) set({ carriers: r.value });
    else get().notify('error', r.error.message);
  },
});
