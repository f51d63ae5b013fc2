import { useEffect, useRef, useState } from 'react';
import { call } from '../../bridge';
import { useStation } from '../../store';
import { BrandChecks } from './BrandChecks';
import type { Environment, ShippingSiteView, TenantNode } from '../../../../shared/views';

function flatten(nodes: TenantNode[], depth = 0): { node: TenantNode; depth: number }[] {
  return nodes.flatMap((n) => [{ node: n, depth }, ...flatten(n.children, depth + 1)]);
}

/**
 * A new site profile: credentials first, then the tenant and shipping-site pickers are filled
 * from the platform itself, so nobody types an id by hand. The secret is sent once to the host,
 * which stores it in the keychain; it is never shown again.
 */
export function NewProfile(props: { onDone(): void }) {
  const notify = useStation((s) => s.notify);
  const [form, setForm] = useState({
    name: '',
    environment: 'sandbox' as Environment,
    baseUrl: '',
    clientId: '',
    clientSecret: '',
    keyTenantId: '',
  });
  const [tenants, setTenants] = useState<TenantNode[] | null>(null);
  const [tenantId, setTenantId] = useState('');
  const [sites, setSites] = useState<ShippingSiteView[] | null>(null);
  const [siteId, setSiteId] = useState('');
  const [brands, setBrands] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const creds = {
    environment: form.environment,
    baseUrl: form.baseUrl,
    clientId: form.clientId,
    clientSecret: form.clientSecret,
    // Left empty, the station asks for a token without a tenant: the key's own tenant.
    ...(form.keyTenantId.trim() ? { tenantId: form.keyTenantId.trim() } : {}),
  };

  async function loadTenants() {
    setError(null);
    const r = await call('profiles.tenants', creds);
    if (!r.ok) return setError(r.error.message);
    setTenants(r.value);
    const first = r.value[0]?.tenantId ?? '';
    setTenantId(first);
    if (first) await loadSites(first);
  }
  async function loadSites(tenant: string) {
    setSites(null);
    const r = await call('profiles.sites', { ...creds, tenantId: tenant });
    if (!r.ok) return setError(r.error.message);
    setSites(r.value);
    setSiteId(r.value[0]?.id ?? '');
  }
  async function create() {
    setError(null);
    const r = await call('profiles.create', {
      ...creds,
      name: form.name,
      tenantId,
      shippingSiteId: siteId,
      brandTenantIds: brands,
      activate: true,
    });
    if (!r.ok) return setError(r.error.message);
    notify('ok', `Profile ${r.value.name} created and active.`);
    props.onDone();
    // The form (and its button, which had the keyboard) is gone: the view takes the keyboard,
    // not the page's body.
    requestAnimationFrame(() => {
      if (document.activeElement === document.body)
        document.querySelector<HTMLElement>('main')?.focus();
    });
  }
  // Opened (by keyboard too), the form takes the focus into its first field.
  const nameField = useRef<HTMLInputElement>(null);
  useEffect(() => nameField.current?.focus(), []);
  const field = (key: keyof typeof form, label: string, type = 'text') => (
    <label>
      {label}
      <input
        ref={key === 'name' ? nameField : undefined}
        type={type}
        aria-label={label}
        value={form[key]}
        autoComplete="off"
        onChange={(e) => {
          setForm({ ...form, [key]: e.target.value });
          setTenants(null);
        }}
      />
    </label>
  );
  const flat = tenants ? flatten(tenants) : [];
  const selectedTenant = flat.find((t) => t.node.tenantId === tenantId)?.node;
  return (
    <div className="panel form" data-testid="new-profile">
      <h3>New profile</h3>
      {field('name', 'Profile name')}
      <label>
        Environment
        <select
          aria-label="Environment"
          value={form.environment}
          onChange={(e) => setForm({ ...form, environment: e.target.value as Environment })}
        >
          <option value="sandbox">Sandbox</option>
          <option value="production">Production</option>
        </select>
      </label>
      {field('baseUrl', 'Base URL')}
      {field('clientId', 'Client ID')}
      {field('clientSecret', 'Client secret', 'password')}
      {field('keyTenantId', "API key's tenant ID (optional: found from the key)")}
      <button
        onClick={() => void loadTenants()}
        disabled={!form.baseUrl || !form.clientId || !form.clientSecret}
      >
        Connect and load tenants
      </button>
      {tenants ? (
        <>
          <label>
            Tenant
            <select
              aria-label="Tenant"
              value={tenantId}
              onChange={(e) => {
                setTenantId(e.target.value);
                void loadSites(e.target.value);
              }}
            >
              {flat.map(({ node, depth }) => (
                <option key={node.tenantId} value={node.tenantId}>
                  {'\u00a0'.repeat(depth * 3)}
                  {node.name} ({node.type})
                </option>
              ))}
            </select>
          </label>
          {selectedTenant?.children.length ? (
            <BrandChecks options={selectedTenant.children} chosen={brands} onChange={setBrands}>
              {brands.length === 0 ? (
                // Created as it is, orders of the brands are refused at import (and a profile's
                // brands are set here, at creation, or by a provisioning file).
                <p className="warn" data-testid="no-brands">
                  No brand ticked: this profile ships only {selectedTenant.name}&apos;s own orders,
                  and an order file of a brand is refused. Tick each brand this station packs for.
                </p>
              ) : null}
            </BrandChecks>
          ) : null}
          <label>
            Shipping site
            <select
              aria-label="Shipping site"
              value={siteId}
              onChange={(e) => setSiteId(e.target.value)}
            >
              {(sites ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          {sites && sites.length === 0 ? (
            // A brand of a 3PL ships from the 3PL's warehouses: its own tenant has no site.
            <p className="muted" data-testid="no-sites">
              {(() => {
                const parent = flat.find(({ node }) =>
                  node.children.some((c) => c.tenantId === tenantId),
                )?.node;
                const name = selectedTenant?.name ?? tenantId;
                return parent
                  ? `${name} has no shipping site of its own: its orders ship from ${parent.name}'s. Pick ${parent.name} as the tenant, then tick ${name} under "Brands this station ships for".`
                  : `${name} has no shipping site on the platform yet: the profile needs one (site IT creates it on the platform), or pick another tenant.`;
              })()}
            </p>
          ) : null}
          <button
            className="primary"
            onClick={() => void create()}
            disabled={!form.name || !tenantId || !siteId}
            title={
              !form.name ? 'Give the profile a name' : !siteId ? 'Pick a shipping site' : undefined
            }
          >
            Create profile
          </button>
        </>
      ) : null}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
