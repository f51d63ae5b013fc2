import { pickedRate, relabelledElsewhere } from '../../store/pack-rules';
import { useStation } from '../../store';
import { Waiting } from './Waiting';

const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`;

/**
 * The rates of the rated shipment. The rule's choice carries ★ and its reason; ↑/↓ (from the
 * Scan field) or a click highlight another, marked "your choice"; Buy & print buys the
 * highlighted one.
 */
export function RatesPanel({ onBuy }: { onBuy(): void }) {
  const s = useStation();
  const quote = s.quote;
  const picked = pickedRate(quote, s.selectedRateId);
  const ruleRate = quote?.rates.find((r) => r.id === quote.chosenRateId) ?? null;
  // Ctrl+Shift+A on an order that has a label: what is on screen must not look like a first
  // purchase. The labels it has are named, and the button says it buys another.
  const there = s.labelledElsewhere?.label
    ? [`${s.labelledElsewhere.label.trackingNumber} at ${s.labelledElsewhere.stationName}`]
    : [];
  const earlier = s.confirmAnother
    ? relabelledElsewhere(s.existingLabels, s.labelledElsewhere)
      ? // Voided here and labelled again there: the live one is named too.
        [...s.existingLabels.map((l) => `${l.trackingNumber} (voided)`), ...there]
      : s.existingLabels.length
        ? s.existingLabels.map((l) => l.trackingNumber)
        : there
    : [];
  const another = earlier.length > 0;
  // Every label of it here was voided at the carrier (and none bought elsewhere since): the one
  // bought now is its only live label, not "a second one".
  const replacesVoided =
    another &&
    !s.labelledElsewhere?.label &&
    s.existingLabels.length > 0 &&
    s.existingLabels.every((l) => l.voided);

  // The profile has no label printer (none set up, or the only one removed): a label bought now
  // is stored and prints by itself once one is added.
  const profile = s.status?.profile;
  const noLabelPrinter = Boolean(profile && !profile.defaultPrinterId);
  return (
    <div className="panel rates" data-testid="rates">
      <h2>
        Rates {s.busy === 'rate' ? <span className="muted">rating…</span> : null}
        <span className="keys">
          ★ the rule&apos;s choice · <kbd>↑</kbd>
          <kbd>↓</kbd> or click to pick another
        </span>
      </h2>
      <Waiting busy={s.busy} buying={s.buyPending} />
      {another ? (
        <p className="another" data-testid="buy-another" role="status">
          {replacesVoided ? (
            <>
              <b>A new label</b> for {s.order?.orderNumber}: its{' '}
              {earlier.length === 1 ? 'label' : `${earlier.length} labels`} {earlier.join(', ')}{' '}
              {earlier.length === 1 ? 'was' : 'were'} voided at the carrier. Ctrl+Enter buys and
              charges a new one; Esc cancels.
            </>
          ) : (
            <>
              <b>Another label</b> for {s.order?.orderNumber}: it already has{' '}
              {earlier.length === 1 ? 'label' : `${earlier.length} labels`} {earlier.join(', ')}.
              Ctrl+Enter buys and charges {earlier.length === 1 ? 'a second one' : 'one more'}; Esc
              cancels.
            </>
          )}
        </p>
      ) : null}
      {quote?.unreachable ? (
        <p className="unreachable" data-testid="rates-unreachable" role="status">
          {quote.reason}
        </p>
      ) : quote && !quote.queued ? (
        <>
          {/* No rate fits the rule: the rates are listed, none ★, and the sentence says the
              packer may pick one (bought as their choice) or ask a shift lead. */}
          <p
            className={quote.ruleRefused ? 'reason refused' : 'reason'}
            data-testid="rate-reason"
            title={quote.reason}
          >
            {quote.ruleRefused ? '' : '★ '}
            {quote.reason}
          </p>
          {/* Announced as ↑/↓ pick another rate (the keyboard stays in Scan, not in the list). */}
          <p className="choice" data-testid="rate-choice" role="status">
            {picked && (ruleRate || quote.ruleRefused) ? (
              <>
                Your choice: <b>{picked.serviceLevel}</b> {money(picked.amount, picked.currency)} (
                {ruleRate ? `rule: ${ruleRate.serviceLevel}` : 'none fits the rule'}), recorded
                under your name
              </>
            ) : null}
          </p>
          <table className="rate-table" role="listbox" aria-label="Rates">
            <tbody>
              {quote.rates.map((r) => {
                const rule = r.id === quote.chosenRateId;
                const selected = r.id === s.selectedRateId;
                return (
                  <tr
                    key={r.id}
                    ref={selected ? (el) => el?.scrollIntoView({ block: 'nearest' }) : undefined}
                    role="option"
                    className={(selected ? 'selected ' : '') + (rule ? 'chosen' : '')}
                    onClick={() => s.selectRate(r.id)}
                    aria-selected={selected}
                  >
                    <td className="mark">
                      {rule ? '★ rule' : selected ? <span className="yours">your choice</span> : ''}
                    </td>
                    <td>{r.carrier}</td>
                    <td className="service" title={r.serviceLevel}>
                      {r.serviceLevel}
                    </td>
                    <td className="num">{r.transitDays === null ? '–' : `${r.transitDays} d`}</td>
                    <td className="num">{money(r.amount, r.currency)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {quote.accountIssues.length ? (
            <ul className="issues">
              {quote.accountIssues.map((a) => (
                <li key={a.carrierAccountId}>
                  {a.name} ({a.carrier}) not used: connection {a.status}
                  {a.oauthUrl ? (
                    <>
                      {' '}
                      <a href={a.oauthUrl} target="_blank" rel="noreferrer">
                        authorize
                      </a>
                    </>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : s.busy === 'rate' ? null : (
        // While rating, the waiting line above says what is happening instead.
        <p className="placeholder">
          {quote?.queued
            ? 'Queued: rated and bought when the platform answers again.'
            : s.result?.kind === 'success'
              ? 'Scan the next order.'
              : s.result?.kind === 'failure' && s.result.error.code === 'order-cancelled'
                ? 'Cancelled: nothing to rate or buy. Set the parcel aside for the shift lead.'
                : s.result?.kind === 'failure' && s.result.error.code === 'purchase-outcome-unknown'
                  ? 'Not confirmed: the label may have been bought. Nothing to buy here until Needs attention (Alt+2) has found out.'
                  : s.labelledElsewhere?.label && !s.confirmAnother
                    ? s.labelledElsewhere.label.voided
                      ? `Labelled at ${s.labelledElsewhere.stationName}, and that label was voided at the carrier: nothing to rate. Ctrl+Shift+A to buy another label.`
                      : s.status?.site?.state === 'unreachable'
                        ? `Labelled at ${s.labelledElsewhere.stationName}: nothing to buy. Reprint it there (the site store is not answering), or Ctrl+Shift+A to buy another label.`
                        : `Labelled at ${s.labelledElsewhere.stationName}: nothing to buy. Reprint it here (Alt+R), or Ctrl+Shift+A to buy another label.`
                    : s.order && s.existingLabels.length && !s.confirmAnother
                      ? s.existingLabels[0]!.voided
                        ? 'Its label was voided at the carrier: nothing to rate. Ctrl+Shift+A to buy another label.'
                        : 'Already labelled: nothing to rate. Reprint (Alt+R), or Ctrl+Shift+A to buy another label.'
                      : s.order && s.packages.some((p) => p.weight.trim() === '')
                        ? 'Weigh each package to rate.'
                        : s.order
                          ? s.showFirst
                            ? 'Press Enter or Ctrl+Enter to rate; nothing is bought until you see the rates.'
                            : 'Press Enter to rate, or Ctrl+Enter to rate and buy.'
                          : 'Rates appear here.'}
        </p>
      )}
      {noLabelPrinter ? (
        // Said before the buy, not only after it: the buy still goes ahead (the label waits).
        <p className="no-label-printer" data-testid="no-label-printer" role="note">
          No label printer: the label will wait until one is added in Settings (Alt+7).
        </p>
      ) : null}
      <button
        className={another ? 'buy another' : 'buy'}
        disabled={!quote || quote.queued || s.busy !== null || (quote.ruleRefused && !picked)}
        onClick={onBuy}
      >
        {quote?.unreachable
          ? 'Queue for the platform'
          : quote?.ruleRefused && !picked
            ? 'Pick a rate to buy'
            : another
              ? `Buy another label${picked ? `: ${picked.serviceLevel}` : ''}`
              : picked
                ? `Buy ${picked.serviceLevel} & print`
                : 'Buy & print'}{' '}
        <kbd>Ctrl+Enter</kbd>
      </button>
    </div>
  );
}
