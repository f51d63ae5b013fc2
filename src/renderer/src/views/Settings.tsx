import { useEffect, useState, type InputHTMLAttributes } from 'react';
import { call } from '../bridge';
import { ConfirmPanel } from '../components/ConfirmPanel';
import { useStation } from '../store';
import { NewProfile } from './settings/NewProfile';
import { ProfileBrands } from './settings/ProfileBrands';
import { BoxPresetsPanel } from './settings/BoxPresets';
import { PrintersPanel } from './settings/Printers';
import { ScalePanel } from './settings/Scale';
import { StationPanel } from './settings/Station';
import { SiteStorePanel } from './site/SiteStorePanel';
import { SiteSettingsPanel } from './site/SiteSettingsPanel';

export function SettingsView() {
  const profiles = useStation((s) => s.profiles);
  const settings = useStation((s) => s.settings);
  const active = useStation((s) => s.status?.profile ?? null);
  const secretStorage = useStation(
    (s) => s.status?.secretStorage ?? 'held in memory for this run only',
  );
  const loadProfiles = useStation((s) => s.loadProfiles);
  const refreshStatus = useStation((s) => s.refreshStatus);
  const notify = useStation((s) => s.notify);
  const [creating, setCreating] = useState(false);
  const [importText, setImportText] = useState<string | null>(null);
  const [importName, setImportName] = useState('');
  /** The profile whose secret is being replaced (a masked field in its row). */
  const [secretFor, setSecretFor] = useState<string | null>(null);
  const [secretBusy, setSecretBusy] = useState(false);
  /** The profile being renamed (a field in its row: Electron has no window.prompt). */
  const [renaming, setRenaming] = useState<string | null>(null);
  /** The profile whose removal is being asked (in the page). */
  const [removing, setRemoving] = useState<string | null>(null);
  const [brandsFor, setBrandsFor] = useState<string | null>(null);
  useEffect(() => void loadProfiles(), [loadProfiles]);

  const after = async () => {
    await loadProfiles();
    await refreshStatus();
  };

  async function activate(id: string) {
    const r = await call('profiles.activate', { id });
    if (!r.ok) notify('error', r.error.message);
    await after();
  }
  async function exportProfile(id: string) {
    const r = await call('profiles.export', { id });
    if (!r.ok) return notify('error', r.error.message);
    const url = URL.createObjectURL(new Blob([r.value.json], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = r.value.fileName;
    a.click();
    URL.revokeObjectURL(url);
  }
  async function rename(id: string, current: string, typed: string) {
    const name = typed.trim();
    if (!name || name === current) return setRenaming(null);
    const r = await call('profiles.update', { id, name });
    if (!r.ok) return notify('error', r.error.message);
    setRenaming(null);
    await after();
  }
  async function setSecret(id: string, secret: string) {
    if (!secret) return;
    setSecretBusy(true);
    // Checked with the platform first: a secret it refuses is not stored.
    const r = await call('profiles.setSecret', { id, clientSecret: secret });
    setSecretBusy(false);
    notify(
      r.ok && !r.value.warning ? 'ok' : 'error',
      r.ok ? (r.value.warning ?? 'Secret checked with the platform and stored.') : r.error.message,
    );
    if (r.ok) setSecretFor(null);
    await after();
  }
  async function removeProfile(id: string) {
    setRemoving(null);
    const r = await call('profiles.remove', { id });
    notify(
      r.ok ? 'ok' : 'error',
      r.ok ? `Profile ${r.value.removed} removed from this station.` : r.error.message,
    );
    await after();
  }
  async function provision() {
    if (!importText) return;
    const r = await call('profiles.provision', { json: importText });
    notify(r.ok ? 'ok' : 'error', r.ok ? `Profile ${r.value.name} provisioned.` : r.error.message);
    setImportText(null);
    await after();
  }

  return (
    <section className="settings">
      <div className="settings-col">
        <h1>Profiles</h1>
        <table className="grid" data-testid="profiles">
          <tbody>
            {profiles.map((p) => (
              <tr key={p.id} className={p.active ? 'selected' : ''}>
                <td>
                  <b>{p.name}</b>
                  <div className="muted small">
                    {p.environment} · {p.baseUrl} · tenant {p.tenantName ?? p.tenantId} · site{' '}
                    {p.siteName ?? p.shippingSiteId}
                  </div>
                  <div className="muted small">
                    client {p.clientId} · secret{' '}
                    {p.hasSecret
                      ? (p.secretSource ?? 'set')
                      : `missing: use Replace secret (it will be ${secretStorage})`}
                  </div>
                </td>
                <td className="actions">
                  {p.active ? (
                    <span className="chip on">active</span>
                  ) : (
                    <button onClick={() => void activate(p.id)}>Use</button>
                  )}
                  <button onClick={() => setRenaming(renaming === p.id ? null : p.id)}>
                    Rename
                  </button>
                  <button onClick={() => void exportProfile(p.id)}>Export</button>
                  <button onClick={() => setSecretFor(secretFor === p.id ? null : p.id)}>
                    Replace secret
                  </button>
                  <button
                    aria-label={`Brands of ${p.name}`}
                    title={
                      p.brands.length
                        ? `Ships for ${p.brands.map((b) => b.name).join(', ')}`
                        : 'A 3PL: the brands this station ships for'
                    }
                    onClick={() => setBrandsFor(brandsFor === p.id ? null : p.id)}
                  >
                    Brands
                  </button>
                  {p.active ? null : (
                    <button aria-label={`Remove ${p.name}`} onClick={() => setRemoving(p.id)}>
                      Remove
                    </button>
                  )}
                  {removing === p.id ? (
                    <ConfirmPanel
                      label={`Confirm removing ${p.name}`}
                      question={`Remove the profile ${p.name} from this station, with its client secret? Its labels stay in the station's database (History finds them again if the profile is provisioned again).`}
                      confirmText={`Remove ${p.name}`}
                      onConfirm={() => void removeProfile(p.id)}
                      onCancel={() => setRemoving(null)}
                    />
                  ) : null}
                  {renaming === p.id ? (
                    <RowField
                      label={`New name for ${p.name}`}
                      submit="Save name"
                      input={{ defaultValue: p.name, maxLength: 100 }}
                      onSubmit={(value) => void rename(p.id, p.name, value)}
                      onClose={() => setRenaming(null)}
                    />
                  ) : null}
                  {brandsFor === p.id ? (
                    <ProfileBrands
                      profile={p}
                      onClose={() => setBrandsFor(null)}
                      onSaved={() => {
                        setBrandsFor(null);
                        void after();
                      }}
                    />
                  ) : null}
                  {secretFor === p.id ? (
                    <RowField
                      label={`New client secret for ${p.name}`}
                      submit={secretBusy ? 'Checking…' : 'Check and store'}
                      busy={secretBusy}
                      input={{
                        type: 'password',
                        autoComplete: 'new-password',
                        placeholder: 'New client secret',
                      }}
                      onSubmit={(value) => void setSecret(p.id, value)}
                      onClose={() => setSecretFor(null)}
                    />
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="row">
          <button onClick={() => setCreating(!creating)}>
            {creating ? 'Close' : 'New profile…'}
          </button>
          <label className="file">
            Provision from file…
            <input
              type="file"
              accept="application/json,.json"
              aria-label="Provisioning file"
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (!f) return;
                setImportName(f.name);
                void f.text().then(setImportText);
                e.target.value = '';
              }}
            />
          </label>
          {importText ? <button onClick={() => void provision()}>Apply {importName}</button> : null}
        </div>
        {creating ? (
          <NewProfile
            onDone={() => {
              setCreating(false);
              void after();
            }}
          />
        ) : null}
        <PrintersPanel />
        {settings ? <ScalePanel settings={settings} /> : null}
        {settings ? <BoxPresetsPanel saved={settings.boxes} /> : null}
      </div>
      <div className="settings-col">
        {/* Remounted when the active profile (or its saved rule) changes, so the form starts from it. */}
        <StationPanel
          key={
            active ? `${active.id}:${JSON.stringify(active.rateRule)}:${active.hotFolder}` : 'none'
          }
        />
        <SiteStorePanel />
        <SiteSettingsPanel />
      </div>
    </section>
  );
}

/** One field in a profile's row (its new name, its new secret): Enter sends it, Escape closes. */
function RowField(props: {
  label: string;
  submit: string;
  busy?: boolean;
  input: InputHTMLAttributes<HTMLInputElement>;
  onSubmit(value: string): void;
  onClose(): void;
}) {
  return (
    <form
      className="replace-secret"
      onSubmit={(e) => {
        e.preventDefault();
        const input = e.currentTarget.elements.namedItem('value') as HTMLInputElement;
        props.onSubmit(input.value);
      }}
    >
      <input
        {...props.input}
        name="value"
        autoFocus
        aria-label={props.label}
        onKeyDown={(e) => {
          if (e.key === 'Escape') props.onClose();
        }}
      />
      <button type="submit" disabled={props.busy}>
        {props.submit}
      </button>
    </form>
  );
}
