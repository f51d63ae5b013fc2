import { useState } from 'react';
import type { LabelSummary } from '../../../shared/views';
import { call } from '../bridge';
import { ReasonForm } from '../components/ReasonForm';
import { when } from '../lib/when';
import { useStation } from '../store';

/**
 * Above the preview: who voided the label at the carrier, when and why, and what follows. In
 * Site History (`at`: the station that bought it, where the mark was made) what it is left out of
 * is the console's day.
 */
export function VoidedNote({
  label,
  at,
}: {
  label: Pick<LabelSummary, 'voided' | 'orderNumber'>;
  at?: string;
}) {
  const v = label.voided;
  if (!v) return null;
  return (
    <p className="voided" data-testid="voided-note">
      Voided at the carrier{at ? ` (marked at ${at})` : ''} by {v.by}, {when(v.at)}: {v.reason}.{' '}
      {at
        ? "Left out of the console's labels and cost and that station's End of day"
        : 'Left out of End of day and the manifest'}
      ; not reprinted.{' '}
      {v.labelledAgain
        ? `Order ${label.orderNumber} was labelled again at ${v.labelledAgain}: it ships on that label, nothing to buy.`
        : `To ship order ${label.orderNumber}, buy another label at Pack (Ctrl+Shift+A).`}
    </p>
  );
}

/**
 * History's mark for a label voided at the carrier's portal or the platform's console (the
 * platform shows no void, so the station voids nothing itself): a shift lead marks it with why,
 * and End of day then leaves it out of the day's labels and cost and off the manifest; it is not
 * reprinted. A mark made in error is taken back the same way.
 */
export function VoidMark(props: { label: LabelSummary; onDone(): void }) {
  const notify = useStation((s) => s.notify);
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [said, setSaid] = useState<string | null>(null);
  const v = props.label.voided;
  const submit = async () => {
    if (reason.trim().length < 3) {
      setSaid('Say why (at least 3 characters): it is kept with the label.');
      return;
    }
    const r = await call('labels.markVoided', {
      id: props.label.id,
      voided: !v,
      reason: reason.trim(),
    });
    if (!r.ok) {
      setSaid(r.error.message);
      return;
    }
    setAsking(false);
    setReason('');
    setSaid(null);
    notify(
      'ok',
      v
        ? `${props.label.trackingNumber} counts again at End of day.`
        : `${props.label.trackingNumber} marked voided at the carrier: left out of End of day and the manifest.`,
    );
    props.onDone();
  };
  return (
    <div className="void-mark" data-testid="void-mark">
      {asking ? (
        <ReasonForm
          question={
            v
              ? 'Not voided after all? Say why: it counts at End of day again.'
              : 'Voided at the carrier (its portal or the platform console)? Say why: End of day then leaves it out.'
          }
          label={v ? 'Why it was not voided' : 'Why the label was voided'}
          placeholder={v ? 'e.g. marked by mistake' : 'e.g. wrong address, relabelled'}
          reason={reason}
          setReason={setReason}
          submit={v ? 'Not voided' : 'Mark voided'}
          danger={!v}
          keep="Keep as it is"
          onSubmit={() => void submit()}
          onKeep={() => {
            setAsking(false);
            setSaid(null);
          }}
        />
      ) : (
        <button onClick={() => setAsking(true)}>
          {v ? 'Not voided after all…' : 'Voided at the carrier…'}
        </button>
      )}
      {said ? (
        <p className="bad" role="alert" data-testid="void-said">
          {said}
        </p>
      ) : null}
    </div>
  );
}
