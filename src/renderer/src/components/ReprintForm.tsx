import { useEffect, useRef, useState } from 'react';
import { useStation } from '../store';

/**
 * A reprint always records why: the reason is required and goes to the audit log. A label of
 * several packages reprints all of them, or the one picked here (the torn one). Whole-site
 * History sends its own way (`send`) and lets the packer pick the printer where the box is.
 */
export function ReprintForm(props: {
  labelId: string;
  /** One tracking number per package of the label. */
  packages?: readonly string[];
  onDone(): void;
  /** Escape; `onDone` when absent. */
  onCancel?(): void;
  /**
   * The reprint was refused (its toast says why); the form stays open for another try when
   * absent. Pack closes it: the next scan must not type into the reason.
   */
  onRefused?(): void;
  /** How to reprint; this station's `labels.reprint` when absent. True when it was sent. */
  send?(
    reason: string,
    packageIndex: number | undefined,
    printerId: string | null,
  ): Promise<boolean>;
  /** Printers to choose from, the `selected` one first shown; no choice when absent. */
  printers?: { options: readonly { id: string; name: string }[]; selected: string | null };
  /** Takes the focus when it opens (History's R key); true unless said otherwise. */
  autoFocus?: boolean;
  submitText?: string;
}) {
  const reprint = useStation((s) => s.reprint);
  const [reason, setReason] = useState('');
  const [which, setWhich] = useState('all');
  const [printerId, setPrinterId] = useState('');
  // Enter with no reason (or two letters) is said, not silently ignored.
  const [hint, setHint] = useState<string | null>(null);
  const ref = useRef<HTMLInputElement>(null);
  const autoFocus = props.autoFocus ?? true;
  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);
  const packages = props.packages ?? [];
  // Another printer than the station's own picked (one at another station): the button names it.
  const chosen = props.printers && printerId && printerId !== props.printers.selected;
  const elsewhere = chosen ? props.printers?.options.find((p) => p.id === printerId) : undefined;
  const submit = async () => {
    if (reason.trim().length < 3) {
      setHint(
        'Type why it is reprinted (damaged, jammed, lost…), then Enter: it goes to the audit.',
      );
      ref.current?.focus();
      return;
    }
    setHint(null);
    const index = which === 'all' ? undefined : Number(which);
    const sent = props.send
      ? await props.send(reason.trim(), index, printerId || null)
      : await reprint(props.labelId, reason.trim(), index);
    if (sent) {
      setReason('');
      props.onDone();
    } else props.onRefused?.();
  };
  return (
    <form
      className="reprint-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        // Esc closes this form and goes no further: on Pack it would also clear the order and
        // the label just bought, and the reason typed next would land in Scan.
        e.stopPropagation();
        (props.onCancel ?? props.onDone)();
      }}
    >
      {props.printers ? (
        <select
          aria-label="Reprint on printer"
          value={printerId || props.printers.selected || ''}
          onChange={(e) => setPrinterId(e.target.value)}
        >
          {props.printers.options.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      ) : null}
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
      {/* Not disabled: Enter with no reason must reach submit(), which says what is missing. */}
      <button type="submit">
        {elsewhere ? `Reprint on ${elsewhere.name}` : (props.submitText ?? 'Reprint')}
      </button>
      {hint ? (
        <p className="hint" role="alert" data-testid="reprint-reason-hint">
          {hint}
        </p>
      ) : null}
    </form>
  );
}
