import { useState } from 'react';
import { call } from '../../bridge';
import { ConfirmPanel } from '../../components/ConfirmPanel';
import { PrinterEdit } from './PrinterEdit';
import { useStation } from '../../store';
import type { DiscoveredPrinter, PrinterConfig } from '../../../../shared/views';
import { printerAddress, roleOf, type PrinterRole } from '../../../../shared/printers';
import './printers.css';

const roleWords: Record<PrinterRole, string> = {
  label: 'labels',
  receipt: 'receipts (packing slips)',
};

/**
 * The question before removing the label printer: where labels go then. The station gives them
 * to the profile's next label printer (labelPrinterOf), so that one is named, with its
 * resolution; with none left, labels bought have no printer until one is added.
 */
function labelPrinterQuestion(removing: PrinterConfig, printers: PrinterConfig[]): string {
  const ask = `Remove ${removing.name} (${printerAddress(removing)}), this station's label printer?`;
  const next = printers.find((p) => p.id !== removing.id && roleOf(p) === 'label');
  if (!next)
    return `${ask} It is the only label printer of this profile: labels bought after this have no printer to print on until you add one.`;
  return `${ask} Labels then go to ${next.name} (${printerAddress(next)}, ${next.dpi ?? 203} dpi) at once; to send them to another printer, press its "Use for labels" first.`;
}

/** A typed address form for network printers, the printers of the profile, discovery. */
export function PrintersPanel() {
  const profile = useStation((s) => s.status?.profile ?? null);
  const notify = useStation((s) => s.notify);
  const refreshStatus = useStation((s) => s.refreshStatus);
  const loadProfiles = useStation((s) => s.loadProfiles);
  const [found, setFound] = useState<DiscoveredPrinter[] | null>(null);
  /** What discovery could not look at (no USB access, no print system, an address silent). */
  const [foundNotes, setFoundNotes] = useState<string[]>([]);
  const [form, setForm] = useState({
    name: '',
    host: '',
    port: '9100',
    dpi: '203',
    role: 'label' as PrinterRole,
  });
  const [formError, setFormError] = useState<string | null>(null);
  const [formNote, setFormNote] = useState<string | null>(null);
  // Removing a printer is asked in the page first (the label printer above all: the question
  // says which printer takes the labels then, or that none is left).
  const [removing, setRemoving] = useState<PrinterConfig | null>(null);
  // The printer whose name and address are being changed in its row (Edit).
  const [editing, setEditing] = useState<string | null>(null);
  if (!profile) return null;

  async function after() {
    await refreshStatus();
    await loadProfiles();
  }
  async function save(printers: PrinterConfig[], defaultPrinterId = profile!.defaultPrinterId) {
    const r = await call('profiles.update', { id: profile!.id, printers, defaultPrinterId });
    if (!r.ok) notify('error', r.error.message);
    await after();
  }
  async function add() {
    setFormError(null);
    setFormNote(null);
    const port = Number(form.port);
    const r = await call('printers.add', {
      name: form.name.trim() || form.host.trim(),
      host: form.host.trim(),
      port: form.port.trim() === '' ? 9100 : port,
      dpi: Number(form.dpi) as 203 | 300 | 600,
      role: form.role,
    });
    if (!r.ok) {
      setFormError(r.error.message);
      return;
    }
    // Added; a host name the network does not know now is said beside the form until the next.
    setFormNote(r.value.printerNote ?? null);
    notify('ok', `Printer ${form.name.trim() || form.host.trim()} added.`);
    setForm({ name: '', host: '', port: '9100', dpi: form.dpi, role: 'label' });
    await after();
  }
  async function remove(p: PrinterConfig) {
    const r = await call('printers.remove', { printerId: p.id });
    notify(r.ok ? 'ok' : 'error', r.ok ? `Printer ${p.name} removed.` : r.error.message);
    await after();
  }
  async function discover() {
    setFound(null);
    setFoundNotes([]);
    const r = await call('printers.discover', {});
    if (r.ok) {
      setFound(r.value.printers);
      setFoundNotes(r.value.notes);
    } else notify('error', r.error.message);
  }
  async function testPrint(printerId: string) {
    const r = await call('printers.testPrint', { printerId });
    const stuck = r.ok && (r.value.state === 'failed' || r.value.state === 'unknown');
    const bad = !r.ok || stuck || r.value.warnings.length > 0;
    const outcome = r.ok
      ? r.value.state === 'printed'
        ? `Test page printed on ${r.value.printerName}.`
        : stuck
          ? `Test page on ${r.value.printerName}: ${r.value.lastError ?? 'it did not print'}`
          : `Test page sent to ${r.value.printerName}: check that it came out.`
      : r.error.message;
    // The printer's own resolution differs from its setting: said with the outcome.
    notify(bad ? 'error' : 'ok', [outcome, ...(r.ok ? r.value.warnings : [])].join(' '));
  }

  return (
    <>
      <h2>Printers</h2>
      <table className="grid" data-testid="printers">
        <tbody>
          {profile.printers.length === 0 ? (
            <tr>
              <td className="muted">No printer yet: add one by its address below.</td>
            </tr>
          ) : null}
          {profile.printers.map((p) =>
            editing === p.id ? (
              // Edit: the row is the printer's fields, across its columns.
              <tr key={p.id} data-testid={`printer-${p.id}`}>
                <td colSpan={3}>
                  <PrinterEdit
                    profileId={profile.id}
                    printer={p}
                    printers={profile.printers}
                    onDone={async () => {
                      setEditing(null);
                      await after();
                      // The keyboard goes back to the row's Edit, not to nothing.
                      document
                        .querySelector<HTMLButtonElement>(
                          `[data-testid="printer-${p.id}"] button[data-edit]`,
                        )
                        ?.focus();
                    }}
                  />
                </td>
              </tr>
            ) : (
              <tr key={p.id} data-testid={`printer-${p.id}`}>
                <td>
                  <b>{p.name}</b>
                  <div className="muted small">
                    {printerAddress(p)} · {roleWords[roleOf(p)]}
                  </div>
                </td>
                <td>
                  <select
                    aria-label={`DPI of ${p.name}`}
                    value={p.dpi ?? 203}
                    onChange={(e) =>
                      void save(
                        profile.printers.map((x) =>
                          x.id === p.id
                            ? { ...x, dpi: Number(e.target.value) as PrinterConfig['dpi'] }
                            : x,
                        ),
                      )
                    }
                  >
                    <option value={203}>203 dpi</option>
                    <option value={300}>300 dpi</option>
                    <option value={600}>600 dpi</option>
                  </select>
                </td>
                <td className="actions">
                  {roleOf(p) === 'receipt' ? (
                    <span className="chip">receipts</span>
                  ) : profile.defaultPrinterId === p.id ? (
                    <span className="chip on">labels</span>
                  ) : (
                    <button onClick={() => void save(profile.printers, p.id)}>
                      Use for labels
                    </button>
                  )}
                  <button aria-label={`Edit ${p.name}`} data-edit onClick={() => setEditing(p.id)}>
                    Edit
                  </button>
                  <button onClick={() => void testPrint(p.id)}>Test print</button>
                  <button aria-label={`Remove ${p.name}`} onClick={() => setRemoving(p)}>
                    Remove
                  </button>
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
      {removing ? (
        <ConfirmPanel
          label={`Confirm removing ${removing.name}`}
          question={
            profile.defaultPrinterId === removing.id
              ? labelPrinterQuestion(removing, profile.printers)
              : `Remove ${removing.name} (${printerAddress(removing)}) from this profile?`
          }
          confirmText={`Remove ${removing.name}`}
          onConfirm={() => {
            const p = removing;
            setRemoving(null);
            void remove(p);
          }}
          onCancel={() => setRemoving(null)}
        />
      ) : null}

      <form
        className="add-printer"
        aria-label="Add printer by address"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <h3>Add printer by address</h3>
        <div className="add-printer-fields">
          <label>
            Name
            <input
              value={form.name}
              placeholder="ZD421 left"
              maxLength={100}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
            />
          </label>
          <label>
            Host or IP
            <input
              value={form.host}
              placeholder="10.1.4.20"
              required
              onChange={(e) => setForm({ ...form, host: e.target.value })}
            />
          </label>
          <label>
            Port
            <input
              value={form.port}
              inputMode="numeric"
              className="port"
              onChange={(e) => setForm({ ...form, port: e.target.value })}
            />
          </label>
          <label>
            DPI
            <select value={form.dpi} onChange={(e) => setForm({ ...form, dpi: e.target.value })}>
              <option value="203">203</option>
              <option value="300">300</option>
              <option value="600">600</option>
            </select>
          </label>
          <label>
            Role
            <select
              value={form.role}
              onChange={(e) => setForm({ ...form, role: e.target.value as PrinterRole })}
            >
              <option value="label">Label printer (ZPL)</option>
              <option value="receipt">Receipt printer (packing slips)</option>
            </select>
          </label>
          <button type="submit">Add printer</button>
        </div>
        {formError ? (
          <p className="form-error" role="alert">
            {formError}
          </p>
        ) : null}
        {formNote ? (
          <p className="banner" role="status" data-testid="printer-add-note">
            Added, but: {formNote}
          </p>
        ) : null}
      </form>

      <button onClick={() => void discover()}>Discover printers</button>
      {found ? (
        <ul className="found">
          {found.length === 0 ? (
            <li className="muted">No USB printer or print queue found on this computer.</li>
          ) : null}
          {found.map((d) => (
            <li key={`${d.printer.kind}:${d.address}`}>
              {d.name} <span className="muted">({d.address})</span>{' '}
              {profile.printers.some((p) => printerAddress(p) === d.address) ? (
                <span className="chip on">set up</span>
              ) : (
                <button
                  onClick={() =>
                    void save([
                      ...profile.printers,
                      {
                        ...d.printer,
                        id: `${d.printer.kind}-${d.address}`.replace(/[^a-zA-Z0-9_.-]/g, '-'),
                        name: d.name,
                      },
                    ])
                  }
                >
                  Add
                </button>
              )}
            </li>
          ))}
          {foundNotes.map((n) => (
            <li key={n} className="muted" data-testid="discovery-note">
              {n}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
