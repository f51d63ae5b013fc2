import { useEffect, useRef, useState } from 'react';
import { call } from '../../bridge';
import { useStation } from '../../store';
import type { SiteLabelPage, SiteLabelView } from '../../../../shared/views';
import './site-history.css';

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
  const [reason, setReason] = useState('');
  const [printerId, setPrinterId] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);
  const [sitePrinters, setSitePrinters] = useState<{ id: string; name: string }[]>([]);

  async function search() {
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
    setSelected(null);
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

  async function reprint() {
    if (!selected || reason.trim().length < 3) return;
    const r = await call('site.reprint', {
      stationId: selected.stationId,
      labelId: selected.labelId,
      reason: reason.trim(),
      ...(printerId ? { printerId } : {}),
    });
    if (!r.ok) return notify('error', r.error.message);
    notify('ok', `Reprint of ${selected.orderNumber} sent to ${r.value.printerName}.`);
    setReason('');
    await search();
  }

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
          <select
            aria-label="History scope"
            value="site"
            onChange={(e) => {
              if (e.target.value === 'station') props.onStationScope();
            }}
          >
            <option value="site">Whole site</option>
            <option value="station">This station</option>
          </select>
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
          {brands.length ? (
            <select
              aria-label="Brand"
              value={tenantId}
              onChange={(e) => setTenantId(e.target.value)}
            >
              <option value="">All brands</option>
              {brands.map((b) => (
                <option key={b.tenantId} value={b.tenantId}>
                  {b.name}
                </option>
              ))}
            </select>
          ) : null}
          <input
            aria-label="Station id"
            placeholder="Station id"
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
        <table className="grid selectable" data-testid="site-history-table">
          <thead>
            <tr>
              <th>Created</th>
              <th>Order</th>
              <th>Tracking</th>
              <th>Carrier</th>
              <th>Station</th>
              <th>Packer</th>
              <th>Brand</th>
              <th className="num">Reprints</th>
            </tr>
          </thead>
          <tbody>
            {(page?.labels ?? []).map((l) => (
              <tr
                key={`${l.stationId}:${l.labelId}`}
                tabIndex={0}
                className={
                  selected?.stationId === l.stationId && selected.labelId === l.labelId
                    ? 'selected'
                    : ''
                }
                onClick={() => setSelected(l)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') setSelected(l);
                }}
              >
                <td>{new Date(l.createdAt).toLocaleString()}</td>
                <td>{l.orderNumber}</td>
                <td>{l.trackingNumber}</td>
                <td>
                  {l.carrier} {l.serviceLevel}
                </td>
                <td>{l.here ? `${l.stationName} (here)` : l.stationName}</td>
                <td>{l.packer ?? ''}</td>
                <td>{l.brandName ?? l.tenantId}</td>
                <td className="num">{l.reprints}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {page?.more ? <p className="muted">More labels match: narrow the search.</p> : null}
      </div>
      <aside className="history-detail panel" data-testid="site-label-detail">
        {selected ? (
          <>
            <h2>{selected.trackingNumber}</h2>
            <p>
              Order {selected.orderNumber} · {selected.carrier} {selected.serviceLevel} ·{' '}
              {selected.cost.toFixed(2)} {selected.currency}
            </p>
            <p className="muted">
              Bought at {selected.stationName}
              {selected.packer ? ` by ${selected.packer}` : ''},{' '}
              {new Date(selected.createdAt).toLocaleString()}
            </p>
            <form
              className="reprint-form"
              onSubmit={(e) => {
                e.preventDefault();
                void reprint();
              }}
            >
              <select
                aria-label="Reprint on printer"
                value={printerId || defaultPrinter || ''}
                onChange={(e) => setPrinterId(e.target.value)}
              >
                {printers.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
                {sitePrinters.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
              <input
                aria-label="Reprint reason"
                placeholder="Why reprint? (damaged, jammed…) then Enter"
                value={reason}
                onChange={(e) => setReason(e.target.value)}
              />
              <button type="submit" disabled={reason.trim().length < 3}>
                Reprint here
              </button>
            </form>
          </>
        ) : (
          <p className="placeholder">Select a label of any station to reprint it here.</p>
        )}
      </aside>
    </section>
  );
}
