import { useState } from 'react';
import type { Result } from '../../../shared/result';
import type { OrderCancelView, OrderRowView } from '../../../shared/views';
import { call } from '../bridge';
import { useStation } from '../store';
import { ReasonForm } from '../components/ReasonForm';

/**
 * Cancel (or reopen) orders the store cancelled, in the Orders view's side panel: the picked
 * orders, or the row under the cursor when none is picked. A shift lead's action (with users set
 * up, a packer's needs a lead's badge); cancelling and reopening each ask for a reason (Enter
 * does it, Esc leaves). What was done is said order by order, with why any order was left.
 */
export function CancelOrders(props: {
  rows: OrderRowView[];
  cursorRow: OrderRowView | null;
  /** Order numbers reopened (an import report on the page no longer says them cancelled). */
  onReopened?(orderNumbers: string[]): void;
}) {
  const s = useStation();
  const site = Boolean(s.status?.site);
  /** Which form is open: a cancel's reason, or a reopen's. */
  const [asking, setAsking] = useState<'cancel' | 'reopen' | null>(null);
  const [reason, setReason] = useState('');
  const [said, setSaid] = useState<{ kind: 'ok' | 'warn' | 'bad'; text: string } | null>(null);
  const ids = s.picked.length ? s.picked : props.cursorRow ? [props.cursorRow.id] : [];
  const name = s.picked.length
    ? `${ids.length} picked order${ids.length === 1 ? '' : 's'}`
    : props.cursorRow
      ? `order ${props.cursorRow.orderNumber}`
      : null;
  const cancelledAmong = props.rows.filter((r) => ids.includes(r.id) && r.status === 'cancelled');

  const done = async (verb: string, r: Result<OrderCancelView>): Promise<void> => {
    if (!r.ok) {
      setSaid({ kind: 'bad', text: r.error.message });
      return;
    }
    // Green only when every order asked for was done; some left: amber, each said.
    setSaid({
      kind: r.value.left.length ? (r.value.done.length ? 'warn' : 'bad') : 'ok',
      text: outcomeWords(verb, r.value),
    });
    s.clearPicked();
    await s.loadOrders();
  };
  const cancel = async () => {
    if (reason.trim().length < 3) {
      setSaid({ kind: 'bad', text: 'Say why (at least 3 characters): it is kept with the order.' });
      return;
    }
    const r = await call('orders.cancel', { orderIds: ids, reason: reason.trim() });
    // Refused (a shift lead's badge asked for): the form and its reason stay for the next try.
    if (r.ok) {
      setAsking(null);
      setReason('');
    }
    await done('Cancelled', r);
  };
  // Reopening ships an order the store cancelled: asked as a cancel is, its reason logged.
  const reopen = async () => {
    if (reason.trim().length < 3) {
      setSaid({
        kind: 'bad',
        text: 'Say why it ships after all (at least 3 characters): it is kept in the log.',
      });
      return;
    }
    const r = await call('orders.reopen', {
      orderIds: cancelledAmong.map((o) => o.id),
      reason: reason.trim(),
    });
    if (r.ok) {
      setAsking(null);
      setReason('');
      if (r.value.done.length) props.onReopened?.(r.value.done);
    }
    await done('Reopened', r);
  };
  const reopenName =
    cancelledAmong.length === 1
      ? cancelledAmong[0]!.orderNumber
      : `${cancelledAmong.length} cancelled orders`;
  const open = (form: 'cancel' | 'reopen') => {
    setSaid(null);
    setReason('');
    setAsking(form);
  };

  return (
    <div className="panel cancel-orders" data-testid="cancel-orders">
      <h2>Cancelled in the store?</h2>
      <p className="muted">
        A cancelled order is never bought: not at Pack, not in a batch, not by the offline queue.
        {site
          ? ' At a site, the other stations are refused it too while the site store answers (not while it is away).'
          : ''}
      </p>
      {!name ? <p className="muted">Pick orders (Space), or move to one, to cancel it.</p> : null}
      {name && !asking && cancelledAmong.length < ids.length ? (
        <button onClick={() => open('cancel')}>Cancel {name}…</button>
      ) : null}
      {cancelledAmong.length && asking !== 'reopen' ? (
        <button onClick={() => open('reopen')}>Reopen {reopenName}…</button>
      ) : null}
      {asking === 'cancel' ? (
        <ReasonForm
          question={`Why ${s.picked.length > 1 ? 'are the' : 'is'} ${name} cancelled?`}
          label="Why the orders are cancelled"
          placeholder="Customer cancelled in Shopify"
          reason={reason}
          setReason={setReason}
          submit={<>Cancel {name}</>}
          danger
          keep="Keep"
          onSubmit={() => void cancel()}
          onKeep={() => setAsking(null)}
        />
      ) : null}
      {asking === 'reopen' && cancelledAmong.length ? (
        <ReasonForm
          question={`${cancelledAmong.length === 1 ? `${reopenName} ships` : 'They ship'} after all: why?`}
          label="Why the orders are reopened"
          placeholder="Customer reinstated the order"
          reason={reason}
          setReason={setReason}
          submit={<>Reopen {reopenName}</>}
          keep="Keep cancelled"
          onSubmit={() => void reopen()}
          onKeep={() => setAsking(null)}
        />
      ) : null}
      {said ? (
        <p className={said.kind} role="status" data-testid="cancel-outcome">
          {said.text}
        </p>
      ) : null}
    </div>
  );
}

function outcomeWords(verb: string, v: OrderCancelView): string {
  const done = v.done.length
    ? `${verb} ${v.done.join(', ')}.`
    : `Nothing was ${verb.toLowerCase()}.`;
  const left = v.left.map((l) => `${l.orderNumber}: ${l.reason}`).join('; ');
  return left ? `${done} Left as ${v.left.length === 1 ? 'it was' : 'they were'}: ${left}.` : done;
}
