import { useEffect, useRef, useState } from 'react';
import { call } from '../../bridge';
import { useStation } from '../../store';
import { BrandChecks } from './BrandChecks';
import type { ProfileView, TenantNode } from '../../../../shared/views';

/**
 * A 3PL profile's brands after it was made (a new merchant signed): the tenants under its tenant
 * as the platform lists them, ticked for the ones this station ships for. Esc closes it.
 */
export function ProfileBrands(props: { profile: ProfileView; onClose(): void; onSaved(): void }) {
  const { profile } = props;
  const notify = useStation((s) => s.notify);
  const [options, setOptions] = useState<TenantNode[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLFormElement>(null);

  useEffect(() => {
    void call('profiles.brands', { id: profile.id }).then((r) => {
      if (!r.ok) return setProblem(r.error.message);
      setOptions(r.value.options);
      setChosen(r.value.chosen);
      requestAnimationFrame(() =>
        box.current?.querySelector<HTMLInputElement>('input[type=checkbox]')?.focus(),
      );
    });
  }, [profile.id]);

  async function save() {
    setBusy(true);
    const r = await call('profiles.setBrands', { id: profile.id, brandTenantIds: chosen });
    setBusy(false);
    if (!r.ok) return notify('error', r.error.message);
    const names = r.value.brands.map((b) => b.name);
    notify(
      'ok',
      `${profile.name} ships for ${names.length ? names.join(', ') : 'no brand'}${names.length ? '' : ` (only ${profile.tenantName ?? profile.tenantId}'s own orders)`}.`,
    );
    props.onSaved();
  }

  return (
    <form
      ref={box}
      className="replace-secret profile-brands"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') props.onClose();
      }}
    >
      {problem ? (
        <p className="warn" role="alert">
          {problem}
        </p>
      ) : !options ? (
        <p className="muted">
          Asking the platform for the brands under {profile.tenantName ?? profile.tenantId}…
        </p>
      ) : options.length === 0 ? (
        <p className="muted">
          {profile.tenantName ?? profile.tenantId} has no brands under it on the platform: this
          profile ships its own orders.
        </p>
      ) : (
        <BrandChecks
          label={`Brands of ${profile.name}`}
          options={options}
          chosen={chosen}
          onChange={setChosen}
        />
      )}
      {options?.length ? (
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save brands'}
        </button>
      ) : null}
      <button type="button" onClick={props.onClose}>
        Close
      </button>
    </form>
  );
}
