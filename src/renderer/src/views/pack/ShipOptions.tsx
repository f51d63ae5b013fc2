import { forwardRef, useImperativeHandle, useRef, useState } from 'react';
import { INCOTERMS } from '../../../../shared/features/packing';
import type { OrderItemView, OrderView } from '../../../../shared/views';
import { useStation } from '../../store';
import './ship-options.css';

export interface ShipOptionsHandle {
  focus(): void;
}

/**
 * Shipment options (issue 15): what the order asks for, changed by the packer when needed.
 * Alt+O comes here; Tab moves through the options; a change drops the rates on screen and the
 * next Enter in Scan or Ctrl+Enter rates again with them.
 */
export const ShipOptionsPanel = forwardRef<ShipOptionsHandle, { onDone: () => void }>(
  function ShipOptionsPanel({ onDone }, ref) {
    const s = useStation();
    const first = useRef<HTMLInputElement>(null);
    const incoterm = useRef<HTMLSelectElement>(null);
    // Alt+O goes where the order needs the packer: the incoterm when one is missing abroad (the
    // refusal asks for it), else the first option.
    useImperativeHandle(ref, () => ({
      focus: () => {
        const st = useStation.getState();
        if (st.order?.international && !st.shipOptions?.incoTerm && incoterm.current)
          incoterm.current.focus();
        else first.current?.focus();
      },
    }));
    // The message row takes room the order panel needs: shown when the order has a message
    // or the packer asks for it.
    const [wantMessages, setWantMessages] = useState(false);
    const o = s.shipOptions;
    const order = s.order;
    if (!o || !order) return null;
    const international = order.international === true;
    const showMessages =
      wantMessages || Boolean(o.customMessage1 || o.customMessage2 || o.customMessage3);
    // Enter goes back to Scan from any option, the incoterm's picker too (an open picker's list
    // takes its own keys; a closed one only changes with ↑/↓).
    const back = (e: React.KeyboardEvent) => {
      if (e.key === 'Enter' && !e.ctrlKey) {
        e.preventDefault();
        onDone();
      }
    };
    return (
      <div className="panel ship-options" data-testid="ship-options" onKeyDown={back}>
        <div className="opts-row">
          <fieldset className="signature" aria-label="Signature">
            <span>Signature</span>
            {(
              [
                [null, 'None'],
                ['SIGNATURE', 'Signature'],
                ['ADULT_SIGNATURE', 'Adult signature'],
              ] as const
            ).map(([value, words]) => (
              <label key={words} className="check">
                <input
                  ref={o.deliveryConfirmation === value ? first : undefined}
                  type="radio"
                  name="signature"
                  checked={o.deliveryConfirmation === value}
                  onChange={() => s.setShipOptions({ deliveryConfirmation: value })}
                />
                {words}
              </label>
            ))}
          </fieldset>
          <label className="check">
            <input
              type="checkbox"
              checked={o.saturdayDelivery}
              onChange={(e) => s.setShipOptions({ saturdayDelivery: e.target.checked })}
            />
            <span>Saturday delivery</span>
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={o.additionalHandling}
              onChange={(e) => s.setShipOptions({ additionalHandling: e.target.checked })}
            />
            <span>Additional handling</span>
          </label>
          {international ? (
            <label className={o.incoTerm ? 'incoterm' : 'incoterm missing'}>
              <span>Incoterm</span>
              <select
                ref={incoterm}
                aria-label="Incoterm"
                value={o.incoTerm ?? ''}
                onChange={(e) =>
                  s.setShipOptions({
                    incoTerm:
                      e.target.value === '' ? null : (e.target.value as (typeof INCOTERMS)[number]),
                  })
                }
              >
                <option value="">— pick —</option>
                {INCOTERMS.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {!showMessages ? (
            <button type="button" className="link" onClick={() => setWantMessages(true)}>
              + Label messages
            </button>
          ) : null}
        </div>
        {showMessages ? (
          <div className="opts-row messages">
            {(['customMessage1', 'customMessage2', 'customMessage3'] as const).map((key, i) => (
              <input
                key={key}
                aria-label={`Label message ${i + 1}`}
                placeholder={`Label message ${i + 1}`}
                maxLength={35}
                value={o[key]}
                onChange={(e) => s.setShipOptions({ [key]: e.target.value })}
              />
            ))}
          </div>
        ) : null}
      </div>
    );
  },
);

/** What customs still need of an item abroad (the station refuses to buy without them). */
export function missingCustoms(item: OrderItemView): string[] {
  const missing: string[] = [];
  if (!item.description) missing.push('description');
  if (item.valueUsd === null || item.valueUsd === undefined) missing.push('value');
  if (item.weightLbs === null || item.weightLbs === undefined) missing.push('weight');
  if (!item.harmonizedCode) missing.push('HS code');
  if (!item.countryOfOrigin) missing.push('origin');
  return missing;
}

/** A hazmat item's line: its UN number, class, group and name, or what it lacks. */
export function hazmatLine(item: OrderItemView): { text: string; complete: boolean } | null {
  const h = item.hazmat;
  if (!h) return null;
  const noGroup = /^(2(\.\d)?|6\.2|7)$/.test(h.hazardClass ?? '');
  const missing = [
    h.unNumber ? null : 'UN number',
    h.hazardClass ? null : 'class',
    h.packingGroup || noGroup ? null : 'packing group',
    h.properShippingName ? null : 'shipping name',
  ].filter((x): x is string => x !== null);
  const parts = [
    h.unNumber,
    h.hazardClass ? `class ${h.hazardClass}` : null,
    h.packingGroup ? `PG ${h.packingGroup}` : null,
    h.properShippingName,
  ].filter(Boolean);
  return missing.length
    ? { text: `HAZMAT — missing ${missing.join(', ')}`, complete: false }
    : { text: `HAZMAT ${parts.join(' · ')}`, complete: true };
}

/** The items table of the order panel, with customs (abroad) and hazmat lines. */
export function OrderItems({ order }: { order: OrderView }) {
  const international = order.international === true;
  return (
    <table className="items">
      <thead>
        <tr>
          <th>Qty</th>
          <th>SKU</th>
          <th>Item</th>
        </tr>
      </thead>
      <tbody>
        {order.items.map((item, i) => {
          const hazmat = hazmatLine(item);
          const missing = international ? missingCustoms(item) : [];
          return (
            <tr key={i}>
              <td className="num">{item.quantity}</td>
              <td className="sku" title={item.sku}>
                {item.sku}
              </td>
              <td>
                {item.name}
                {hazmat ? (
                  <div
                    className={hazmat.complete ? 'item-note hazmat' : 'item-note bad'}
                    data-testid="hazmat-line"
                  >
                    {hazmat.text}
                  </div>
                ) : null}
                {international ? (
                  <div
                    className={missing.length ? 'item-note bad' : 'item-note customs'}
                    data-testid="customs-line"
                  >
                    {missing.length
                      ? `Customs: missing ${missing.join(', ')}`
                      : `HS ${item.harmonizedCode} · made in ${item.countryOfOrigin} · $${item.valueUsd!.toFixed(2)} · ${item.weightLbs} lb`}
                  </div>
                ) : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
