import { useEffect, useState } from 'react';
import { useStation } from '../store';
import type { AttentionAction } from '../../../shared/views';
import './attention.css';
import { ConfirmPanel } from '../components/ConfirmPanel';
import { SiteAttention } from './site/SiteAttention';
import { clock, when } from '../lib/when';

const actionLabel: Record<AttentionAction, string> = {
  'check-trackers': 'Look it up on the platform',
  'mark-not-bought': 'Not bought: release the order',
  'buy-again': 'Buy again (confirmed)',
  retry: 'Retry',
  cancel: 'Cancel',
  'mark-printed': 'It printed: mark it printed',
  dismiss: 'Dismiss',
};

/** The order on Pack as if scanned there: rated again at once, nothing bought. */
async function openOnPack(orderNumber: string): Promise<void> {
  const st = useStation.getState();
  st.go('pack');
  await st.scan(orderNumber);
}

export function AttentionView() {
  const items = useStation((s) => s.attention);
  // At a site the Whole site list follows below: "nothing" is this station's.
  const atSite = useStation((s) => Boolean(s.status?.site));
  const load = useStation((s) => s.loadAttention);
  const resolve = useStation((s) => s.resolveAttention);
  // A note per item ("checked the carrier portal, nothing there"), kept with the decision.
  const [notes, setNotes] = useState<Record<string, string>>({});
  // Buying again spends money: the button asks first, in the page (as the Orders view's batch
  // does): Enter confirms, Esc or Cancel leaves and nothing is bought.
  // "Not bought" asks too: if the label was bought after all, the order scanned again is bought
  // twice.
  const [confirming, setConfirming] = useState<{
    id: string;
    action: 'buy-again' | 'mark-not-bought';
  } | null>(null);
  // The item being decided (a look-up can take the platform's time: said, buttons held), and
  // what each decision here said, kept on the page (a toast is gone in seconds, and the item
  // it was about may be gone from the list).
  const [busy, setBusy] = useState<{ id: string; action: AttentionAction } | null>(null);
  const [outcomes, setOutcomes] = useState<
    { key: number; title: string; ok: boolean; message: string; at: string }[]
  >([]);
  useEffect(() => void load(), [load]);
  // Esc closes the open question wherever the keyboard is in this view (the item's note, the
  // page itself), not only inside it; nothing typed is lost (until 2026-11-29 only with the
  // focus inside the question).
  useEffect(() => {
    if (!confirming) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) setConfirming(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [confirming]);
  const decide = (id: string, action: AttentionAction) => {
    if (busy) return;
    const title = items.find((i) => i.id === id)?.title ?? id;
    setBusy({ id, action });
    void resolve(id, action, notes[id]?.trim() || undefined).then((said) => {
      setBusy(null);
      setOutcomes((o) =>
        [{ key: Date.now(), title, ...said, at: clock(Date.now()) }, ...o].slice(0, 5),
      );
    });
  };
  return (
    <section className="list-view">
      <h1>Needs attention</h1>
      <p className="muted">
        Purchases whose outcome is unknown are never bought again by themselves: look them up first,
        then decide.
      </p>
      {outcomes.length ? (
        <ul className="attention-outcomes" data-testid="attention-outcomes">
          {outcomes.map((o) => (
            <li key={o.key} className={o.ok ? 'ok' : 'bad'}>
              <span className="muted">{o.at}</span> <b>{o.title}</b>: {o.message}
            </li>
          ))}
        </ul>
      ) : null}
      {items.length === 0 ? (
        <p className="placeholder">
          {atSite ? 'Nothing needs attention at this station.' : 'Nothing needs attention.'}
        </p>
      ) : null}
      <ul className="cards">
        {items.map((item) => (
          <li key={item.id} className={`card ${item.kind}`} data-testid="attention-item">
            <div className="card-head">
              <b>{item.title}</b>
              <span className="muted">{when(item.createdAt)}</span>
            </div>
            <div>{item.detail}</div>
            {item.reasons.length ? (
              <ul className="reasons">
                {item.reasons.map((r, i) => (
                  <li key={i}>{r}</li>
                ))}
              </ul>
            ) : null}
            {item.actions.length ? (
              <>
                <input
                  className="attention-note"
                  aria-label={`Note for ${item.title}`}
                  placeholder="Note (optional): what you checked, kept with the decision"
                  value={notes[item.id] ?? ''}
                  onChange={(e) => setNotes({ ...notes, [item.id]: e.target.value })}
                />
                <div className="actions">
                  {item.kind === 'purchase-failed' && item.orderNumber ? (
                    // What a shift lead does with an order that could not be rated or bought:
                    // open it on Pack, where it is rated again at once and its rates are seen
                    // before anything is bought (until 2026-11-29 only Dismiss was offered).
                    <button
                      disabled={busy !== null}
                      onClick={() => void openOnPack(item.orderNumber!)}
                    >
                      Open on Pack and rate again
                    </button>
                  ) : null}
                  {item.actions.map((a) => (
                    <button
                      key={a}
                      disabled={busy !== null}
                      onClick={() =>
                        a === 'buy-again' || a === 'mark-not-bought'
                          ? setConfirming({ id: item.id, action: a })
                          : decide(item.id, a)
                      }
                    >
                      {
                        // A job that may have printed: the Queue's words for the same decision.
                        a === 'retry' && item.actions.includes('mark-printed')
                          ? 'It did not print: send it again'
                          : actionLabel[a]
                      }
                    </button>
                  ))}
                </div>
              </>
            ) : null}
            {busy?.id === item.id ? (
              <p className="muted" role="status" data-testid="attention-busy">
                {busy.action === 'check-trackers'
                  ? 'Looking it up on the platform… (this waits for the platform to answer)'
                  : 'Working on it…'}
              </p>
            ) : null}
            {confirming?.id === item.id && confirming.action === 'buy-again' ? (
              <ConfirmPanel
                label={`Confirm buying again${item.orderNumber ? ` for ${item.orderNumber}` : ''}`}
                question={`Buy another label${item.orderNumber ? ` for order ${item.orderNumber}` : ''}? The first purchase may have gone through: both labels would be charged.`}
                confirmText="Buy another label"
                onConfirm={() => {
                  setConfirming(null);
                  decide(item.id, 'buy-again');
                }}
                onCancel={() => setConfirming(null)}
              />
            ) : null}
            {confirming?.id === item.id && confirming.action === 'mark-not-bought' ? (
              <ConfirmPanel
                label={`Confirm not bought${item.orderNumber ? ` for ${item.orderNumber}` : ''}`}
                question={`Release order${item.orderNumber ? ` ${item.orderNumber}` : ''} as not bought? Only if you checked (Look it up on the platform, the carrier's portal): if the label was bought after all, scanning the order again buys and charges a second one.`}
                confirmText="Not bought: release it"
                onConfirm={() => {
                  setConfirming(null);
                  decide(item.id, 'mark-not-bought');
                }}
                onCancel={() => setConfirming(null)}
              />
            ) : null}
          </li>
        ))}
      </ul>
      <SiteAttention />
    </section>
  );
}
