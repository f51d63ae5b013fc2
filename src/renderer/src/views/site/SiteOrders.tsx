import { useEffect, useRef, useState } from 'react';
import { call, getBridge } from '../../bridge';
import { when } from '../../lib/when';
import { useStation } from '../../store';
import type { SiteOrderPage, SiteOrderState } from '../../../../shared/views';
import { BrandSelect } from '../../components/BrandSelect';
import { ScopeSelect } from '../../components/ScopeSelect';
import { useOrderRows } from '../order-rows';
import '../orders.css';
import './site-orders.css';

const states: { id: SiteOrderState; label: string }[] = [
  { id: 'open', label: 'Open' },
  { id: 'being-labelled', label: 'Being labelled' },
  { id: 'labelled', label: 'Labelled' },
  { id: 'cancelled', label: 'Cancelled' },
];

/**
 * Orders, Whole site: the orders every station of the site imported, newest change first, with
 * where each stands (open, being labelled or labelled where and by whom, cancelled where and
 * why), read from the site store. Read-only: Enter (or a double click) opens one on Pack, which
 * fetches it to this station; a batch, a cancel or a reopen are made there or in This station.
 */
export function SiteOrders(props: { onStationScope(): void }) {
  const brands = useStation((s) => s.status?.profile?.brands ?? []);
  const [query, setQuery] = useState('');
  const [state, setState] = useState<SiteOrderState | null>(null);
  const [tenantId, setTenantId] = useState('');
  const [page, setPage] = useState<SiteOrderPage | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const list = page?.orders ?? [];
  const { rows, cursor, setCursor, focusRow, open, rowKey } = useOrderRows(list.length, searchRef);

  useEffect(() => searchRef.current?.focus(), []);
  // What the list on screen answers, and the search as it is typed: ↓ from a search not yet run
  // runs it first, so Enter never opens a row of the list before.
  const wanted = JSON.stringify([query.trim(), state, tenantId]);
  const [shown, setShown] = useState<string | null>(null);
  const latest = useRef(wanted);
  useEffect(() => {
    latest.current = wanted;
  }, [wanted]);
  /** `keep`: the cursor stays where it is (the same search read again after a change). */
  const load = async (keep = false): Promise<SiteOrderPage | null> => {
    const key = wanted;
    const r = await call('site.orders', {
      ...(query.trim() ? { query: query.trim() } : {}),
      ...(state ? { state } : {}),
      ...(tenantId ? { tenantId } : {}),
    });
    if (latest.current !== key) return null; // typed on since: a newer search answers
    setProblem(r.ok ? null : r.error.message);
    setPage(r.ok ? r.value : null);
    setShown(key);
    if (!keep) setCursor(0);
    return r.ok ? r.value : null;
  };
  // Another station labels, cancels or imports (the store's NOTIFY): the list is read again,
  // at most every 2 s, the cursor kept.
  const again = useRef(load);
  useEffect(() => {
    again.current = load;
  });
  useEffect(() => {
    let pending: ReturnType<typeof setTimeout> | undefined;
    const off = getBridge().on('site-changed', () => {
      pending ??= setTimeout(() => {
        pending = undefined;
        void again.current(true);
      }, 2000);
    });
    return () => {
      off();
      clearTimeout(pending);
    };
  }, []);
  // Typing searches after a short pause; a state or brand the same way.
  useEffect(() => {
    const t = setTimeout(() => void load(), 200);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `wanted` is the search's key
  }, [wanted]);

  return (
    <section className="orders site-orders">
      <div className="orders-list">
        <div className="filters">
          <ScopeSelect label="Orders scope" value="site" onChange={props.onStationScope} />
          <input
            ref={searchRef}
            aria-label="Search site orders"
            placeholder="Order number (its start)"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              // ↓ or Enter: into the rows (Enter again opens the row on Pack).
              if (e.key !== 'ArrowDown' && e.key !== 'Enter') return;
              e.preventDefault();
              if (shown === wanted) {
                if (list.length) focusRow(0);
              } else
                void load().then((p) => {
                  if (p?.orders.length) requestAnimationFrame(() => rows.current[0]?.focus());
                });
            }}
          />
          <button
            className={state === null ? 'chip on' : 'chip'}
            aria-pressed={state === null}
            onClick={() => setState(null)}
          >
            All
          </button>
          {states.map((x) => (
            <button
              key={x.id}
              className={`chip ${state === x.id ? 'on' : ''}`}
              aria-pressed={state === x.id}
              onClick={() => setState(state === x.id ? null : x.id)}
            >
              {x.label}
            </button>
          ))}
          <BrandSelect brands={brands} value={tenantId} onChange={setTenantId} />
        </div>
        {problem ? (
          <p className="error-line" role="alert" data-testid="site-orders-problem">
            {problem}
          </p>
        ) : null}
        <div className="orders-pager" data-testid="site-orders-pager">
          <b>
            {!page
              ? ''
              : list.length === 0
                ? 'No orders'
                : `${list.length === 1 ? '1 order' : `${list.length} orders`}${page.more ? ' (the newest; more match: type more of the number)' : ''}`}
          </b>
          <span className="muted keys">
            Every station&apos;s orders, from the site store · <kbd>↓</kbd> rows · <kbd>Enter</kbd>{' '}
            open on Pack
          </span>
        </div>
        <div className="orders-rows">
          <table className="grid selectable orders-table" data-testid="site-orders-table">
            <thead>
              <tr>
                <th>Order</th>
                <th>Brand</th>
                <th>Ship to</th>
                <th title="The station that imported the order, or last changed it (a cancel, a reopen)">
                  From
                </th>
                <th>Changed</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {list.map((o, i) => (
                <tr
                  key={`${o.tenantId}|${o.orderNumber}`}
                  ref={(el) => {
                    rows.current[i] = el;
                  }}
                  tabIndex={i === cursor ? 0 : -1}
                  className={i === cursor ? 'selected' : ''}
                  data-testid="site-order-row"
                  onKeyDown={(e) => rowKey(e, i, o.orderNumber)}
                  onClick={() => setCursor(i)}
                  onDoubleClick={() => void open(o.orderNumber)}
                >
                  <td className="order-number">{o.orderNumber}</td>
                  <td>
                    <span className="clip brand" title={o.brandName ?? undefined}>
                      {o.brandName ?? ''}
                    </span>
                  </td>
                  <td>
                    <span className="clip" title={o.shipTo}>
                      {o.shipTo}
                    </span>
                  </td>
                  <td>{o.here ? `${o.stationName} (here)` : o.stationName}</td>
                  <td>{when(o.updatedAt)}</td>
                  <td className="site-order-state">
                    <span className={`status status-${o.state}`} title={o.stateText}>
                      {o.stateText}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
