import { useEffect, useRef, useState } from 'react';
import { useStation } from '../store';

/** A reprint always records why: the reason is required and goes to the audit log. */
export function ReprintForm(props: { labelId: string; onDone(): void }) {
  const reprint = useStation((s) => s.reprint);
  const [reason, setReason] = useState('');
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const submit = async () => {
    if (reason.trim().length < 3) return;
    if (await reprint(props.labelId, reason.trim())) props.onDone();
  };
  return (
    <form
      className="reprint-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <input
        ref={ref}
        aria-label="Reprint reason"
        placeholder="Why reprint? (damaged, jammed…) then Enter"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') props.onDone();
        }}
      />
      <button type="submit" disabled={reason.trim().length < 3}>
        Reprint
      </button>
    </form>
  );
}
