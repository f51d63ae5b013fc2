import { useEffect, useState } from 'react';
import { useStation } from '../store';
import type { AttentionAction } from '../../../shared/views';
import './attention.css';
import { SiteAttention } from './site/SiteAttention';

const actionLabel: Record<AttentionAction, string> = {
  'check-trackers': 'Look it up on the platform',
  'mark-not-bought': 'Not bought: release the order',
  'buy-again': 'Buy again (confirmed)',
  retry: 'Retry',
  cancel: 'Cancel',
  'mark-printed': 'It printed: mark it printed',
  dismiss: 'Dismiss',
};

export function AttentionView() {
  const items = useStation((s) => s.attention);
  const load = useStation((s) => s.loadAttention);
  const resolve = useStation((s) => s.resolveAttention);
  // A note per item ("checked the carrier portal, nothing there"), kept with the decision.
  const [notes, setNotes] = useState<Record<string, string>>({});
  useEffect(() => void load(), [load]);
  return (
    <section className="list-view">
      <h1>Needs attention</h1>
      <p className="muted">
        Purchases whose outcome is unknown are never bought again by themselves: look them up first,
        then decide.
      </p>
      {items.length === 0 ? <p className="placeholder">Nothing needs attention.</p> : null}
      <ul className="cards">
        {items.map((item) => (
          <li key={item.id} className={`card ${item.kind}`} data-testid="attention-item">
            <div className="card-head">
              <b>{item.title}</b>
              <span className="muted">{new Date(item.createdAt).toLocaleString()}</span>
            </div>
            <div>{item.detail}</div>
            {item.reasons.length ? (
              <ul className="reasons">
                {item.reasons.map((r, i) => (
                  <li key={i}>{r}</li>
                ))}
              </ul>
            ) : null}
            <input
              className="attention-note"
              aria-label={`Note for ${item.title}`}
              placeholder="Note (optional): what you checked, kept with the decision"
              value={notes[item.id] ?? ''}
              onChange={(e) => setNotes({ ...notes, [item.id]: e.target.value })}
            />
            <div className="actions">
              {item.actions.map((a) => (
                <button
                  key={a}
                  onClick={() => {
                    if (
                      a === 'buy-again' &&
                      !window.confirm(
                        'Buy another label for this order? The first purchase may have gone through.',
                      )
                    )
                      return;
                    void resolve(item.id, a, notes[item.id]?.trim() || undefined);
                  }}
                >
                  {actionLabel[a]}
                </button>
              ))}
            </div>
          </li>
        ))}
      </ul>
      <SiteAttention />
    </section>
  );
}
