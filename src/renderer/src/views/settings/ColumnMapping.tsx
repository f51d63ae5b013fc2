import { useEffect, useRef, useState } from 'react';
import {
  MAPPABLE_COLUMNS,
  MAPPED_WEIGHT_UNITS,
  REQUIRED_MAPPED_COLUMNS,
  type MappedWeightUnit,
} from '../../../../shared/features/packing';
import { call } from '../../bridge';
import { useStation } from '../../store';
import './column-mapping.css';

type Column = (typeof MAPPABLE_COLUMNS)[number];

const words: Record<Column, string> = {
  order_number: 'Order number',
  tenant_id: 'Brand (its name or tenant id)',
  ship_to_name: 'Name',
  ship_to_company: 'Company',
  ship_to_address1: 'Street address',
  ship_to_address2: 'Address line 2',
  ship_to_city: 'City',
  ship_to_state: 'State / province',
  ship_to_postal_code: 'Postal code',
  ship_to_country: 'Country',
  ship_to_phone: 'Phone',
  ship_to_email: 'E-mail',
  sku: 'SKU',
  item_name: 'Item name',
  quantity: 'Quantity',
  unit_value_usd: 'Unit price ($)',
  package: 'Package number (1, 2, …)',
  box: 'Box code',
  weight_lbs: 'Package weight',
};

/** Hints that often name a column: a first guess the person checks (nothing is saved unseen). */
const hints: Record<Column, RegExp> = {
  order_number: /^(order|ref|reference|order ?(no|number|#|id)|ref ?#)$/i,
  tenant_id: /^(brand|brand ?name|tenant|tenant ?id|client|brand ?id)$/i,
  ship_to_name: /^(name|customer|recipient|ship ?to ?name)$/i,
  ship_to_company: /company/i,
  ship_to_address1: /^(street|address|address ?1|address line 1)$/i,
  ship_to_address2: /^(address ?2|address line 2|apt|suite)$/i,
  ship_to_city: /^(city|town)$/i,
  ship_to_state: /^(state|province|region)$/i,
  ship_to_postal_code: /^(zip|post ?code|postal ?code|zip ?code)$/i,
  ship_to_country: /^country/i,
  ship_to_phone: /phone/i,
  ship_to_email: /mail/i,
  sku: /^(sku|article|item ?(no|number|code))$/i,
  item_name: /^(item|product|description|item name|product name)$/i,
  quantity: /^(qty|quantity|pieces|units)$/i,
  unit_value_usd: /price|value/i,
  package: /^(package|parcel|package ?(no|number|#)|parcel ?(no|number|#))$/i,
  box: /^(box|box ?code|carton)$/i,
  weight_lbs: /(weight|\bwt\b)(?! ?unit)/i,
};

const unitWords: Record<MappedWeightUnit, string> = {
  lb: 'pounds (lb)',
  oz: 'ounces (oz)',
  kg: 'kilograms (kg)',
  g: 'grams (g)',
};
/** A header that names its unit ("Weight (kg)") gives the first guess of the weight unit. */
const unitOfHeader = (header: string | undefined): MappedWeightUnit => {
  const m = /\b(lbs?|oz|kg|g)\b/i.exec(header ?? '');
  const u = m?.[1]?.toLowerCase();
  return u === 'lbs' ? 'lb' : ((u as MappedWeightUnit | undefined) ?? 'lb');
};
const unitColumnHint = /^(w(eigh)?t\.? ?unit|unit|uom|weight ?uom)$/i;

/**
 * Map the columns of a file the station does not know, once: each station column picks one of
 * the file's headers; saved in the profile, so the next file with that header imports without
 * asking. Then the file is imported again.
 */
export function ColumnMapping(props: {
  fileName: string;
  header: string[];
  /** The core's guess from the store export the header is nearest to; hints fill the rest. */
  suggested?: Partial<Record<string, string>>;
  onSaved(): void;
}) {
  const notify = useStation((s) => s.notify);
  const [name, setName] = useState(props.fileName.replace(/\.[^.]+$/, ''));
  const [columns, setColumns] = useState<Partial<Record<Column, string>>>(() => {
    const suggested = props.suggested ?? {};
    const taken = new Set(Object.values(suggested));
    return Object.fromEntries(
      MAPPABLE_COLUMNS.map((c) => [
        c,
        suggested[c] ?? props.header.find((h) => !taken.has(h) && hints[c].test(h.trim())),
      ]).filter(([, h]) => h),
    );
  });
  const [unit, setUnit] = useState<MappedWeightUnit>(() => unitOfHeader(columns.weight_lbs));
  const [unitColumn, setUnitColumn] = useState<string | undefined>(() =>
    props.header.find((h) => unitColumnHint.test(h.trim())),
  );
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const missing = REQUIRED_MAPPED_COLUMNS.filter((c) => !columns[c]);
  const save = async () => {
    if (missing.length) return;
    const r = await call('orders.saveMapping', {
      name: name.trim() || props.fileName,
      columns,
      ...(columns.weight_lbs ? { weightUnit: unit } : {}),
      ...(columns.weight_lbs && unitColumn ? { weightUnitColumn: unitColumn } : {}),
    });
    if (!r.ok) {
      notify('error', r.error.message);
      return;
    }
    notify('ok', `Saved the column mapping "${r.value.saved}".`);
    props.onSaved();
  };
  return (
    <form
      className="panel column-mapping"
      data-testid="column-mapping"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      // A select does not submit its form on Enter; here Enter saves from the column picker
      // just used too, as the button's key hint says.
      onKeyDown={(e) => {
        if (e.key !== 'Enter' || !(e.target instanceof HTMLSelectElement)) return;
        e.preventDefault();
        void save();
      }}
    >
      <h2>Map the columns of {props.fileName}</h2>
      <p className="muted">
        The station does not know this file&apos;s columns. Pick the column for each field once; the
        mapping is saved in this profile and used for every file with these columns.
      </p>
      <label>
        Mapping name
        <input
          ref={first}
          aria-label="Mapping name"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <div className="mapping-grid">
        {MAPPABLE_COLUMNS.map((c) => (
          <label key={c}>
            <span>
              {words[c]}
              {(REQUIRED_MAPPED_COLUMNS as readonly string[]).includes(c) ? ' *' : ''}
            </span>
            <select
              aria-label={words[c]}
              value={columns[c] ?? ''}
              onChange={(e) =>
                setColumns({ ...columns, [c]: e.target.value === '' ? undefined : e.target.value })
              }
            >
              <option value="">—</option>
              {props.header.map((h) => (
                <option key={h} value={h}>
                  {h}
                </option>
              ))}
            </select>
          </label>
        ))}
        <label>
          <span>Weight unit</span>
          <select
            aria-label="Weight unit"
            value={unit}
            onChange={(e) => setUnit(e.target.value as MappedWeightUnit)}
          >
            {MAPPED_WEIGHT_UNITS.map((u) => (
              <option key={u} value={u}>
                {unitWords[u]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Unit of each row (lb, oz, kg, g)</span>
          <select
            aria-label="Unit of each row"
            value={unitColumn ?? ''}
            onChange={(e) => setUnitColumn(e.target.value === '' ? undefined : e.target.value)}
          >
            <option value="">— (every row in the weight unit)</option>
            {props.header.map((h) => (
              <option key={h} value={h}>
                {h}
              </option>
            ))}
          </select>
        </label>
      </div>
      <button type="submit" disabled={missing.length > 0}>
        Save mapping and import <kbd>Enter</kbd>
      </button>
      {missing.length ? (
        <span className="muted"> Still needed: {missing.map((c) => words[c]).join(', ')}</span>
      ) : null}
    </form>
  );
}
