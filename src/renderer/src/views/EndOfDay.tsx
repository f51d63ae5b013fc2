import { useEffect, useRef, useState } from 'react';
import type { EndOfDayView, ManifestResultView } from '../../../shared/views';
import { call } from '../bridge';
import { ConfirmPanel } from '../components/ConfirmPanel';
import { ScopeSelect } from '../components/ScopeSelect';
import { useStation } from '../store';
import { offsetMinutes } from '../store/floor';
import './orders.css';

/** Today as the station's clock reads it (YYYY-MM-DD, local). */
function localDay(d = new Date()): string {
  const z = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${z(d.getMonth() + 1)}-${z(d.getDate())}`;
}

/** While the whole site's End of day is on screen, it is read again this often (other stations buy). */
const SITE_REFRESH_MS = 30_000;

/**
 * End of day (issue 15.9): what this station shipped per day and carrier (labels, packages,
 * cost, brands), or with a site store every station's (Whole site: each station's part too).
 * Alt+P prints it on the receipt printer; Alt+E saves it as CSV; Alt+M closes it out.
 */
export function EndOfDayView() {
  const s = useStation();
  const [from, setFrom] = useState(localDay());
  const [to, setTo] = useState(localDay());
  const hasSite = Boolean(s.status?.site);
  const [chosenScope, setScope] = useState<'station' | 'site'>('station');
  const scope = hasSite ? chosenScope : 'station';
  const [line, setLine] = useState<string | null>(null);
  const [manifest, setManifest] = useState<ManifestResultView | null>(null);
  /** Alt+M asks first: a close-out hands the days' labels to the carriers. */
  const [asking, setAsking] = useState(false);
  const [closing, setClosing] = useState(false);
  const fromRef = useRef<HTMLInputElement>(null);
  // The totals of this range and scope only: while another's are still on screen (the scope
  // just switched), nothing is counted from them, the close-out question included.
  const summary = s.endOfDayFor === `${from}|${to}|${scope}` ? s.endOfDay : null;

  useEffect(() => {
    fromRef.current?.focus();
  }, []);
  useEffect(() => {
    if (!from || !to) return;
    const load = () => void useStation.getState().loadEndOfDay(from, to, scope);
    load();
    if (scope !== 'site') return;
    const timer = setInterval(load, SITE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [from, to, scope]);

  async function print() {
    const r = await call('endOfDay.print', { from, to, utcOffsetMinutes: offsetMinutes(), scope });
    setLine(r.ok ? `Sent to ${r.value.printerName}.` : r.error.message);
    if (!r.ok) s.notify('error', r.error.message);
  }
  async function closeOut() {
    setAsking(false);
    setClosing(true);
    setManifest(null);
    try {
      const r = await call('endOfDay.manifest', {
        from,
        to,
        utcOffsetMinutes: offsetMinutes(),
        scope,
      });
      if (r.ok) setManifest(r.value);
      else s.notify('error', r.error.message);
      // Read again: the close-out question counts the labels now on a manifest.
      void useStation.getState().loadEndOfDay(from, to, scope);
    } finally {
      setClosing(false);
    }
  }
  /**
   * Alt+M and the button: a question first. Nothing is sent without one: with no outbound label
   * in the summary on screen (which may still be the last range's while the new one loads) it
   * says so and sends nothing.
   */
  function askCloseOut() {
    if (closing) return;
    setManifest(null);
    const already = summary ? nothingNewToClose(summary) : null;
    if (summary && summary.labels - summary.returns === 0)
      setLine('No outbound label on these days: nothing to close out.');
    // Every label is on a manifest already (or held back): no question, and no shift lead
    // fetched to approve a close-out that sends nothing.
    else if (already) setLine(already);
    else setAsking(true);
  }
  async function exportCsv() {
    const r = await call('endOfDay.csv', { from, to, utcOffsetMinutes: offsetMinutes(), scope });
    if (!r.ok) {
      s.notify('error', r.error.message);
      return;
    }
    const url = URL.createObjectURL(new Blob([r.value.csv], { type: 'text/csv' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = r.value.fileName;
    a.click();
    URL.revokeObjectURL(url);
    setLine(`Saved ${r.value.fileName}.`);
  }
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && (e.key === 'p' || e.code === 'KeyP')) {
        e.preventDefault();
        void print();
      } else if (e.altKey && (e.key === 'e' || e.code === 'KeyE')) {
        e.preventDefault();
        void exportCsv();
      } else if (e.altKey && (e.key === 'm' || e.code === 'KeyM')) {
        e.preventDefault();
        // A second Alt+M while asked is not a yes: Enter (or the button) is.
        if (!asking) askCloseOut();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <section className="end-of-day">
      <h1>End of day</h1>
      {hasSite && scope === 'station' ? (
        // This station's End of day is its own: said, so a shift lead does not take one
        // station's total (or manifests) for the site's.
        <p className="muted" data-testid="eod-this-station">
          This station&apos;s labels only: it closes out (Alt+M) its own. Whole site shows every
          station&apos;s labels and closes them out at once.
        </p>
      ) : null}
      {scope === 'site' ? (
        <p className="muted" data-testid="eod-whole-site">
          Every station&apos;s labels, from the site store (read again every 30 s). Alt+M closes out
          the whole site&apos;s labels with the carriers; labels a station closed out already stay
          on their manifest.
        </p>
      ) : null}
      <div className="filters">
        {hasSite ? (
          <ScopeSelect label="End of day scope" value={scope} onChange={setScope} />
        ) : null}
        <label>
          From{' '}
          <input
            ref={fromRef}
            type="date"
            aria-label="From day"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
          />
        </label>
        <label>
          To{' '}
          <input
            type="date"
            aria-label="To day"
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
        </label>
        <button onClick={() => void print()}>
          Print on receipt printer <kbd>Alt+P</kbd>
        </button>
        <button onClick={() => void exportCsv()}>
          Export CSV <kbd>Alt+E</kbd>
        </button>
        <button onClick={askCloseOut} disabled={closing}>
          {closing ? 'Closing out…' : 'Manifest (close out)'} <kbd>Alt+M</kbd>
        </button>
        {line ? (
          <span data-testid="eod-line" className="muted">
            {line}
          </span>
        ) : null}
      </div>
      {asking ? (
        <ConfirmPanel
          label="Close out with the carriers?"
          question={closeOutQuestion(
            from,
            to,
            summary ? summary.labels - summary.returns : null,
            summary?.onManifest ?? 0,
            scope,
            summary?.heldBack ?? 0,
          )}
          confirmText="Close out"
          onConfirm={() => void closeOut()}
          onCancel={() => {
            setAsking(false);
            fromRef.current?.focus();
          }}
        />
      ) : null}
      {manifest ? (
        <div className="panel" data-testid="eod-manifest">
          <b>{manifest.message}</b>
          {manifest.manifests.length ? (
            <ul>
              {manifest.manifests.map((m) => (
                <li key={`${m.brandName}-${m.carrier}`} className={m.manifestId ? '' : 'bad'}>
                  {m.carrier} · {m.brandName} · {m.labels} label{m.labels === 1 ? '' : 's'}:{' '}
                  {m.message}
                  {m.leftOut?.length ? (
                    <ul data-testid="eod-manifest-left-out">
                      {m.leftOut.map((l) => (
                        <li key={l.trackingNumber} className="bad">
                          Left out: {l.trackingNumber} (order {l.orderNumber}): {l.reason}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {!summary && s.endOfDayProblem ? (
        <p className="bad" data-testid="eod-problem">
          {s.endOfDayProblem}
        </p>
      ) : null}
      {summary ? (
        <>
          <p className="eod-total" data-testid="eod-total">
            <b>{summary.labels}</b> label{summary.labels === 1 ? '' : 's'} ·{' '}
            <b>${summary.cost.toFixed(2)}</b>
            {summary.returns ? (
              <span data-testid="eod-returns">
                {' '}
                (of which {summary.returns} return label{summary.returns === 1 ? '' : 's'}, $
                {summary.returnCost.toFixed(2)})
              </span>
            ) : null}
            {summary.voided ? (
              <span data-testid="eod-voided">
                {' '}
                · {summary.voided} voided at the carrier (${summary.voidedCost.toFixed(2)}, not
                counted; History has who and why)
              </span>
            ) : null}
            {summary.reprints ? (
              <span data-testid="eod-reprints">
                {' '}
                · {summary.reprints} reprint{summary.reprints === 1 ? '' : 's'} (History has who and
                why)
              </span>
            ) : null}
          </p>
          {summary.labels === 0 ? <p>Nothing shipped on these days.</p> : null}
          {summary.days.map((d) => (
            <div className="panel" key={d.day}>
              <h2>
                {d.day}: {d.labels} label{d.labels === 1 ? '' : 's'}, {d.packages} package
                {d.packages === 1 ? '' : 's'}, ${d.cost.toFixed(2)}
                {d.returns
                  ? ` (of which ${d.returns} return label${d.returns === 1 ? '' : 's'}, $${d.returnCost.toFixed(2)})`
                  : ''}
                {d.reprints ? `; ${d.reprints} reprint${d.reprints === 1 ? '' : 's'}` : ''}
                {d.voided ? `; ${d.voided} voided, not counted` : ''}
              </h2>
              <table className="grid eod-table" data-testid="eod-table">
                <thead>
                  <tr>
                    <th>Carrier</th>
                    <th className="num">Labels</th>
                    <th className="num">Packages</th>
                    <th className="num">Cost</th>
                    <th>Brands</th>
                  </tr>
                </thead>
                <tbody>
                  {d.carriers.map((c) => (
                    <tr key={c.carrier}>
                      <td>
                        <b>{c.carrier}</b>
                      </td>
                      <td className="num">{c.labels}</td>
                      <td className="num">{c.packages}</td>
                      <td className="num">${c.cost.toFixed(2)}</td>
                      <td>
                        {c.brands
                          .map((b) => `${b.name} ${b.labels} ($${b.cost.toFixed(2)})`)
                          .join(' · ')}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {d.stations?.length ? <StationsOfDay stations={d.stations} /> : null}
            </div>
          ))}
        </>
      ) : null}
    </section>
  );
}

/** The whole site's End of day: each station's part of the day. */
function StationsOfDay(props: { stations: NonNullable<EndOfDayView['days'][number]['stations']> }) {
  return (
    <table className="grid eod-table eod-stations" data-testid="eod-stations">
      <thead>
        <tr>
          <th>Station</th>
          <th className="num">Labels</th>
          <th className="num">Packages</th>
          <th className="num">Cost</th>
        </tr>
      </thead>
      <tbody>
        {props.stations.map((st) => (
          <tr key={st.name}>
            <td>{st.here ? `${st.name} (here)` : st.name}</td>
            <td className="num">{st.labels}</td>
            <td className="num">{st.packages}</td>
            <td className="num">${st.cost.toFixed(2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Why a close-out of the summary on screen would send nothing, though it has outbound labels:
 * each is on a manifest already (a close-out here or at a station of the site took it), or kept
 * off as an order with an open possible double label. Null when some label would go.
 */
function nothingNewToClose(summary: {
  labels: number;
  returns: number;
  onManifest?: number | undefined;
  heldBack?: number | undefined;
}): string | null {
  const outbound = summary.labels - summary.returns;
  const onManifest = summary.onManifest ?? 0;
  const heldBack = summary.heldBack ?? 0;
  if (outbound <= 0 || onManifest === 0 || outbound - onManifest - heldBack > 0) return null;
  const n = (count: number) => `${count} label${count === 1 ? '' : 's'}`;
  if (heldBack > 0)
    return `Nothing to close out now: ${n(onManifest)} of these days ${onManifest === 1 ? 'is' : 'are'} on a manifest already, and ${heldBack === 1 ? '1 label' : n(heldBack)} of an order with an open possible double label ${heldBack === 1 ? 'stays' : 'stay'} off until a shift lead resolves it (Needs attention).`;
  return `Already closed out: ${outbound === 1 ? 'the outbound label' : `all ${n(outbound).replace(' label', ' outbound label')}`} of these days ${outbound === 1 ? 'is' : 'are'} on a manifest. Nothing to send; labels bought after this go on the next close-out.`;
}

/**
 * The close-out question: which days, how many labels, how many of them a close-out put on a
 * manifest already (the platform leaves those where they are), and that the carriers get them.
 */
function closeOutQuestion(
  from: string,
  to: string,
  outbound: number | null,
  onManifest: number,
  scope: 'station' | 'site',
  /** Of an order with an open possible double label: kept off (whole site). */
  heldBack = 0,
): string {
  const days = `${from === to ? from : `${from} to ${to}`}${scope === 'site' ? ' for the whole site' : ''}`;
  const n = (count: number) => `${count} label${count === 1 ? '' : 's'}`;
  const go = (count: number) =>
    count === 0 ? 'no other label goes' : count === 1 ? '1 label goes' : `${n(count)} go`;
  const fresh = outbound === null ? null : Math.max(0, outbound - onManifest - heldBack);
  const labels =
    fresh === null
      ? "these days' labels go"
      : onManifest > 0
        ? `${n(onManifest)} of these days ${onManifest === 1 ? 'is' : 'are'} on a manifest already (a close-out${scope === 'site' ? ' at a station of the site' : ''} took ${onManifest === 1 ? 'it' : 'them'}, and ${onManifest === 1 ? 'it stays' : 'they stay'} there); ${go(fresh)}`
        : go(fresh);
  return `Close out ${days} with the carriers? ${labels} on a manifest, one per brand and carrier (return labels stay off${scope !== 'site' ? '' : heldBack > 0 ? `, and so ${heldBack === 1 ? 'does 1 label' : `do ${n(heldBack)}`} of an order with an open possible double label, until a shift lead resolves it` : ', and so do those of an order with an open possible double label'}). Labels bought after this go on the next close-out.`;
}
