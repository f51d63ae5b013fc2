import type { ReactNode } from 'react';
import './reason-form.css';

/** A reason asked before a lead's action: Enter does it, Esc leaves it (the form closes). */
export function ReasonForm(props: {
  question: string;
  label: string;
  placeholder: string;
  reason: string;
  setReason(reason: string): void;
  submit: ReactNode;
  danger?: boolean;
  keep: string;
  onSubmit(): void;
  onKeep(): void;
}) {
  return (
    <form
      className="reason-form"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') props.onKeep();
      }}
    >
      <label>
        {props.question}
        <input
          autoFocus
          aria-label={props.label}
          placeholder={props.placeholder}
          value={props.reason}
          maxLength={200}
          onChange={(e) => props.setReason(e.target.value)}
        />
      </label>
      <button type="submit" className={props.danger ? 'danger' : undefined}>
        {props.submit} <kbd>Enter</kbd>
      </button>
      <button type="button" onClick={props.onKeep}>
        {props.keep} <kbd>Esc</kbd>
      </button>
    </form>
  );
}
