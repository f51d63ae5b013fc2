import { deadlineWords, PLATFORM_DEADLINES_MS } from '../../../../shared/deadlines';
import { useSession } from '../../store/session';

/** While the platform is asked: what the station waits for, and the longest it will wait. */
export function Waiting({
  busy,
  buying = false,
}: {
  busy: 'scan' | 'rate' | 'buy' | null;
  /** The packer pressed Ctrl+Enter: this rating is on the way to buying. */
  buying?: boolean;
}) {
  // A call held for a shift lead's badge: nothing is asked of the platform until one approves.
  const approving = useSession((s) => Boolean(s.leadPrompt));
  if (busy !== 'rate' && busy !== 'buy') return null;
  const text = approving
    ? "Waiting for a shift lead's approval: nothing is asked of the platform until one approves (Esc: not now)."
    : busy === 'rate'
      ? `Asking the platform for rates (at most ${deadlineWords(PLATFORM_DEADLINES_MS.rates)}; ${buying ? 'if it does not answer, the order is queued and bought when it answers again' : 'if it does not answer, nothing is bought or queued'}).`
      : `Buying the label (at most ${deadlineWords(PLATFORM_DEADLINES_MS.labels)}; if the platform does not confirm it, it is not bought again: a shift lead checks it under Needs attention).`;
  return (
    <p className="muted waiting" role="status" data-testid="waiting">
      {text}
    </p>
  );
}
