import { useEffect, useRef, useState } from 'react';
import { useStation } from '../store';

/**
 * A reprint always records why: the reason is required and goes to the audit log. A label of
 * several packages reprints all of them, or the one picked here (the torn one).
 */
export function ReprintForm(props: {
  labelId: string;
  /** One tracking number per package of the label. */
  packages?: readonly string[];
  onDone(): void;
}) {
  const reprint = useStation((s) => s.reprint);
  const [reason, setReason] = useState('');
  const [which, setWhich] = useState('all');
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const packages = props.packages ?? [];
  const submit = async () => {
    if (reason.trim().length < 3) return;
    const index = which === 'all' ? undefined : Number(which);
    if (await reprint(props.labelId, reason.trim(), index)) props.onDone();
  };
  return (
    <form
      className="reprint-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') props.onDone();
      }}
    >
      {packages.length > 1 ? (
        <select
          aria-label="Packages to reprint"
          value={which}
          onChange={(e) => setWhich(e.target.value)}
        >
          <option value="all">All {packages.length} packages</option>
          {packages.map((t, i) => (
            <option key={t} value={String(i)}>
              Package {i + 1}: {t}
            </option>
          ))}
        </select>
      ) : null}
      <input
        ref={ref}
        aria-label="Reprint reason"
        placeholder="Why reprint? (damaged, jammed…) then Enter"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <button type="submit" disabled={reason.trim().length < 3}>
        Reprint
      </button>
    </form>
  );
}
