import type { ReactNode } from 'react';
import './confirm-panel.css';

/**
 * A question asked in the page before something that spends money (a batch of labels, buying
 * again after an unknown outcome): the confirm button has the focus, so Enter confirms; Esc or
 * Cancel leaves and nothing happens. Never the browser's own dialog.
 */
export function ConfirmPanel(props: {
  /** The dialog's accessible name. */
  label: string;
  question: ReactNode;
  confirmText: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <div
      className="confirm-panel"
      role="alertdialog"
      aria-label={props.label}
      onKeyDown={(e) => {
        if (e.key === 'Escape') props.onCancel();
      }}
    >
      <p>{props.question}</p>
      <button className="primary" autoFocus onClick={props.onConfirm}>
        {props.confirmText} <kbd>Enter</kbd>
      </button>
      <button onClick={props.onCancel}>
        Cancel <kbd>Esc</kbd>
      </button>
    </div>
  );
}
