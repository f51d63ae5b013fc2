import { useEffect, useRef, useState } from 'react';
import type { VerificationView } from '../../../../shared/views';
import { useStation } from '../../store';
import './verify.css';

/**
 * Scan to verify (issue 15.1): one row per item of the order with what was scanned so far,
 * big enough to read from a metre away. A wrong item or one too many is a red line naming it.
 */
export function VerifyTable({ verification }: { verification: VerificationView }) {
  const alert = useStation((s) => s.verifyAlert);
  const scanned = verification.lines.reduce((n, l) => n + l.scanned, 0);
  const wanted = verification.lines.reduce((n, l) => n + l.quantity, 0);
  return (
    <div className="verify" data-testid="verify">
      <div
        className={`verify-state ${verification.verified ? 'done' : verification.required ? 'locked' : ''}`}
        data-testid="verify-state"
      >
        <b>
          {scanned} of {wanted} item{wanted === 1 ? '' : 's'} scanned
        </b>
        {verification.complete ? (
          <span> · every item is in the box</span>
        ) : verification.override ? (
          <span>
            {' '}
            · overridden by {verification.override.by}: {verification.override.reason}
          </span>
        ) : verification.required ? (
          <span> · scan every item before the label (Alt+V: shift lead override)</span>
        ) : (
          <span> · scan each item as it goes in</span>
        )}
      </div>
      {alert && alert.kind !== 'counted' ? (
        <div className="verify-alert" role="alert" data-testid="verify-alert">
          {alert.text}
        </div>
      ) : null}
      <table className="verify-lines">
        <thead>
          <tr>
            <th aria-label="Picture" />
            <th>SKU</th>
            <th>Item</th>
            <th className="num">Scanned</th>
          </tr>
        </thead>
        <tbody>
          {verification.lines.map((l) => {
            const state =
              alert?.lineKey === l.key && alert.kind === 'too-many'
                ? 'over'
                : l.scanned >= l.quantity
                  ? 'full'
                  : l.scanned > 0
                    ? 'partial'
                    : 'none';
            return (
              <tr key={l.key} className={`line-${state}`} data-testid={`verify-line-${l.sku}`}>
                <td className="pic">
                  {l.imageUrl ? <ItemImage url={l.imageUrl} name={l.name} /> : null}
                </td>
                <td className="sku">{l.sku}</td>
                <td>
                  {l.name}
                  {l.barcode ? <div className="muted small">{l.barcode}</div> : null}
                </td>
                <td className="num count">
                  {l.scanned} / {l.quantity}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function ItemImage({ url, name }: { url: string; name: string }) {
  const [broken, setBroken] = useState(false);
  if (broken) return <span className="no-pic" title={`No picture could be loaded from ${url}`} />;
  return (
    <img
      src={url}
      alt={name}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
    />
  );
}

/** Alt+V on Pack: a shift lead lets the order go without every item scanned; name and reason. */
export function OverrideForm({ onDone }: { onDone: () => void }) {
  const override = useStation((s) => s.overrideVerification);
  const [by, setBy] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState('');
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  async function submit() {
    if (!by.trim() || reason.trim().length < 3) {
      setProblem('Type the shift lead’s name and a reason (at least 3 characters).');
      return;
    }
    if (await override(by.trim(), reason.trim())) onDone();
  }
  return (
    <form
      className="override-form"
      aria-label="Override verification"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onDone();
        }
      }}
    >
      <b>Shift lead override</b>
      <label>
        Shift lead
        <input
          ref={first}
          aria-label="Shift lead name"
          value={by}
          onChange={(e) => setBy(e.target.value)}
        />
      </label>
      <label>
        Reason
        <input
          aria-label="Override reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      <button type="submit">Override (Enter)</button>
      {problem ? <span className="bad">{problem}</span> : null}
    </form>
  );
}
