import { useEffect, useRef, useState } from 'react';
import { useStation } from '../store';
import { HISTORY_PAGE, historySearchKey } from '../store/lists';
import { LabelPreview } from '../components/LabelPreview';
import { moveInList } from '../components/list-keys';
import { ReprintForm } from '../components/ReprintForm';
import { ReturnLabelForm } from '../components/ReturnLabelForm';
import { BrandSelect } from '../components/BrandSelect';
import { LabelTable, type LabelColumn } from '../components/LabelTable';
import type { LabelSummary } from '../../../shared/views';
import './history.css';
import { SiteHistory } from './site/SiteHistory';
import { when } from '../lib/when';
import { VoidedNote, VoidMark } from './VoidMark';
import { serviceWords } from '../../../shared/service-words';

const capitalized = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

/** Why a label has not come out of this station's printer, for History's row and pane. */
function notPrintedWords(n: NonNullable<LabelSummary['notPrinted']>): string {
  const at = when(n.at);
  if (n.state === 'waiting')
    return `not printed yet: waiting for its printer since ${at} (Queue, Alt+3)`;
  if (n.state === 'failed')
    return `not printed: its print job failed, ${at} (Needs attention, Alt+2)`;
  return `never printed: its print job was ${n.note ?? 'cancelled'}, ${at}. Reprint it (R) if the parcel still needs its label`;
}

const columns: LabelColumn<LabelSummary>[] = [
  {
    head: 'Created',
    col: 'c-created',
    cell: (l) => when(l.createdAt),
    title: (l) => when(l.createdAt),
  },
  {
    head: 'Order',
    col: 'c-order',
    // A return label is marked ↩; an original with a return label gets a ↩ after it.
    cell: (l) =>
      (l.returnOfLabelId
        ? `↩ ${l.orderNumber}`
        : `${l.orderNumber}${l.returnTrackingNumbers?.length ? ' ↩' : ''}`) +
      // Marked when it did not print; a label still on its way to the printer is said in the pane.
      (l.notPrinted && l.notPrinted.state !== 'waiting' ? ' ⚠' : ''),
    title: (l) =>
      (l.returnOfLabelId
        ? `${l.orderNumber}: return label`
        : l.returnTrackingNumbers?.length
          ? `${l.orderNumber}: return label ${l.returnTrackingNumbers.join(', ')}`
          : l.orderNumber) + (l.notPrinted ? `: ${notPrintedWords(l.notPrinted)}` : ''),
  },
  {
    head: 'Tracking',
    col: 'c-tracking',
    className: 'mono',
    cell: (l) =>
      l.trackingNumber +
      (l.packageTrackingNumbers.length > 1 ? ` +${l.packageTrackingNumbers.length - 1}` : ''),
    title: (l) => l.packageTrackingNumbers.join(', '),
  },
  { head: 'Carrier', col: 'c-carrier', cell: (l) => l.carrier, title: (l) => l.carrier },
  { head: 'Service', col: 'c-service', cell: (l) => l.serviceLevel, title: (l) => l.serviceLevel },
  {
    head: 'Cost',
    col: 'c-cost',
    num: true,
    // Voided at the carrier: not counted at End of day (the pane says who and why).
    cell: (l) => (l.voided ? `voided ${l.cost.toFixed(2)}` : l.cost.toFixed(2)),
    title: (l) => (l.voided ? `Voided at the carrier: ${l.voided.reason}` : ''),
  },
  {
    head: 'Brand',
    col: 'c-brand',
    cell: (l) => l.brandName ?? l.tenantId ?? '',
    title: (l) => l.brandName ?? l.tenantId ?? '',
  },
  {
    head: 'Reprints',
    col: 'c-reprints',
    num: true,
    cell: (l) => l.reprints,
    testId: 'reprint-count',
  },
];

/**
 * The label cache for a shift lead, by keyboard: ↓ from the search box into the rows, ↑/↓ move
 * (the preview follows), PageDown/PageUp turn pages, R reprints the selected label.
 */
export function HistoryView() {
  const s = useStation();
  const searchRef = useRef<HTMLInputElement>(null);
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  const [reprinting, setReprinting] = useState(false);
  const [returning, setReturning] = useState(false);
  useEffect(() => {
    void useStation
      .getState()
      .searchLabels()
      .then(() => selectFirst());
    searchRef.current?.focus();
  }, []);
  const brands = s.status?.profile?.brands ?? [];
  const sel = s.selectedLabel;
  const { labels, total, offset } = s.history;
  // The row of the selected label: it carries the return links (labels.get does not).
  const row = labels.find((l) => l.id === sel?.id) ?? null;

  // The preview pane always shows something when there is something to show.
  function selectFirst() {
    const st = useStation.getState();
    const first = st.history.labels[0];
    if (first && !st.history.labels.some((l) => l.id === st.selectedLabel?.id))
      void st.selectLabel(first.id);
  }
  function select(i: number, focus = true) {
    const l = labels[i];
    if (!l) return;
    setReprinting(false);
    setReturning(false);
    void s.selectLabel(l.id);
    if (focus) rows.current[i]?.focus();
  }
  async function page(to: number) {
    if (to < 0 || to >= total) return;
    await s.searchLabels(to);
    const st = useStation.getState();
    const first = st.history.labels[0];
    if (first) {
      void st.selectLabel(first.id);
      requestAnimationFrame(() => rows.current[0]?.focus());
    }
  }
  const onRowKey = (e: React.KeyboardEvent, i: number) => {
    if (moveInList(e, i, labels.length, select, () => searchRef.current?.focus())) return;
    if ((e.key === 'r' || e.key === 'R') && !e.ctrlKey && !e.altKey) {
      e.preventDefault();
      if (sel?.id !== labels[i]?.id) select(i, false);
      const voided = labels[i]?.voided;
      if (voided)
        s.notify('error', `${labels[i]!.trackingNumber} was voided at the carrier: not reprinted.`);
      else setReprinting(true);
    } else if ((e.key === 't' || e.key === 'T') && !e.ctrlKey && !e.altKey) {
      e.preventDefault();
      if (sel?.id !== labels[i]?.id) select(i, false);
      setReprinting(false);
      // A return label has no return label of its own (and a voided one ships nothing): said at
      // once, not after a question about money.
      const l = labels[i];
      if (l?.returnOfLabelId)
        s.notify(
          'error',
          `${l.trackingNumber} is a return label of order ${l.orderNumber}: a return label is bought for the order's own label.`,
        );
      else if (l?.voided)
        s.notify('error', `${l.trackingNumber} was voided at the carrier: no return label for it.`);
      else setReturning(true);
    } else if (e.key === 'PageDown') {
      e.preventDefault();
      void page(offset + HISTORY_PAGE);
    } else if (e.key === 'PageUp') {
      e.preventDefault();
      void page(Math.max(0, offset - HISTORY_PAGE));
    }
  };

  // With a site store, History searches the whole site unless the shift lead narrows it.
  const [scope, setScope] = useState<'site' | 'station'>('site');
  const hasSite = Boolean(s.status?.site);
  if (hasSite && scope === 'site')
    return <SiteHistory onStationScope={() => setScope('station')} />;
  return (
    <section className="history">
      <div className="history-list">
        <form
          className="filters"
          onSubmit={(e) => {
            e.preventDefault();
            void s.searchLabels().then(() => selectFirst());
          }}
        >
          <input
            ref={searchRef}
            aria-label="Search labels"
            placeholder="Order or tracking number"
            value={s.history.query}
            onChange={(e) => s.setHistoryQuery({ query: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') {
                e.preventDefault();
                // The list answers what is in the box: its first row at once. Typed but not
                // searched yet (no Enter): searched first, then its first match, never a label
                // selected before, out of sight of the search.
                if (s.history.searched === historySearchKey(s.history)) {
                  if (labels.length) select(0);
                  return;
                }
                void s.searchLabels().then(() => {
                  const first = useStation.getState().history.labels[0];
                  if (!first) return;
                  setReprinting(false);
                  setReturning(false);
                  void useStation.getState().selectLabel(first.id);
                  requestAnimationFrame(() => rows.current[0]?.focus());
                });
              }
            }}
          />
          <label>
            From{' '}
            <input
              type="date"
              value={s.history.from}
              onChange={(e) => {
                s.setHistoryQuery({ from: e.target.value });
                void s.searchLabels();
              }}
            />
          </label>
          <label>
            To{' '}
            <input
              type="date"
              value={s.history.to}
              onChange={(e) => {
                s.setHistoryQuery({ to: e.target.value });
                void s.searchLabels();
              }}
            />
          </label>
          <BrandSelect
            brands={brands}
            value={s.history.tenantId}
            onChange={(tenantId) => {
              s.setHistoryQuery({ tenantId });
              void s.searchLabels();
            }}
          />
          <button type="submit">Search</button>
          {hasSite ? (
            <button type="button" onClick={() => setScope('site')}>
              Whole site
            </button>
          ) : null}
          <span className="muted">
            {s.history.total} {s.history.total === 1 ? 'label' : 'labels'}
          </span>
        </form>
        <div className="history-pager" data-testid="history-pager">
          <span>
            {total === 0
              ? (s.history.note ?? 'No labels')
              : `${offset + 1}–${offset + labels.length} of ${total} ${total === 1 ? 'label' : 'labels'}${s.history.note ? ` (${s.history.note})` : ''}`}
          </span>
          <button
            type="button"
            onClick={() => void page(Math.max(0, offset - HISTORY_PAGE))}
            disabled={offset === 0}
          >
            ‹ Newer <kbd>PgUp</kbd>
          </button>
          <button
            type="button"
            onClick={() => void page(offset + HISTORY_PAGE)}
            disabled={offset + labels.length >= total}
          >
            Older › <kbd>PgDn</kbd>
          </button>
          <span className="muted keys">
            <kbd>↓</kbd> from search · <kbd>↑</kbd>
            <kbd>↓</kbd> move · <kbd>R</kbd> reprint · <kbd>T</kbd> return label
          </span>
        </div>
        <div className="history-rows">
          <LabelTable
            className="grid selectable history-table"
            testId="history-table"
            rowTestId="history-row"
            labels={labels}
            columns={columns}
            keyOf={(l) => l.id}
            isSelected={(l) => sel?.id === l.id}
            onSelect={(i) => select(i)}
            onRowKey={onRowKey}
            tabIndexOf={(i) => (sel?.id === labels[i]?.id || (!sel && i === 0) ? 0 : -1)}
            rowRef={(i, el) => {
              rows.current[i] = el;
            }}
          />
        </div>
      </div>
      <aside className="history-detail panel" data-testid="label-detail">
        {sel ? (
          <>
            <h2 className="mono">{sel.trackingNumber}</h2>
            <p>
              Order {sel.orderNumber} · {serviceWords(sel.carrier, sel.serviceLevel)} ·{' '}
              {sel.cost.toFixed(2)} {sel.currency} · {sel.reprints} reprint
              {sel.reprints === 1 ? '' : 's'}
            </p>
            {sel.notPrinted ? (
              <p className="not-printed" data-testid="not-printed">
                ⚠ {capitalized(notPrintedWords(sel.notPrinted))}.
              </p>
            ) : null}
            {sel.packageTrackingNumbers.length > 1 ? (
              <ol className="detail-packages" aria-label="Tracking numbers">
                {sel.packageTrackingNumbers.map((t, i) => (
                  <li key={t} className="mono">
                    Package {i + 1}: {t}
                  </li>
                ))}
              </ol>
            ) : null}
            {row ? <VoidedNote label={row} /> : null}
            <LabelPreview labelId={sel.id} zoomKey />
            {reprinting ? (
              <ReprintForm
                labelId={sel.id}
                packages={sel.packageTrackingNumbers}
                onDone={() => {
                  setReprinting(false);
                  const i = labels.findIndex((l) => l.id === sel.id);
                  requestAnimationFrame(() => rows.current[i]?.focus());
                }}
              />
            ) : returning && row ? (
              <ReturnLabelForm
                label={row}
                onDone={(bought) => {
                  setReturning(false);
                  const i = labels.findIndex((l) => l.id === sel.id);
                  const back = () => requestAnimationFrame(() => rows.current[i]?.focus());
                  if (bought) void s.searchLabels(offset).then(back);
                  else back();
                }}
              />
            ) : row?.voided ? null : (
              <div className="detail-actions">
                <button onClick={() => setReprinting(true)}>
                  Reprint… <kbd>R</kbd>
                </button>
                {row && !row.returnOfLabelId ? (
                  <button onClick={() => setReturning(true)}>
                    Return label… <kbd>T</kbd>
                  </button>
                ) : null}
              </div>
            )}
            {row && !reprinting && !returning ? (
              <VoidMark label={row} onDone={() => void s.searchLabels(offset)} />
            ) : null}
            {row?.returnOfLabelId ? (
              <p className="return-note" data-testid="return-note">
                ↩ Return label of order {row.orderNumber}
              </p>
            ) : row?.returnTrackingNumbers?.length ? (
              <p className="return-note" data-testid="return-note">
                ↩ Return label: <span className="mono">{row.returnTrackingNumbers.join(', ')}</span>
              </p>
            ) : null}
            {s.reprintWarnings?.labelId === sel.id && s.reprintWarnings.warnings.length ? (
              <ul className="print-warnings" data-testid="print-warnings">
                {s.reprintWarnings.warnings.map((w, i) => (
                  <li key={i}>⚠ {w}</li>
                ))}
              </ul>
            ) : null}
            <h3>Reprint audit</h3>
            {/* One line each: the detail pane is narrow (a table wrapped the reason a word a
                line at 1366 px). */}
            <ul className="reprint-audit" data-testid="reprint-audit">
              {s.audit.map((a) => (
                <li key={a.id}>
                  <span className="muted">{when(a.at)}</span> · {a.user}
                  {a.stationName ? ` at ${a.stationName}` : ''}: {a.reason}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="placeholder">
            Select a label (↓ from the search box, Enter) to preview and reprint it.
          </p>
        )}
      </aside>
    </section>
  );
}
