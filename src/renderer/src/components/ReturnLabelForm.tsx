import { useEffect, useRef, useState } from 'react';
import type { LabelSummary } from '../../../shared/views';
import { call } from '../bridge';
import { playFailure, playSuccess } from '../lib/sounds';
import { useStation } from '../store';
import './return-label.css';

/**
 * History → Return label (T): buys a label with returnType LABEL for the selected shipment,
 * from the customer back to this site, printed on the label printer like any label. Enter
 * buys, Esc cancels. A label that already has a return label says so, and Enter buys another.
 */
export function ReturnLabelForm(props: { label: LabelSummary; onDone(bought: boolean): void }) {
  const { label } = props;
  const earlier = label.returnTrackingNumbers ?? [];
  const button = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sounds = useStation((s) => s.settings?.sounds ?? true);
  useEffect(() => button.current?.focus(), []);
  const buy = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const r = await call('labels.returnLabel', {
      labelId: label.id,
      confirmAnother: earlier.length > 0,
    });
    setBusy(false);
    if (!r.ok) {
      playFailure(sounds);
      setError(r.error.message);
      return;
    }
    playSuccess(sounds);
    useStation
      .getState()
      .notify('ok', `Return label ${r.value.label?.trackingNumber ?? ''}: ${r.value.message}`);
    props.onDone(true);
  };
  return (
    <form
      className="return-form"
      data-testid="return-form"
      onSubmit={(e) => {
        e.preventDefault();
        void buy();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') props.onDone(false);
      }}
    >
      <p>
        {earlier.length
          ? `Order ${label.orderNumber} already has a return label (${earlier.join(', ')}). Buy another one? It is charged like any label.`
          : `Buy a return label for order ${label.orderNumber} (${label.trackingNumber}), from the customer back to this site? It is charged like any label.`}
      </p>
      <div className="return-actions">
        <button ref={button} type="submit" disabled={busy}>
          {busy
            ? 'Buying the return label…'
            : earlier.length
              ? 'Buy another return label'
              : 'Buy return label'}{' '}
          <kbd>Enter</kbd>
        </button>
        <span className="muted">
          <kbd>Esc</kbd> cancel
        </span>
      </div>
      {error ? (
        <p className="error" role="alert" data-testid="return-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
