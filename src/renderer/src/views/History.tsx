import { useEffect, useRef, useState } from 'react';
import { useStation } from '../store';
import { LabelPreview } from '../components/LabelPreview';
import { ReprintForm } from '../components/ReprintForm';

export function HistoryView() {
  const s = useStation();
  const searchRef = useRef<HTMLInputElement>(null);
  const [reprinting, setReprinting] = useState(false);
  useEffect(() => {
    void useStation.getState().searchLabels();
    searchRef.current?.focus();
  }, []);
  const brands = s.status?.profile?.brands ?? [];
  const sel = s.selectedLabel;
  return (
    <section className="history">
      <div className="history-list">
        <form
          className="filters"
          onSubmit={(e) => {
            e.preventDefault();
            void s.searchLabels();
          }}
        >
          <input
            ref={searchRef}
            aria-label="Search labels"
            placeholder="Order or tracking number"
            value={s.history.query}
            onChange={(e) => s.setHistoryQuery({ query: e.target.value })}
          />
          <label>
            From{' '}
            <input
              type="date"
              value={s.history.from}
              onChange={(e) => s.setHistoryQuery({ from: e.target.value })}
            />
          </label>
          <label>
            To{' '}
            <input
              type="date"
              value={s.history.to}
              onChange={(e) => s.setHistoryQuery({ to: e.target.value })}
            />
          </label>
          {brands.length ? (
            <select
              aria-label="Brand"
              value={s.history.tenantId}
              onChange={(e) => s.setHistoryQuery({ tenantId: e.target.value })}
            >
              <option value="">All brands</option>
              {brands.map((b) => (
                <option key={b.tenantId} value={b.tenantId}>
                  {b.name}
                </option>
              ))}
            </select>
          ) : null}
          <button type="submit">Search</button>
          <span className="muted">
            {s.history.total} {s.history.total === 1 ? 'label' : 'labels'}
          </span>
        </form>
        <table className="grid selectable" data-testid="history-table">
          <thead>
            <tr>
              <th>Created</th>
              <th>Order</th>
              <th>Tracking</th>
              <th>Carrier</th>
              <th>Service</th>
              <th className="num">Cost</th>
              <th>Brand</th>
              <th className="num">Reprints</th>
            </tr>
          </thead>
          <tbody>
            {s.history.labels.map((l) => (
              <tr
                key={l.id}
                tabIndex={0}
                className={sel?.id === l.id ? 'selected' : ''}
                onClick={() => {
                  setReprinting(false);
                  void s.selectLabel(l.id);
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    setReprinting(false);
                    void s.selectLabel(l.id);
                  }
                }}
              >
                <td>{new Date(l.createdAt).toLocaleString()}</td>
                <td>{l.orderNumber}</td>
                <td>{l.trackingNumber}</td>
                <td>{l.carrier}</td>
                <td>{l.serviceLevel}</td>
                <td className="num">{l.cost.toFixed(2)}</td>
                <td>{l.brandName ?? l.tenantId ?? ''}</td>
                <td className="num">{l.reprints}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <aside className="history-detail panel" data-testid="label-detail">
        {sel ? (
          <>
            <h2>{sel.trackingNumber}</h2>
            <p>
              Order {sel.orderNumber} · {sel.carrier} {sel.serviceLevel} · {sel.cost.toFixed(2)}{' '}
              {sel.currency}
            </p>
            <LabelPreview labelId={sel.id} />
            {reprinting ? (
              <ReprintForm labelId={sel.id} onDone={() => setReprinting(false)} />
            ) : (
              <button onClick={() => setReprinting(true)} disabled={!sel.zplAvailable}>
                Reprint…
              </button>
            )}
            <h3>Reprint audit</h3>
            <table className="grid" data-testid="reprint-audit">
              <tbody>
                {s.audit.map((a) => (
                  <tr key={a.id}>
                    <td>{new Date(a.at).toLocaleString()}</td>
                    <td>{a.user}</td>
                    <td>{a.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        ) : (
          <p className="placeholder">Select a label (↑↓ Tab, Enter) to preview and reprint it.</p>
        )}
      </aside>
    </section>
  );
}
