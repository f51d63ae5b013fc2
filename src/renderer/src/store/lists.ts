import type {
  AttentionItem,
  CarrierAccountView,
  LabelDetail,
  LabelSummary,
  PrintJobView,
  PrinterStatusView,
  QueueView,
  ReprintAuditView,
  TrackerRow,
  TrackingBoard,
} from '../../../shared/views';
import type { Events } from '../../../shared/contract';
import type { AttentionAction } from '../../../shared/views';
import { call } from '../bridge';
import type { Slice } from './types';

export interface AttentionSlice {
  attention: AttentionItem[];
  loadAttention(): Promise<void>;
  /** Resolves an item; says how it went (also as a toast). */
  resolveAttention(
    id: string,
    action: AttentionAction,
    note?: string,
  ): Promise<{ ok: boolean; message: string }>;
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
    const said = r.ok
      ? { ok: true, message: r.value.message ?? 'Done.' }
      : { ok: false, message: r.error.message };
    get().notify(said.ok ? 'ok' : 'error', said.message);
    await get().loadAttention();
    void get().refreshStatus();
    return said;
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

/**
 * Whether a reprint is held by its printer: the spool tried and failed, or the header says that
 * printer is not ready. A job only waiting its turn behind a ready printer is on its way.
 */
export function reprintHeld(job: PrintJobView, printer: PrinterStatusView | null): boolean {
  if (job.lastError) return true;
  return (
    job.state === 'queued' && printer?.printerId === job.printerId && printer.state !== 'ready'
  );
}

/** Where a reprint went, in History's words and the Pack view's alike. */
export function reprintSaid(job: PrintJobView, printer: PrinterStatusView | null): string {
  if (!reprintHeld(job, printer)) return `Reprint sent to ${job.printerName}.`;
  const why = job.lastError ?? (printer?.printerId === job.printerId ? printer.message : null);
  return `Reprint queued for ${job.printerName}: it prints when the printer is ready${why ? ` (${why})` : ''}.`;
}

/** Labels per History page. */
export const HISTORY_PAGE = 50;

/** What a History search asks: the box and the filters, as one comparable string. */
export function historySearchKey(h: {
  query: string;
  from: string;
  to: string;
  tenantId: string;
}): string {
  return JSON.stringify([h.query.trim(), h.from, h.to, h.tenantId]);
}

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
    /** The search the list on screen answers (historySearchKey), '' before the first. */
    searched: string;
    /** Why nothing is listed when the search was too broad. */
    note?: string | undefined;
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
  history: {
    query: '',
    from: '',
    to: '',
    tenantId: '',
    labels: [],
    total: 0,
    offset: 0,
    searched: '',
  },
  selectedLabel: null,
  audit: [],
  reprintWarnings: null,
  setHistoryQuery: (patch) => set({ history: { ...get().history, ...patch } }),
  async searchLabels(offset = 0) {
    const h = get().history;
    const searched = historySearchKey(h);
    const r = await call('labels.search', {
      ...(h.query ? { query: h.query } : {}),
      ...(h.from ? { from: h.from } : {}),
      ...(h.to ? { to: h.to } : {}),
      ...(h.tenantId ? { tenantId: h.tenantId } : {}),
      limit: HISTORY_PAGE,
      offset,
    });
    // A date or brand changed again while this was asked: the newer search answers instead.
    if (historySearchKey(get().history) !== searched && r.ok) return;
    if (r.ok) {
      // The label in the detail pane must be one of the list's: after a search that found
      // nothing (or not it), its preview and Reprint would be another search's label.
      const selected = get().selectedLabel;
      const kept = selected && r.value.labels.some((l) => l.id === selected.id);
      set({
        history: {
          ...get().history,
          labels: r.value.labels,
          total: r.value.total,
          offset: r.value.offset,
          searched,
          note: r.value.note,
        },
        ...(kept ? {} : { selectedLabel: null, audit: [], reprintWarnings: null }),
      });
    } else get().notify('error', r.error.message);
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
    if (r.ok) {
      const job = r.value;
      const printer = get().status?.printer ?? null;
      const what = reprintSaid(job, printer);
      get().notify(
        job.warnings.length || reprintHeld(job, printer) ? 'error' : 'ok',
        `${what}${job.warnings.length ? ` ${job.warnings.join(' ')}` : ''}`,
      );
    } else get().notify('error', r.error.message);
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

/** Tracker rows per request of the board: it asks for the pages in view, never the whole board. */
export const TRACKING_PAGE = 200;

export interface TrackingSlice {
  tracking: {
    status: string;
    search: string;
    /** Counts, total and sync of the board as last asked; null before the first answer. */
    board: Omit<TrackingBoard, 'rows' | 'offset'> | null;
    /** Rows by page (TRACKING_PAGE each); a page not here is asked for when it comes into view. */
    pages: Record<number, TrackerRow[]>;
    /** The pages the list shows now. */
    inView: number[];
    loading: boolean;
  };
  setTrackingFilter(patch: { status?: string; search?: string }): void;
  /** Forgets every page and asks again for the pages in view (filters, reconnect, an event). */
  loadTracking(): Promise<void>;
  /** The rows first..last are in view: asks for the pages they fall on that are not here. */
  showTrackingRows(first: number, last: number): Promise<void>;
  /** The station's tracking-changed: the sync state at once, the pages in view asked again. */
  trackersChanged(change: Events['tracking-changed']): Promise<void>;
}

/** Which answer is the newest: an older one (filters changed meanwhile) is dropped. */
let trackingAsk = 0;

export const createTrackingSlice: Slice<TrackingSlice> = (set, get) => {
  /**
   * 'filter': the filters changed, every page is wrong now; 'refresh': the data changed, the
   * pages on screen stay until their new rows come and the others are dropped; 'more': pages
   * that came into view.
   */
  const fetchPages = async (pages: number[], mode: 'filter' | 'refresh' | 'more') => {
    const ask = mode === 'more' ? trackingAsk : ++trackingAsk;
    const t = get().tracking;
    set({ tracking: { ...t, loading: true, ...(mode === 'filter' ? { pages: {} } : {}) } });
    const answers = await Promise.all(
      pages.map((page) =>
        call('tracking.board', {
          ...(t.status ? { status: t.status } : {}),
          ...(t.search ? { search: t.search } : {}),
          offset: page * TRACKING_PAGE,
          limit: TRACKING_PAGE,
        }).then((r) => ({ page, r })),
      ),
    );
    if (ask !== trackingAsk) return;
    const now = get().tracking;
    const next: Record<number, TrackerRow[]> = mode === 'more' ? { ...now.pages } : {};
    let board = now.board;
    for (const { page, r } of answers) {
      if (!r.ok) {
        get().notify('error', r.error.message);
        continue;
      }
      const { rows, offset: _offset, ...rest } = r.value;
      next[page] = rows;
      board = rest;
    }
    set({ tracking: { ...get().tracking, loading: false, pages: next, board } });
    // Scrolled meanwhile: the pages now in view that this answer did not bring.
    const missing = get().tracking.inView.filter((p) => !next[p] && !pages.includes(p));
    if (missing.length) await fetchPages(missing, 'more');
  };
  return {
    tracking: { status: '', search: '', board: null, pages: {}, inView: [0], loading: false },
    setTrackingFilter: (patch) => set({ tracking: { ...get().tracking, ...patch } }),
    async loadTracking() {
      await fetchPages(get().tracking.inView, 'filter');
    },
    async showTrackingRows(first, last) {
      const inView: number[] = [];
      for (let p = Math.floor(first / TRACKING_PAGE); p <= Math.floor(last / TRACKING_PAGE); p++)
        inView.push(p);
      const t = get().tracking;
      set({ tracking: { ...t, inView } });
      const missing = inView.filter((p) => !t.pages[p]);
      if (missing.length) await fetchPages(missing, 'more');
    },
    async trackersChanged(change) {
      const t = get().tracking;
      if (t.board) set({ tracking: { ...t, board: { ...t.board, sync: change.sync } } });
      // Changed trackers move to the top (newest first) and change the counts: the pages in
      // view are asked again, one or two requests of TRACKING_PAGE rows, never the whole board.
      if (change.rows.length > 0 || change.more > 0) await fetchPages(t.inView, 'refresh');
    },
  };
};

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
