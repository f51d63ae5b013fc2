import '../components/confirm-panel.css';

/**
 * The batch question's place when the orders it would name are over the limit: the count came in
 * after Alt+B (the list was still loading). Nothing to confirm; Enter, Esc or OK closes it.
 */
export function TooMany(props: { words: string; onClose(): void }) {
  return (
    <div
      className="confirm-panel"
      role="alert"
      data-testid="batch-too-many"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          props.onClose();
        }
      }}
    >
      <p>{props.words}</p>
      <button autoFocus onClick={props.onClose}>
        OK <kbd>Esc</kbd>
      </button>
    </div>
  );
}
