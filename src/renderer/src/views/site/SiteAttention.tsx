import { useEffect, useState } from 'react';
import { call, getBridge } from '../../bridge';
import { useStation } from '../../store';
import type { SiteAttentionView } from '../../../../shared/views';
import { serviceWords } from '../../../../shared/service-words';
import { clockOrWhen, when } from '../../lib/when';

/**
 * Needs attention for the whole site: possible double labels and other stations' unknowns (this
 * station's own are in the list above). While the store is away, the last list read, marked.
 */
export function SiteAttention() {
  const hasSite = useStation((s) => Boolean(s.status?.site));
  const notify = useStation((s) => s.notify);
  /** This station's own items (listed above, not here): the site is not clear while it has any. */
  const ownItems = useStation((s) => s.attention.length);
  const [view, setView] = useState<SiteAttentionView | null>(null);
  /** What the shift lead typed per item: the resolution's note (kept with it in the store). */
  const [notes, setNotes] = useState<Record<string, string>>({});
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
      {view.note ? (
        <p className="banner">
          {view.note}
          {!view.reachable && view.readAt ? ` Read at ${clockOrWhen(view.readAt)}.` : ''}
        </p>
      ) : null}
      {view.reachable && view.items.length === 0 ? (
        <p className="placeholder">
          {ownItems
            ? 'Nothing needs attention at the other stations of the site (this station’s own items are above).'
            : 'Nothing needs attention anywhere on the site.'}
        </p>
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
              <span className="muted">{when(item.since)}</span>
            </div>
            <div>{item.message}</div>
            {item.labels.length ? (
              <ul className="reasons">
                {item.labels.map((l) => (
                  <li
                    key={`${l.stationId}:${l.labelId}`}
                    className={l.voided ? 'voided' : undefined}
                    data-testid="double-label-label"
                  >
                    {l.trackingNumber} · {serviceWords(l.carrier, l.serviceLevel)} ·{' '}
                    {l.cost.toFixed(2)} {l.currency} · {l.stationName}
                    {l.packer ? ` (${l.packer})` : ''}
                    {l.voided ? (
                      <b title={l.voided.reason}>
                        {' '}
                        · voided at the carrier by {l.voided.by}, {when(l.voided.at)}
                      </b>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
            {item.kind === 'possible-double-label' && keptOne(item.labels) ? (
              <div className="muted" data-testid="double-label-kept">
                One of its labels is marked voided: the other is the one kept. Say so below and mark
                the item resolved.
              </div>
            ) : null}
            {item.kind === 'possible-double-label' ? (
              <form
                className="actions"
                onSubmit={(e) => {
                  e.preventDefault();
                  const note = (notes[item.id] ?? '').trim();
                  if (note.length < 3) {
                    notify('error', 'Say which label was kept, and whether the other was voided.');
                    return;
                  }
                  void call('site.resolveAttention', { id: item.id, note }).then((r) => {
                    if (!r.ok) notify('error', r.error.message);
                    else setNotes(({ [item.id]: _done, ...rest }) => rest);
                    void load();
                  });
                }}
              >
                <input
                  className="attention-note"
                  aria-label={`Note for the possible double label of ${item.orderNumber}`}
                  placeholder="Which label was kept, and was the other voided?"
                  value={notes[item.id] ?? ''}
                  onChange={(e) => setNotes({ ...notes, [item.id]: e.target.value })}
                />
                <button
                  type="submit"
                  disabled={!view.reachable}
                  title={view.reachable ? undefined : 'The site store must answer to resolve it'}
                >
                  Resolved
                </button>
              </form>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One label of a double label marked voided and one not: what the lead decided is plain. */
function keptOne(labels: SiteAttentionView['items'][number]['labels']): boolean {
  const voided = labels.filter((l) => l.voided).length;
  return voided > 0 && voided < labels.length;
}
