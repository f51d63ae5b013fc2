import { useEffect, useRef, useState } from 'react';
import { call, getBridge } from '../../bridge';
import { boxProblems, MAX_BOX_SIDE_IN, type BoxField } from '../../../../shared/boxes';
import type { BoxPreset } from '../../../../shared/views';
import { useStation } from '../../store';
import './box-presets.css';

/** A preset as typed: sizes stay text until saved, so "12." can be typed on the way to 12.5. */
interface Draft {
  id: string;
  name: string;
  code: string;
  lengthIn: string;
  widthIn: string;
  heightIn: string;
}

const toDraft = (b: BoxPreset): Draft => ({
  ...b,
  lengthIn: String(b.lengthIn),
  widthIn: String(b.widthIn),
  heightIn: String(b.heightIn),
});
const inches = (v: string) => (v.trim() === '' ? Number.NaN : Number(v.trim().replace(',', '.')));
const toPreset = (d: Draft): BoxPreset => ({
  ...d,
  lengthIn: inches(d.lengthIn),
  widthIn: inches(d.widthIn),
  heightIn: inches(d.heightIn),
});
const sides = [
  ['lengthIn', 'length'],
  ['widthIn', 'width'],
  ['heightIn', 'height'],
] as const;

let nextId = 0;
const newId = () => `box-${Date.now().toString(36)}-${(nextId++).toString(36)}`;

/**
 * Box presets: the boxes of this packing station, each with the code printed on a barcode at
 * the box shelf. Scanning that code on Pack puts the box on the package in hand. The list is
 * checked as a whole (codes unique and scannable, sizes sensible) and saved in one go.
 */
export function BoxPresetsPanel({ saved }: { saved: BoxPreset[] }) {
  // Kept out here: the editor starts again from the saved list each time it changes (a save,
  // or another window), and "Saved 4 box presets." must survive that.
  const [status, setStatus] = useState<string | null>(null);
  const fromSite = useSitePresets();
  return (
    <BoxEditor
      key={JSON.stringify(saved)}
      saved={saved}
      status={status}
      setStatus={setStatus}
      fromSite={fromSite}
    />
  );
}

/**
 * Whether the box presets in use are the site's (site IT sets them for every station; Settings →
 * Site settings can keep this station's own instead). Asked again at each status change, and the
 * presets shown read again when the site's change, so the editor never shows this station's own
 * list while Pack uses the site's.
 */
function useSitePresets(): boolean {
  const hasSite = useStation((s) => Boolean(s.status?.site));
  const loadSettings = useStation((s) => s.loadSettings);
  const [fromSite, setFromSite] = useState(false);
  useEffect(() => {
    if (!hasSite) return;
    let live = true;
    let seen: string | undefined;
    const load = () =>
      void call('siteSettings.get', {}).then((r) => {
        if (!live || !r.ok) return;
        setFromSite(r.value.sources.boxPresets === 'site');
        const now = `${r.value.sources.boxPresets}|${r.value.values?.boxPresets ?? ''}`;
        if (seen !== undefined && seen !== now) void loadSettings();
        seen = now;
      });
    load();
    const off = getBridge().on('status', load);
    return () => {
      live = false;
      off();
    };
  }, [hasSite, loadSettings]);
  return hasSite && fromSite;
}

function BoxEditor({
  saved,
  status,
  setStatus,
  fromSite,
}: {
  saved: BoxPreset[];
  status: string | null;
  setStatus(status: string | null): void;
  fromSite: boolean;
}) {
  const update = useStation((s) => s.updateSettings);
  const [rows, setRows] = useState<Draft[]>(() => saved.map(toDraft));
  const [checked, setChecked] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nameInputs = useRef(new Map<string, HTMLInputElement>());
  const addButton = useRef<HTMLButtonElement>(null);

  const presets = rows.map(toPreset);
  const problems = checked ? boxProblems(presets) : [];
  const problemOf = (index: number, field: BoxField) =>
    problems.find((p) => p.index === index && p.field === field);
  const changed = JSON.stringify(presets) !== JSON.stringify(saved);

  const edit = (id: string, patch: Partial<Draft>) => {
    setRows((r) => r.map((d) => (d.id === id ? { ...d, ...patch } : d)));
    setStatus(null);
    setRefusal(null);
  };
  function add() {
    const id = newId();
    setRows((r) => [...r, { id, name: '', code: '', lengthIn: '', widthIn: '', heightIn: '' }]);
    setStatus(null);
    requestAnimationFrame(() => nameInputs.current.get(id)?.focus());
  }
  function remove(id: string) {
    setRows((r) => r.filter((d) => d.id !== id));
    setStatus(null);
    addButton.current?.focus();
  }
  async function save() {
    setChecked(true);
    setRefusal(null);
    if (boxProblems(presets).length) {
      setStatus(null);
      return;
    }
    setBusy(true);
    const r = await update({ boxes: presets });
    setBusy(false);
    if (!r.ok) return setRefusal(r.error.message);
    setStatus(`Saved ${r.value.boxes.length} box presets.`);
  }

  return (
    <>
      <h2>Box presets</h2>
      <p className="muted small">
        Scan a box&apos;s code on Pack (or press its button) to put it on the package in hand.
        Codes: letters, digits and dashes, each used once. Sizes in inches, up to {MAX_BOX_SIDE_IN}.
      </p>
      {fromSite ? (
        <p className="warn" data-testid="boxes-from-site">
          These are the site&apos;s box presets, the same at every station: site IT changes them
          (npm run site -- setting boxPresets …). To keep this station&apos;s own instead, choose
          Keep this station&apos;s own under Site settings.
        </p>
      ) : null}
      <form
        className="panel box-presets"
        aria-label="Box presets"
        onSubmit={(e) => {
          e.preventDefault();
          if (!fromSite) void save();
        }}
      >
        <fieldset className="box-presets-fields" disabled={fromSite}>
          <table className="grid">
            <colgroup>
              <col className="bp-name" />
              <col className="bp-code" />
              <col className="bp-dims" />
              <col className="bp-actions" />
            </colgroup>
            <thead>
              <tr>
                <th>Name</th>
                <th>Scan code</th>
                <th>L × W × H (in)</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={4} className="placeholder">
                    No box presets: packages are rated without box sizes.
                  </td>
                </tr>
              ) : null}
              {rows.map((d, i) => {
                const n = i + 1;
                const invalid = (field: BoxField) => (problemOf(i, field) ? true : undefined);
                return (
                  <tr key={d.id} data-testid="box-preset">
                    <td>
                      <input
                        ref={(el) => {
                          if (el) nameInputs.current.set(d.id, el);
                          else nameInputs.current.delete(d.id);
                        }}
                        aria-label={`Box ${n} name`}
                        aria-invalid={invalid('name')}
                        placeholder="Medium 12×10×6"
                        value={d.name}
                        onChange={(e) => edit(d.id, { name: e.target.value })}
                      />
                    </td>
                    <td>
                      <input
                        className="code"
                        aria-label={`Box ${n} scan code`}
                        aria-invalid={invalid('code')}
                        placeholder="BOX-M"
                        spellCheck={false}
                        autoCapitalize="characters"
                        value={d.code}
                        onChange={(e) => edit(d.id, { code: e.target.value })}
                      />
                    </td>
                    <td className="dims">
                      {sides.map(([field, word], k) => (
                        <span key={field}>
                          {k > 0 ? <span className="times">×</span> : null}
                          <input
                            aria-label={`Box ${n} ${word} in inches`}
                            aria-invalid={invalid(field)}
                            inputMode="decimal"
                            placeholder={word[0]!.toUpperCase()}
                            value={d[field]}
                            onChange={(e) => edit(d.id, { [field]: e.target.value })}
                          />
                        </span>
                      ))}
                    </td>
                    <td className="actions">
                      <button
                        type="button"
                        aria-label={`Remove box ${n}${d.name ? ` (${d.name})` : ''}`}
                        title="Remove this box"
                        onClick={() => remove(d.id)}
                      >
                        <span className="bp-remove-word">Remove</span>
                        <span className="bp-remove-x" aria-hidden="true">
                          ✕
                        </span>
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <div className="row">
            <button type="button" ref={addButton} onClick={add} disabled={rows.length >= 100}>
              Add box
            </button>
            <button type="submit" disabled={busy || !changed}>
              Save box presets
            </button>
            {changed ? (
              <button
                type="button"
                onClick={() => {
                  setRows(saved.map(toDraft));
                  setChecked(false);
                  setRefusal(null);
                }}
              >
                Undo changes
              </button>
            ) : null}
            <span className="muted" role="status" data-testid="boxes-status">
              {status ?? (changed ? 'Unsaved changes' : '')}
            </span>
          </div>
          {problems.length || refusal ? (
            <div className="box-problems" role="alert" data-testid="box-problems">
              <b>Not saved:</b>
              <ul>
                {refusal ? <li>{refusal}</li> : null}
                {problems.map((p) => (
                  <li key={`${p.index}.${p.field}`}>{p.message}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </fieldset>
      </form>
    </>
  );
}
