import { useEffect, useRef, useState } from 'react';
import { call } from '../../bridge';
import { when } from '../../lib/when';
import { useStation } from '../../store';
import { reprintHeld, reprintSaid } from '../../store/lists';
import type { SiteLabelPage, SiteLabelView } from '../../../../shared/views';
import { BrandSelect } from '../../components/BrandSelect';
import { ScopeSelect } from '../../components/ScopeSelect';
import { LabelTable, type LabelColumn } from '../../components/LabelTable';
import { moveInList } from '../../components/list-keys';
import { ReprintForm } from '../../components/ReprintForm';
import { VoidedNote } from '../VoidMark';
import { SiteReprintAudit } from './SiteReprintAudit';
import './site-history.css';
import { serviceWords } from '../../../../shared/service-words';

const stationOf = (l: SiteLabelView) => (l.here ? `${l.stationName} (here)` : l.stationName);

// Each cell on one line (site-history.css): the ones that may shorten carry their whole text.
const siteColumns: LabelColumn<SiteLabelView>[] = [
  {
    head: 'Created',
    cell: (l) => when(l.createdAt),
    title: (l) => when(l.createdAt),
  },
  { head: 'Order', cell: (l) => l.orderNumber, title: (l) => l.orderNumber },
  {
    head: 'Tracking',
    className: 'mono',
    cell: (l) => (l.voided ? `${l.trackingNumber} (voided)` : l.trackingNumber),
    title: (l) => (l.voided ? `Voided at the carrier: ${l.voided.reason}` : l.trackingNumber),
  },
  {
    head: 'Carrier',
    cell: (l) => `${l.carrier} ${l.serviceLevel}`,
    title: (l) => `${l.carrier} ${l.serviceLevel}`,
  },
  { head: 'Station', cell: stationOf, title: stationOf },
  { head: 'Packer', cell: (l) => l.packer ?? '', title: (l) => l.packer ?? '' },
  {
    head: 'Brand',
    cell: (l) => l.brandName ?? l.tenantId,
    title: (l) => l.brandName ?? l.tenantId,
  },
  { head: 'Reprints', num: true, cell: (l) => l.reprints },
];

const sameLabel = (a: SiteLabelView, b: SiteLabelView) =>
  a.stationId === b.stationId && a.labelId === b.labelId;

/**
 * History across the whole site (issue 12): labels of every station, by order, tracking number,
 * brand, date, station and packer; any of them reprints on this station's printer. When the site
 * store does not answer, the station's own labels are shown and the page says so. The keyboard
 * moves as in this station's History: ↓ from the search box into the rows, ↑/↓ move, and the
 * first row of each result is selected, so the pane is never empty while there is a label.
 */
export function SiteHistory(props: { onStationScope(): void }) {
  const notify = useStation((s) => s.notify);
  const brands = useStation((s) => s.status?.profile?.brands ?? []);
  const printers = useStation((s) => s.status?.profile?.printers ?? []);
  const defaultPrinter = useStation((s) => s.status?.profile?.defaultPrinterId ?? null);
  const [query, setQuery] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [tenantId, setTenantId] = useState('');
  const [station, setStation] = useState('');
  const [packer, setPacker] = useState('');
  const [page, setPage] = useState<SiteLabelPage | null>(null);
  const [selected, setSelected] = useState<SiteLabelView | null>(null);
  // Reprints made here: the label's reprint list is read again after each.
  const [reprinted, setReprinted] = useState(0);
  const searchRef = useRef<HTMLInputElement>(null);
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  // ↓ typed before its search: the first row takes the focus once the result is on screen (a
  // frame later can still be the rows of the search before).
  const focusFirst = useRef(false);
  // The filters the list on screen answers: ↓ after typing searches first, as History's does.
  const filters = JSON.stringify([query.trim(), from, to, tenantId, station.trim(), packer.trim()]);
  const [searched, setSearched] = useState<string | null>(null);
  const [sitePrinters, setSitePrinters] = useState<{ id: string; name: string }[]>([]);

  /** The page for the filters on screen; null when the store refused it (said in a toast). */
  async function search(keep = false): Promise<SiteLabelPage | null> {
    const r = await call('site.labels', {
      ...(query.trim() ? { query: query.trim() } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(tenantId ? { tenantId } : {}),
      ...(station.trim() ? { stationId: station.trim() } : {}),
      ...(packer.trim() ? { packer: packer.trim() } : {}),
      scope: 'site',
    });
    if (!r.ok) {
      notify('error', r.error.message);
      return null;
    }
    show(r.value, filters, keep);
    return r.value;
  }
  /** A result on screen with its first row selected; after a reprint the same label stays. */
  function show(result: SiteLabelPage, key: string, keep = false) {
    setPage(result);
    setSearched(key);
    setSelected((was) => {
      const kept = keep && was ? result.labels.find((l) => sameLabel(l, was)) : undefined;
      return kept ?? result.labels[0] ?? null;
    });
  }
  function select(i: number, focus = true) {
    const l = labels[i];
    if (!l) return;
    setSelected(l);
    if (focus) rows.current[i]?.focus();
  }
  const onRowKey = (e: React.KeyboardEvent, i: number) =>
    moveInList(e, i, labels.length, select, () => searchRef.current?.focus());
  useEffect(() => {
    let live = true;
    const key = filters;
    void call('site.labels', { scope: 'site' }).then((r) => {
      if (live && r.ok) show(r.value, key);
    });
    // Other stations' network printers: a reprint may go to the printer where the box is.
    void call('site.status', {}).then((r) => {
      if (live && r.ok) setSitePrinters(r.value.sitePrinters);
    });
    searchRef.current?.focus();
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the view opens
  }, []);

  useEffect(() => {
    if (!focusFirst.current) return;
    focusFirst.current = false;
    rows.current[0]?.focus();
  }, [page]);

  async function reprint(reason: string, printerId: string | null) {
    if (!selected) return false;
    const r = await call('site.reprint', {
      stationId: selected.stationId,
      labelId: selected.labelId,
      reason,
      ...(printerId ? { printerId } : {}),
    });
    if (!r.ok) {
      notify('error', r.error.message);
      return false;
    }
    // Said as this station's History says it: "queued for …" when the printer did not take it.
    const printer = useStation.getState().status?.printer ?? null;
    const where = reprintSaid(r.value, printer).replace(/^Reprint/, '');
    notify(
      reprintHeld(r.value, printer) ? 'error' : 'ok',
      `Reprint of ${selected.orderNumber}${where}`,
    );
    return true;
  }

  const labels = page?.labels ?? [];
  const selectedIndex = selected ? labels.findIndex((l) => sameLabel(l, selected)) : -1;
  return (
    <section className="history site-history">
      <div className="history-list">
        <form
          className="filters"
          onSubmit={(e) => {
            e.preventDefault();
            void search();
          }}
        >
          <ScopeSelect label="History scope" value="site" onChange={props.onStationScope} />
          <input
            ref={searchRef}
            aria-label="Search labels"
            placeholder="Order or tracking number"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== 'ArrowDown') return;
              e.preventDefault();
              // The rows answer what is in the box: typed but not searched yet, searched first.
              if (searched === filters) return select(0);
              focusFirst.current = true;
              void search().then((p) => {
                if (!p) focusFirst.current = false;
              });
            }}
          />
          <label>
            From <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
          </label>
          <label>
            To <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
          </label>
          <BrandSelect brands={brands} value={tenantId} onChange={setTenantId} />
          <input
            aria-label="Station"
            placeholder="Station (name or id)"
            size={10}
            value={station}
            onChange={(e) => setStation(e.target.value)}
          />
          <input
            aria-label="Packer"
            placeholder="Packer"
            size={10}
            value={packer}
            onChange={(e) => setPacker(e.target.value)}
          />
          <button type="submit">Search</button>
        </form>
        {page?.note ? (
          <p className="banner" role="status" data-testid="site-history-note">
            {page.note}
          </p>
        ) : null}
        <div className="history-rows">
          <LabelTable
            className="grid selectable site-history-table"
            testId="site-history-table"
            rowTestId="site-history-row"
            labels={labels}
            columns={siteColumns}
            keyOf={(l) => `${l.stationId}:${l.labelId}`}
            isSelected={(l) => (selected ? sameLabel(l, selected) : false)}
            onSelect={(i) => select(i)}
            onRowKey={onRowKey}
            tabIndexOf={(i) => (i === Math.max(0, selectedIndex) ? 0 : -1)}
            rowRef={(i, el) => {
              rows.current[i] = el;
            }}
          />
        </div>
        {page && labels.length === 0 ? (
          <p className="muted" data-testid="site-history-empty">
            No label of the site matches this search.
          </p>
        ) : null}
        {page?.more ? <p className="muted">More labels match: narrow the search.</p> : null}
      </div>
      <aside className="history-detail panel" data-testid="site-label-detail">
        {selected ? (
          <>
            <h2>{selected.trackingNumber}</h2>
            <p>
              Order {selected.orderNumber} · {serviceWords(selected.carrier, selected.serviceLevel)}{' '}
              · {selected.voided ? 'voided ' : ''}
              {selected.cost.toFixed(2)} {selected.currency}
            </p>
            <p className="muted">
              Bought at {selected.stationName}
              {selected.packer ? ` by ${selected.packer}` : ''}, {when(selected.createdAt)} ·{' '}
              {selected.brandName ?? selected.tenantId}
            </p>
            <VoidedNote label={selected} at={selected.stationName} />
            {selected.voided ? null : (
              <ReprintForm
                labelId={selected.labelId}
                autoFocus={false}
                submitText="Reprint here"
                printers={{ options: [...printers, ...sitePrinters], selected: defaultPrinter }}
                send={(reason, _index, printerId) => reprint(reason, printerId)}
                onDone={() => {
                  setReprinted((n) => n + 1);
                  void search(true);
                }}
                // The form stays beside the selected label: Escape does not close it here.
                onCancel={() => undefined}
              />
            )}
            <SiteReprintAudit
              key={`${selected.stationId}:${selected.labelId}:${reprinted}`}
              stationId={selected.stationId}
              labelId={selected.labelId}
            />
          </>
        ) : (
          <p className="placeholder">Select a label of any station to reprint it here.</p>
        )}
      </aside>
    </section>
  );
}
