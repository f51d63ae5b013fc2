import { useState } from 'react';
import { call } from '../../bridge';
import { useStation } from '../../store';
import type { PrinterConfig } from '../../../../shared/views';
import { printerAddress, printerHostSchema, printerPortSchema } from '../../../../shared/printers';

/**
 * Settings → Printers → Edit: a printer's name and, for a network printer, its host and port,
 * changed in place. The printer keeps its id, so the labels waiting for it (a printer moved to
 * another address) go to the new address; Enter saves, Esc leaves it as it was.
 */
export function PrinterEdit(props: {
  profileId: string;
  printer: PrinterConfig;
  printers: PrinterConfig[];
  onDone(): Promise<void>;
}) {
  const { printer } = props;
  const notify = useStation((s) => s.notify);
  const network = printer.kind === 'network';
  const [name, setName] = useState(printer.name);
  const [host, setHost] = useState(printer.host ?? '');
  const [port, setPort] = useState(String(printer.port ?? 9100));
  const [error, setError] = useState<string | null>(null);

  function edited(): PrinterConfig | string {
    const named = name.trim();
    if (!named) return 'Name: give the printer a name.';
    if (!network) return { ...printer, name: named };
    const h = printerHostSchema.safeParse(host.trim());
    if (!h.success) return `Host or IP: ${h.error.issues[0]?.message ?? 'not an address'}`;
    const p = printerPortSchema.safeParse(port.trim() === '' ? 9100 : Number(port));
    if (!p.success) return `Port: ${p.error.issues[0]?.message ?? 'not a port'}`;
    const next = { ...printer, name: named, host: h.data, port: p.data };
    const same = props.printers.find(
      (x) =>
        x.id !== printer.id &&
        x.kind === 'network' &&
        x.host?.toLowerCase() === next.host.toLowerCase() &&
        (x.port ?? 9100) === next.port,
    );
    if (same) return `${printerAddress(next)} is already set up as printer "${same.name}".`;
    return next;
  }

  async function save() {
    const next = edited();
    if (typeof next === 'string') {
      setError(next);
      return;
    }
    const r = await call('profiles.update', {
      id: props.profileId,
      printers: props.printers.map((x) => (x.id === printer.id ? next : x)),
    });
    if (!r.ok) {
      setError(r.error.message);
      return;
    }
    const moved = printerAddress(next) !== printerAddress(printer);
    notify(
      'ok',
      `Printer ${next.name} saved${moved ? `: its labels now go to ${printerAddress(next)}` : ''}.`,
    );
    await props.onDone();
  }

  return (
    <form
      className="printer-edit"
      aria-label={`Edit printer ${printer.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          void props.onDone();
        }
      }}
    >
      <label>
        Name
        <input value={name} autoFocus onChange={(e) => setName(e.target.value)} />
      </label>
      {network ? (
        <>
          <label>
            Host or IP
            <input value={host} onChange={(e) => setHost(e.target.value)} />
          </label>
          <label>
            Port
            <input
              className="port"
              inputMode="numeric"
              value={port}
              onChange={(e) => setPort(e.target.value)}
            />
          </label>
        </>
      ) : null}
      <button type="submit">Save</button>
      <button type="button" onClick={() => void props.onDone()}>
        Cancel
      </button>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
