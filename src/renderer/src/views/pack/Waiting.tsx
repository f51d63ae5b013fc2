import { deadlineWords, PLATFORM_DEADLINES_MS } from '../../../../shared/deadlines';

/** While the platform is asked: what the station waits for, and the longest it will wait. */
export function Waiting({ busy }: { busy: 'scan' | 'rate' | 'buy' | null }) {
  if (busy !== 'rate' && busy !== 'buy') return null;
  const text =
    busy === 'rate'
      ? `Asking the platform for rates (at most ${deadlineWords(PLATFORM_DEADLINES_MS.rates)}; if it does not answer, the order is queued and nothing is bought).`
      : `Buying the label (at most ${deadlineWords(PLATFORM_DEADLINES_MS.labels)}; if the platform does not confirm it, it is not bought again: a shift lead checks it under Needs attention).`;
  return (
    <p className="muted waiting" role="status" data-testid="waiting">
      {text}
    </p>
  );
}
