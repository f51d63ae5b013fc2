import { useCallback, useEffect } from 'react';
import { useStation } from '../store';
import { TRACKING_PAGE } from '../store/lists';
import { VirtualList } from '../components/VirtualList';
import { trackerStatuses } from '../../../shared/tracking';
import { clockOrWhen, when } from '../lib/when';

/** A time as short as the column: today's as a time, an earlier one with its day. */
function shortTime(iso: string): string {
  return clockOrWhen(iso);
}

export function TrackingView() {
  const t = useStation((s) => s.tracking);
  const setFilter = useStation((s) => s.setTrackingFilter);
  const load = useStation((s) => s.loadTracking);
  const showRows = useStation((s) => s.showTrackingRows);
  const show = useCallback((first: number, last: number) => void showRows(first, last), [showRows]);
  useEffect(() => void load(), [load, t.status]);
  const board = t.board;
  return (
    <section className="list-view">
      <h1>Tracking</h1>
      {board?.sync.delayed ? (
        <div className="notice" role="status" data-testid="tracking-delayed-banner">
          {board.sync.message}
        </div>
      ) : null}
      <div className="filters">
        <button
          className={t.status === '' ? 'chip on' : 'chip'}
          onClick={() => setFilter({ status: '' })}
        >
          All {board ? Object.values(board.counts).reduce((a, b) => a + b, 0) : ''}
        </button>
        {trackerStatuses.map((st) => (
          <button
            key={st}
            className={t.status === st ? `chip on ${st}` : `chip ${st}`}
            onClick={() => setFilter({ status: st })}
          >
            {st.replace(/_/g, ' ')} {board?.counts[st] ?? 0}
          </button>
        ))}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void load();
          }}
        >
          <input
            aria-label="Search trackers"
            placeholder="Tracking number or order"
            value={t.search}
            onChange={(e) => setFilter({ search: e.target.value })}
          />
        </form>
        <span className="muted" data-testid="tracking-total">
          {board
            ? `${board.total} ${board.total === 1 ? 'shipment' : 'shipments'}`
            : t.loading
              ? 'loading…'
              : ''}
        </span>
      </div>
      <div className="vhead">
        <span>Tracking number</span>
        <span>Carrier</span>
        <span>Status</span>
        <span>Detail</span>
        <span>Order</span>
        <span>Updated</span>
      </div>
      <VirtualList
        label="Shipments"
        count={board?.total ?? 0}
        item={(i) => t.pages[Math.floor(i / TRACKING_PAGE)]?.[i % TRACKING_PAGE]}
        onRange={show}
        rowHeight={30}
        height={560}
        render={(r) => (
          <>
            <span>{r.trackingNumber}</span>
            <span>{r.carrier}</span>
            <span className={`status ${r.status}`}>{r.status.replace(/_/g, ' ')}</span>
            <span title={r.statusDetail ?? undefined}>{r.statusDetail ?? ''}</span>
            {/* The order number the shift lead knows; the platform's reference (with the
                purchase attempt's id) on hover. */}
            <span
              title={
                r.orderReference && r.orderReference !== r.orderNumber
                  ? `Order reference ${r.orderReference}`
                  : undefined
              }
            >
              {r.orderNumber ?? ''}
            </span>
            <span title={when(r.updatedAt)}>{shortTime(r.updatedAt)}</span>
          </>
        )}
      />
    </section>
  );
}
