import { useEffect, useRef, useState } from 'react';
import { call } from '../../bridge';
import { when } from '../../lib/when';
import { useStation } from '../../store';
import type { SiteLabelPage, SiteLabelView } from '../../../../shared/views';
import { BrandSelect } from '../../components/BrandSelect';
import { ScopeSelect } from '../../components/ScopeSelect';
import { LabelTable, type LabelColumn } from '../../components/LabelTable';
import { ReprintForm } from '../../components/ReprintForm';
import { VoidedNote } from '../VoidMark';
import { SiteReprintAudit } from './SiteReprintAudit';
import './site-history.css';

const siteColumns: LabelColumn<SiteLabelView>[] = [
  { head: 'Created', cell: (l) => when(l.createdAt) },
  { head: 'Order', cell: (l) => l.orderNumber },
  {
    head: 'Tracking',
    cell: (l) => (l.voided ? `${l.trackingNumber} (voided)` : l.trackingNumber),
    title: (l) => (l.voided ? `Voided at the carrier: ${l.voided.reason}` : ''),
  },
  { head: 'Carrier', cell: (l) => `${l.carrier} ${l.serviceLevel}` },
  { head: 'Station', cell: (l) => (l.here ? `${l.stationName} (here)` : l.stationName) },
  { head: 'Packer', cell: (l) => l.packer ?? '' },
  { head: 'Brand', cell: (l) => l.brandName ?? l.tenantId },
  { head: 'Reprints', num: true, cell: (l) => l.reprints },
];

/**
 * History across the whole site (issue 12): labels of every station, by order, tracking number,
 * brand, date, station and packer; any of them reprints on this station's printer. When the site
 * store does not answer, the station's own labels are shown and the page says so.
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
  const [sitePrinters, setSitePrinters] = useState<{ id: string; name: string }[]>([]);

  async function search(keep = false) {
    const r = await call('site.labels', {
      ...(query.trim() ? { query: query.trim() } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(tenantId ? { tenantId } : {}),
      ...(station.trim() ? { stationId: station.trim() } : {}),
      ...(packer.trim() ? { packer: packer.trim() } : {}),
      scope: 'site',
    });
    if (!r.ok) return notify('error', r.error.message);
    setPage(r.value);
    // After a reprint the same label stays selected, with its new count and audit.
    setSelected((was) =>
      keep && was
        ? (r.value.labels.find((l) => l.stationId === was.stationId && l.labelId === was.labelId) ??
          null)
        : null,
    );
  }
  useEffect(() => {
    let live = true;
    void call('site.labels', { scope: 'site' }).then((r) => {
      if (live && r.ok) setPage(r.value);
    });
    // Other stations' network printers: a reprint may go to the printer where the box is.
    void call('site.status', {}).then((r) => {
      if (live && r.ok) setSitePrinters(r.value.sitePrinters);
    });
    searchRef.current?.focus();
    return () => {
      live = false;
    };
  }, []);

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
    notify('ok', `Reprint of ${selected.orderNumber} sent to ${r.value.printerName}.`);
    return true;
  }

  const labels = page?.labels ?? [];
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
        <LabelTable
          className="grid selectable"
          testId="site-history-table"
          labels={labels}
          columns={siteColumns}
          keyOf={(l) => `${l.stationId}:${l.labelId}`}
          isSelected={(l) => selected?.stationId === l.stationId && selected.labelId === l.labelId}
          onSelect={(i) => setSelected(labels[i] ?? null)}
        />
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
              Order {selected.orderNumber} · {selected.carrier} {selected.serviceLevel} ·{' '}
              {selected.voided ? 'voided ' : ''}
              {selected.cost.toFixed(2)} {selected.currency}
            </p>
            <p className="muted">
              Bought at {selected.stationName}
              {selected.packer ? ` by ${selected.packer}` : ''}, {when(selected.createdAt)}
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
