import { useEffect, useState, type ReactNode } from 'react';
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
  // Where the keyboard was before the question (read at the first render, before its button
  // takes the focus): given back when the panel goes and the focus would fall to nothing (Esc,
  // Cancel), so a keyboard user, or a scanner's typing, is not left on the page's body.
  const [before] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  useEffect(
    () => () => {
      requestAnimationFrame(() => {
        const now = document.activeElement;
        if ((now === null || now === document.body) && before?.isConnected) before.focus();
      });
    },
    [before],
  );
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
