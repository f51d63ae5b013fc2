import { useEffect, useState } from 'react';
import { call, getBridge } from '../../bridge';
import { useStation } from '../../store';
import type { SiteAttentionView } from '../../../../shared/views';

/** Needs attention for the whole site: possible double labels and other stations' unknowns. */
export function SiteAttention() {
  const hasSite = useStation((s) => Boolean(s.status?.site));
  const notify = useStation((s) => s.notify);
  const [view, setView] = useState<SiteAttentionView | null>(null);
  async function load() {
    const r = await call('site.attention', {});
    if (r.ok) setView(r.value);
  }
  useEffect(() => {
    let live = true;
    const reload = () =>
      void call('site.attention', {}).then((r) => {
        if (live && r.ok) setView(r.value);
      });
    if (hasSite) reload();
    // Live: another station's changes arrive through the site store's NOTIFY.
    const off = hasSite ? getBridge().on('site-changed', reload) : () => {};
    return () => {
      live = false;
      off();
    };
  }, [hasSite]);
  if (!hasSite || !view) return null;
  return (
    <div data-testid="site-attention">
      <h2>Whole site</h2>
      {view.note ? <p className="banner">{view.note}</p> : null}
      {view.reachable && view.items.length === 0 ? (
        <p className="placeholder">Nothing needs attention anywhere on the site.</p>
      ) : null}
      <ul className="cards">
        {view.items.map((item) => (
          <li key={item.id} className={`card ${item.kind}`} data-testid="site-attention-item">
            <div className="card-head">
              <b>
                {item.kind === 'possible-double-label'
                  ? 'Possible double label'
                  : 'Unknown purchase'}
              </b>
              <span className="muted">{new Date(item.since).toLocaleString()}</span>
            </div>
            <div>{item.message}</div>
            {item.labels.length ? (
              <ul className="reasons">
                {item.labels.map((l) => (
                  <li key={`${l.stationId}:${l.labelId}`}>
                    {l.trackingNumber} · {l.carrier} {l.serviceLevel} · {l.cost.toFixed(2)}{' '}
                    {l.currency} · {l.stationName}
                    {l.packer ? ` (${l.packer})` : ''}
                  </li>
                ))}
              </ul>
            ) : null}
            {item.kind === 'possible-double-label' ? (
              <div className="actions">
                <button
                  onClick={() => {
                    const note = window.prompt('Which label was kept, and was the other voided?');
                    if (!note || note.trim().length < 3) return;
                    void call('site.resolveAttention', { id: item.id, note }).then((r) => {
                      if (!r.ok) notify('error', r.error.message);
                      void load();
                    });
                  }}
                >
                  Resolved…
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
