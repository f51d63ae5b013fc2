import { useEffect, useRef, useState } from 'react';
import type { OrderStatusName } from '../../../shared/views';
import { MAX_BATCH_ORDERS } from '../../../shared/features/floor';
import { call } from '../bridge';
import { useStation } from '../store';
import { ORDER_PAGE } from '../store/floor';
import './orders.css';
import { ConfirmPanel } from '../components/ConfirmPanel';
import { readOrderFile } from '../lib/read-file';
import { ImportReportPanel, withoutReopened } from './ImportReportPanel';
import { ColumnMapping } from './settings/ColumnMapping';
import { BatchPanel } from './BatchPanel';
import { batchQuestion, batchStartWords, tooManyWords } from './batch-question';
import { TooMany } from './TooMany';
import { useOrderRows } from './order-rows';
import { CancelOrders } from './CancelOrders';
import { ScopeSelect } from '../components/ScopeSelect';
import type { ImportReport } from '../../../shared/features/packing';

const statuses: { id: OrderStatusName; label: string }[] = [
  { id: 'open', label: 'Open' },
  { id: 'verified', label: 'Verified' },
  { id: 'labelled', label: 'Labelled' },
  { id: 'queued', label: 'Queued' },
  { id: 'failed', label: 'Failed' },
  { id: 'cancelled', label: 'Cancelled' },
];

/**
 * The station's orders (issue 15.2), paged by the station: search, status filters with counts,
 * import a file, open one on Pack (Enter), pick orders (Space) and print them as a batch.
 * Keys: ↓ from the search into the rows, ↑/↓ move, Space picks, Enter opens on Pack,
 * PgDn/PgUp page, Alt+B prints the picked orders (or every matching one) as a batch.
 */
export function StationOrders(props: { onSiteScope: (() => void) | null }) {
  const s = useStation();
  const page = s.ordersPage;
  const q = s.ordersQuery;
  const searchRef = useRef<HTMLInputElement>(null);
  const [imported, setImported] = useState<string | null>(null);
  const [importReport, setImportReport] = useState<ImportReport | null>(null);
  // The file of the last import: imported again once its columns are mapped here.
  const [lastFile, setLastFile] = useState<File | null>(null);
  const [search, setSearch] = useState(q.search);

  useEffect(() => {
    void useStation.getState().loadOrders();
    void useStation.getState().loadBatches();
    searchRef.current?.focus();
  }, []);
  // Typing searches after a short pause, from the first page.
  useEffect(() => {
    if (search === useStation.getState().ordersQuery.search) return;
    const t = setTimeout(() => void useStation.getState().loadOrders({ search, offset: 0 }), 200);
    return () => clearTimeout(t);
  }, [search]);

  const list = page?.rows ?? [];
  const { rows, cursor, setCursor, focusRow, open, rowKey } = useOrderRows(list.length, searchRef);
  const toggleStatus = (id: OrderStatusName) =>
    void s.loadOrders({
      statuses: q.statuses.includes(id) ? q.statuses.filter((x) => x !== id) : [...q.statuses, id],
      offset: 0,
    });
  // A batch buys labels (up to 500): Alt+B or the button asks first, Enter confirms, Esc not.
  const [confirming, setConfirming] = useState(false);
  const { batchSize, labelledAmong, skippedWhy, toBuy, naming, looseWords } = batchQuestion(
    page,
    s.picked,
    q,
  );
  // A running batch is let finish; a paused one (an outage, the station closing) is stopped by
  // starting another, said in the question (its waiting orders stay open).
  const batchRunning = s.batch?.state === 'running';
  const pausedBatch = s.batch?.state === 'paused' ? s.batch : null;
  const startWords = batchStartWords(page, s.picked.length);
  const startBatch = () => {
    if (batchRunning)
      s.notify(
        'error',
        'A batch is under way: let it finish, or stop it, before starting another.',
      );
    else if (startWords.nothingWhy) s.notify('error', startWords.nothingWhy);
    // Said before the money question, not after it.
    else if (batchSize > MAX_BATCH_ORDERS)
      s.notify('error', tooManyWords(batchSize, s.picked.length > 0));
    else if (batchSize > 0 && toBuy === 0)
      s.notify(
        'error',
        'Every one of these orders already has a label or was cancelled: nothing to buy.',
      );
    else if (batchSize > 0) setConfirming(true);
  };
  const confirmBatch = async () => {
    setConfirming(false);
    if (pausedBatch) await s.controlBatch('stop');
    void s.startBatch(s.picked.length ? 'picked' : 'matching');
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && (e.key === 'b' || e.code === 'KeyB')) {
        e.preventDefault();
        startBatch();
      } else if (
        // Focus fell to the page (the button pressed went away: a cancel done, a batch finished
        // or stopped, its question closed): the list's keys bring it back to the row in hand.
        (!document.activeElement || document.activeElement === document.body) &&
        ['ArrowDown', 'ArrowUp', ' ', 'Enter'].includes(e.key)
      ) {
        e.preventDefault();
        if (list.length) focusRow(cursor);
        else searchRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const onRowKey = (e: React.KeyboardEvent, i: number) => {
    const row = list[i];
    if (!row || rowKey(e, i, row.orderNumber, row.id)) return;
    if (e.key === ' ') {
      e.preventDefault();
      s.togglePicked(row.id);
    } else if (e.key === 'PageDown' && page && q.offset + ORDER_PAGE < page.total) {
      e.preventDefault();
      void s.loadOrders({ offset: q.offset + ORDER_PAGE }).then(() => focusRow(0));
    } else if (e.key === 'PageUp' && q.offset > 0) {
      e.preventDefault();
      void s.loadOrders({ offset: Math.max(0, q.offset - ORDER_PAGE) }).then(() => focusRow(0));
    }
  };

  async function importFile(file: File) {
    setImported(`Importing ${file.name}…`);
    setImportReport(null);
    setLastFile(file);
    const r = await call('orders.import', {
      fileName: file.name,
      content: await readOrderFile(file),
    });
    if (r.ok) {
      // The whole report, as Settings shows it: every problem by row, not the first three.
      setImported(`${file.name}:`);
      setImportReport(r.value);
      await s.loadOrders({ offset: 0 });
    } else {
      setImportReport(null);
      // A message that names the file already ("… was already imported for this site …") is
      // not prefixed with its name a second time.
      const said = r.error.message.startsWith(file.name);
      setImported(said ? r.error.message : `${file.name}: ${r.error.message}`);
    }
  }

  const all = page ? statuses.reduce((n, x) => n + page.counts[x.id], 0) : 0;
  const matching = page?.total ?? 0;
  return (
    <section className="orders">
      <div className="orders-list">
        <div className="filters">
          {props.onSiteScope ? (
            <ScopeSelect label="Orders scope" value="station" onChange={props.onSiteScope} />
          ) : null}
          <input
            ref={searchRef}
            aria-label="Search orders"
            placeholder="Order, name, city or ZIP"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' && list.length) {
                e.preventDefault();
                focusRow(0);
              }
            }}
          />
          <button
            className={q.statuses.length === 0 ? 'chip on' : 'chip'}
            aria-pressed={q.statuses.length === 0}
            onClick={() => void s.loadOrders({ statuses: [], offset: 0 })}
          >
            All <b>{all}</b>
          </button>
          {statuses.map((x) => (
            <button
              key={x.id}
              className={`chip status-${x.id} ${q.statuses.includes(x.id) ? 'on' : ''}`}
              aria-pressed={q.statuses.includes(x.id)}
              data-testid={`count-${x.id}`}
              onClick={() => toggleStatus(x.id)}
            >
              {x.label} <b>{page?.counts[x.id] ?? 0}</b>
            </button>
          ))}
          <label className="check">
            <input
              type="checkbox"
              checked={q.singleItem}
              onChange={(e) => void s.loadOrders({ singleItem: e.target.checked, offset: 0 })}
            />
            Single item
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={q.weightKnown}
              onChange={(e) => void s.loadOrders({ weightKnown: e.target.checked, offset: 0 })}
            />
            Weight known
          </label>
        </div>
        {imported ? (
          <p className="import-line" data-testid="orders-import">
            {imported}
          </p>
        ) : null}
        {importReport ? (
          <ImportReportPanel
            report={importReport}
            mapsHere={Boolean(importReport.unmappedHeader?.length && lastFile)}
          />
        ) : null}
        {importReport?.unmappedHeader?.length && lastFile ? (
          <ColumnMapping
            key={lastFile.name}
            fileName={lastFile.name}
            header={importReport.unmappedHeader}
            suggested={importReport.suggestedColumns ?? {}}
            onSaved={() => void importFile(lastFile)}
          />
        ) : null}
        <div className="orders-pager" data-testid="orders-pager">
          <b>
            {matching === 0
              ? 'No orders'
              : matching === 1
                ? '1 order'
                : `${(q.offset + 1).toLocaleString()}–${Math.min(q.offset + ORDER_PAGE, matching).toLocaleString()} of ${matching.toLocaleString()} orders`}
          </b>
          <button
            disabled={q.offset === 0}
            onClick={() => void s.loadOrders({ offset: Math.max(0, q.offset - ORDER_PAGE) })}
          >
            Newer
          </button>
          <button
            disabled={q.offset + ORDER_PAGE >= matching}
            onClick={() => void s.loadOrders({ offset: q.offset + ORDER_PAGE })}
          >
            Older
          </button>
          <span className="muted keys">
            <kbd>↓</kbd> rows · <kbd>Space</kbd> pick · <kbd>Enter</kbd> open on Pack ·{' '}
            <kbd>Alt+B</kbd> batch
          </span>
        </div>
        <div className="orders-rows">
          <table className="grid selectable orders-table" data-testid="orders-table">
            <thead>
              <tr>
                <th aria-label="Picked" />
                <th>Order</th>
                <th>Brand</th>
                <th>Ship to</th>
                <th>Place</th>
                <th className="num">Pkgs</th>
                <th className="num">Units</th>
                <th>Weight</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {list.map((o, i) => (
                <tr
                  key={o.id}
                  ref={(el) => {
                    rows.current[i] = el;
                  }}
                  tabIndex={i === cursor ? 0 : -1}
                  className={`${i === cursor ? 'selected' : ''} ${s.picked.includes(o.id) ? 'picked' : ''}`}
                  aria-selected={s.picked.includes(o.id)}
                  data-testid="order-row"
                  onKeyDown={(e) => onRowKey(e, i)}
                  onClick={() => {
                    setCursor(i);
                    s.togglePicked(o.id);
                  }}
                  onDoubleClick={() => void open(o.orderNumber, o.id)}
                >
                  <td>{s.picked.includes(o.id) ? '✔' : ''}</td>
                  <td className="order-number">{o.orderNumber}</td>
                  <td>
                    <span className="clip brand" title={o.brandName ?? undefined}>
                      {o.brandName ?? ''}
                    </span>
                  </td>
                  <td>
                    <span className="clip" title={o.shipToName}>
                      {o.shipToName}
                    </span>
                  </td>
                  <td>
                    <span className="clip" title={o.place}>
                      {o.place}
                    </span>
                  </td>
                  <td className="num">{o.packages}</td>
                  <td className="num">{o.units}</td>
                  <td>{o.weightKnown ? 'known' : <span className="warn">to weigh</span>}</td>
                  <td>
                    <span className={`status status-${o.status}`}>{o.status}</span>
                    {o.reason ? (
                      <span className="order-reason" title={o.reason} data-testid="order-reason">
                        {o.reason}
                      </span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <aside className="orders-side">
        <div className="panel import-panel">
          <h2>Import orders</h2>
          <label className="file import-here">
            Import file…
            <input
              type="file"
              aria-label="Import orders file here"
              accept=".csv,.json,.tsv,.txt"
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) void importFile(f);
                e.target.value = '';
              }}
            />
          </label>
        </div>
        <div className="panel batch-start">
          <h2>Batch printing</h2>
          <p data-testid="batch-start-said">{startWords.said}</p>
          <button
            className="primary"
            disabled={startWords.nothingWhy !== null || batchRunning}
            title={batchRunning ? 'A batch is under way' : (startWords.nothingWhy ?? undefined)}
            onClick={startBatch}
          >
            {startWords.button} <kbd>Alt+B</kbd>
          </button>
          {s.picked.length ? <button onClick={() => s.clearPicked()}>Clear picks</button> : null}
          {/* Asked while the list was loading (Alt+B at once after an import), over the limit. */}
          {confirming && batchSize > MAX_BATCH_ORDERS ? (
            <TooMany
              words={tooManyWords(batchSize, s.picked.length > 0)}
              onClose={() => setConfirming(false)}
            />
          ) : null}
          {confirming && batchSize <= MAX_BATCH_ORDERS ? (
            <ConfirmPanel
              label="Confirm the batch"
              question={
                (labelledAmong > 0
                  ? `Buy and print labels for the ${toBuy.toLocaleString()} order${toBuy === 1 ? '' : 's'} without one${naming}? Each label is charged; the ${labelledAmong.toLocaleString()} that ${skippedWhy} ${labelledAmong === 1 ? 'is' : 'are'} skipped.`
                  : `Buy and print labels for ${toBuy.toLocaleString()} order${toBuy === 1 ? '' : 's'}${naming}? Each one is charged${s.picked.length ? '; an order that already has a label is skipped' : ''}.`) +
                looseWords +
                (pausedBatch
                  ? ` The paused batch (${pausedBatch.waiting} waiting) is stopped; its waiting orders stay open.`
                  : '')
              }
              confirmText={`Buy ${toBuy.toLocaleString()} label${toBuy === 1 ? '' : 's'}`}
              onConfirm={() => void confirmBatch()}
              onCancel={() => setConfirming(false)}
            />
          ) : null}
        </div>
        {s.batch ? <BatchPanel batch={s.batch} /> : null}
        <CancelOrders
          rows={list}
          cursorRow={list[cursor] ?? null}
          onReopened={(numbers) => setImportReport((report) => withoutReopened(report, numbers))}
        />
      </aside>
    </section>
  );
}
