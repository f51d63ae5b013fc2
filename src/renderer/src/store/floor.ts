import type {
  BatchView,
  EndOfDayView,
  OrderPageView,
  OrderStatusName,
} from '../../../shared/views';
import { call } from '../bridge';
import type { Slice } from './types';

export const ORDER_PAGE = 50;

export interface OrdersQuery {
  search: string;
  statuses: OrderStatusName[];
  singleItem: boolean;
  weightKnown: boolean;
  offset: number;
}

/** The Orders view, batches and the end of day (issue 15). */
export interface FloorSlice {
  ordersQuery: OrdersQuery;
  ordersPage: OrderPageView | null;
  /** Orders picked for a batch (ids), across pages. */
  picked: string[];
  batch: BatchView | null;
  endOfDay: EndOfDayView | null;
  /** Which range and scope `endOfDay` is of (`from|to|scope`): a view of another waits for its own. */
  endOfDayFor: string | null;
  /** Why the End of day on screen could not be read (the site store away, a refused range). */
  endOfDayProblem: string | null;
  loadOrders(patch?: Partial<OrdersQuery>): Promise<void>;
  togglePicked(id: string): void;
  clearPicked(): void;
  startBatch(mode: 'picked' | 'matching'): Promise<void>;
  controlBatch(action: 'pause' | 'resume' | 'stop'): Promise<void>;
  setBatch(batch: BatchView): void;
  loadBatches(): Promise<void>;
  /** `scope` site: every station's labels, from the site store. */
  loadEndOfDay(from: string, to: string, scope?: 'station' | 'site'): Promise<void>;
}

const offsetMinutes = () => -new Date().getTimezoneOffset();

export const createFloorSlice: Slice<FloorSlice> = (set, get) => {
  let asked = 0;
  let eodAsked = 0;
  return {
    ordersQuery: { search: '', statuses: [], singleItem: false, weightKnown: false, offset: 0 },
    ordersPage: null,
    picked: [],
    batch: null,
    endOfDay: null,
    endOfDayFor: null,
    endOfDayProblem: null,

    async loadOrders(patch = {}) {
      const query = { ...get().ordersQuery, ...patch };
      set({ ordersQuery: query });
      const mine = ++asked;
      const r = await call('orders.page', {
        search: query.search.trim() || undefined,
        statuses: query.statuses,
        singleItem: query.singleItem,
        weightKnown: query.weightKnown,
        limit: ORDER_PAGE,
        offset: query.offset,
      });
      if (mine !== asked) return; // a newer search answered first
      if (r.ok) set({ ordersPage: r.value });
      else get().notify('error', r.error.message);
    },
    togglePicked(id) {
      const picked = get().picked;
      set({ picked: picked.includes(id) ? picked.filter((p) => p !== id) : [...picked, id] });
    },
    clearPicked: () => set({ picked: [] }),

    async startBatch(mode) {
      const q = get().ordersQuery;
      const n = get().picked.length;
      const r = await call(
        'batch.start',
        mode === 'picked'
          ? { orderIds: get().picked, description: `${n} picked order${n === 1 ? '' : 's'}` }
          : {
              filter: {
                search: q.search.trim() || undefined,
                statuses: q.statuses,
                singleItem: q.singleItem,
                weightKnown: q.weightKnown,
              },
              description: describe(q),
            },
      );
      if (!r.ok) {
        get().notify('error', r.error.message);
        return;
      }
      set({ batch: r.value, picked: [] });
    },
    async controlBatch(action) {
      const b = get().batch;
      if (!b) return;
      const r = await call('batch.control', { id: b.id, action });
      if (r.ok) set({ batch: r.value });
      else get().notify('error', r.error.message);
    },
    setBatch(batch) {
      const current = get().batch;
      // The newest batch, or the one on screen moving on.
      if (!current || current.id === batch.id || batch.createdAt >= current.createdAt)
        set({ batch });
    },
    async loadBatches() {
      const r = await call('batch.list', {});
      if (r.ok && r.value[0]) set({ batch: r.value[0] });
    },

    async loadEndOfDay(from, to, scope = 'station') {
      const mine = ++eodAsked;
      const r = await call('endOfDay.summary', {
        from,
        to,
        utcOffsetMinutes: offsetMinutes(),
        scope,
      });
      // An answer to an earlier ask (the scope switched meanwhile) never replaces a later one:
      // this station's totals came back after the whole site's and stayed under "Whole site".
      if (mine !== eodAsked) return;
      if (r.ok)
        set({ endOfDay: r.value, endOfDayFor: `${from}|${to}|${scope}`, endOfDayProblem: null });
      else {
        // The totals on screen were another range's (or scope's): they go, the refusal is said,
        // on the view too (the whole site's when the store is away, what still works); the
        // same refusal again (the whole site's read every 30 s) is not toasted each time.
        const again = get().endOfDayProblem === r.error.message;
        set({ endOfDay: null, endOfDayProblem: r.error.message });
        if (!again) get().notify('error', r.error.message);
      }
    },
  };
};

function describe(q: OrdersQuery): string {
  const parts = [
    q.statuses.length ? `${q.statuses.join(' or ')} orders` : 'all orders',
    q.singleItem ? 'single item' : '',
    q.weightKnown ? 'weight known' : '',
    q.search.trim() ? `matching "${q.search.trim()}"` : '',
  ].filter(Boolean);
  return parts.join(' · ');
}

export { offsetMinutes };
