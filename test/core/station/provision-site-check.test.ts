import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/tmp.js';
import { Redactor } from '../../../src/core/logging/redact.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { call, demoStation, demoStationsPerTest, until, type Sandbox } from './support.js';

const stations = demoStationsPerTest();
const external = useSandbox();

/** The demo profile as a provisioning file, and the demo brand's full-access key. */
async function demoFile(s: Station, sandbox: Sandbox) {
  const demo = (await call(s, 'station.status', {})).profile!;
  const file = JSON.parse((await call(s, 'profiles.export', { id: demo.id })).json) as {
    profiles: Record<string, unknown>[];
  };
  const key = sandbox.fixtures.apiClients.find((c) => c.clientId === 'demo-lumen-full')!;
  return { demo, file, profile: file.profiles[0]!, key };
}

async function sitesOf(s: Station): Promise<Record<string, string | null>> {
  const list = await call(s, 'profiles.list', {});
  return Object.fromEntries(list.map((p) => [p.id, p.shippingSiteId]));
}

describe('a shipping site the platform does not list (site IT)', () => {
  it('a provisioning file naming it is refused before anything is saved, with the sites there are', async () => {
    const { s, sandbox } = await stations.start();
    const { file, profile, key } = await demoFile(s, sandbox());
    const before = await sitesOf(s);

    // The profile this station runs on, with a mistyped site.
    profile.shippingSiteId = 'site_lumen_chicgo';
    const again = await s.dispatch('profiles.provision', { json: JSON.stringify(file) });
    expect(again).toMatchObject({ ok: false, error: { code: 'validation' } });
    if (again.ok) return;
    expect(again.error.message).toMatch(/shippingSiteId/);
    expect(again.error.message).toMatch(/site_lumen_chicgo|is not one of tenant tnt_lumen/);
    expect(again.error.message).toMatch(/site_lumen_chicago \(Lumen Chicago Workshop\)/);

    // A new profile on the same platform, the secret typed at the station.
    Object.assign(profile, { id: 'dock-2', name: 'Dock 2', baseUrl: sandbox().url });
    const added = await s.dispatch('profiles.provision', {
      json: JSON.stringify(file),
      clientSecret: key.clientSecret,
    });
    expect(added).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(!added.ok && added.error.message).toMatch(/is not one of tenant tnt_lumen/);

    // Nothing of either was saved.
    expect(await sitesOf(s)).toEqual(before);

    // Put right, the same file is taken.
    profile.shippingSiteId = 'site_lumen_chicago';
    await call(s, 'profiles.provision', {
      json: JSON.stringify(file),
      clientSecret: key.clientSecret,
    });
    expect((await sitesOf(s))['dock-2']).toBe('site_lumen_chicago');
  });

  it('a file provisioned again unchanged asks the platform nothing; a change of site is asked', async () => {
    const { s, sandbox } = await stations.start();
    const { file, profile, key } = await demoFile(s, sandbox());
    Object.assign(profile, { id: 'dock-3', name: 'Dock 3', baseUrl: sandbox().url });
    const json = () => JSON.stringify(file);
    await call(s, 'profiles.provision', { json: json(), clientSecret: key.clientSecret });

    // From now on the platform refuses the site list: only a profile that is asked notices.
    sandbox().faults.add({
      method: 'GET',
      path: '/api/v1/shippingSites',
      kind: 'status',
      status: 403,
    });
    await call(s, 'profiles.provision', { json: json() });
    profile.shippingSiteId = 'site_lumen_elsewhere';
    const moved = await s.dispatch('profiles.provision', { json: json() });
    expect(moved).toMatchObject({ ok: false, error: { code: 'validation' } });
    // (refused as a tenant the key may not act for: said of the tenant, not of the site)
    expect(!moved.ok && moved.error.message).toMatch(
      /profiles\[0\]\.tenantId tnt_lumen is not a tenant client demo-lumen-full may act for/,
    );
    expect((await sitesOf(s))['dock-3']).toBe('site_lumen_chicago');
  });

  it('a platform that cannot be reached does not stop provisioning: the first rating checks', async () => {
    const { s, sandbox } = await stations.start();
    const { file, profile, key } = await demoFile(s, sandbox());
    Object.assign(profile, {
      id: 'far-dock',
      name: 'Far dock',
      baseUrl: 'http://127.0.0.1:9',
      shippingSiteId: 'site_somewhere',
    });
    await call(s, 'profiles.provision', {
      json: JSON.stringify(file),
      clientSecret: key.clientSecret,
    });
    expect((await sitesOf(s))['far-dock']).toBe('site_somewhere');
  });

  it('a change of site in Settings to one the tenant does not have is refused; the profile keeps its own', async () => {
    const { s } = await stations.start();
    const changed = await s.dispatch('profiles.update', {
      id: 'demo',
      shippingSiteId: 'site_harbor_edison',
    });
    expect(changed).toMatchObject({ ok: false, error: { code: 'validation' } });
    if (changed.ok) return;
    expect(changed.error.message).toMatch(
      /^Shipping site site_harbor_edison is not one of tenant tnt_lumen's shipping sites on the platform at http:\/\/127\.0\.0\.1:\d+: it has site_lumen_chicago \(Lumen Chicago Workshop\)\. The profile keeps site_lumen_chicago\.$/,
    );
    expect((await sitesOf(s)).demo).toBe('site_lumen_chicago');
  });

  it('a file given on the command line with a wrong site stops the start and says why', async () => {
    const key = external.sandbox.fixtures.apiClients.find((c) => c.clientId === 'demo-lumen-full')!;
    const dir = tempDir();
    const file = join(dir, 'dock.station-profile.json');
    writeFileSync(
      file,
      JSON.stringify({
        format: 'shipping-station-profiles',
        version: 1,
        profiles: [
          {
            id: 'dock-9',
            name: 'Dock 9',
            environment: 'sandbox',
            baseUrl: external.url,
            clientId: key.clientId,
            clientSecretEnv: 'STATION_SECRET_DOCK9',
            tenantId: key.tenantId,
            shippingSiteId: 'site_nowhere',
            shipFrom: {
              name: 'Dock 9',
              addressLine1: '1550 W Carroll Ave',
              city: 'Chicago',
              stateProvince: 'IL',
              postalCode: '60607',
              countryCode: 'US',
            },
          },
        ],
      }),
    );
    // The station's data directory, new: the refused start leaves no database in it.
    const data = tempDir();
    const refused = demoStation(data, {
      provisionFile: file,
      env: { STATION_SECRET_DOCK9: key.clientSecret },
    });
    await expect(refused.station.start()).rejects.toThrow(
      /shippingSiteId.*site_nowhere|is not one of tenant tnt_lumen/s,
    );
    expect(readdirSync(data).filter((f) => f.startsWith('station.db'))).toEqual([]);
    // The next start there is a first start, as if the refused one had not happened.
    const again = demoStation(data);
    stations.onEnd(() => again.station.stop());
    await again.station.start();
    expect((await call(again.station, 'station.status', {})).profile?.name).toMatch(/^Demo/);
  });
});

describe("a ship-from that is not the site's address (site IT)", () => {
  const edison = {
    company: 'Harbor Fulfillment',
    name: 'Dock 4',
    addressLine1: '300 Raritan Center Pkwy',
    city: 'Edison',
    stateProvince: 'NJ',
    postalCode: '08837',
    countryCode: 'US',
  };

  it("a file whose shipFrom is another warehouse's is refused, naming both addresses; the same address written otherwise is taken", async () => {
    const { s, sandbox } = await stations.start();
    const { file, profile, key } = await demoFile(s, sandbox());
    Object.assign(profile, { id: 'dock-5', name: 'Dock 5', baseUrl: sandbox().url });
    // Copied from the Edison station's file: Chicago's site, Edison's address.
    profile.shipFrom = edison;
    const refused = await s.dispatch('profiles.provision', {
      json: JSON.stringify(file),
      clientSecret: key.clientSecret,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(!refused.ok && refused.error.message).toContain(
      "profiles[0].shipFrom is 300 Raritan Center Pkwy, Edison, NJ 08837, US, but site site_lumen_chicago (Lumen Chicago Workshop) is at 1550 W Carroll Ave, Chicago, IL 60607, US on the platform: labels would carry the wrong return address and origin. Use the site's address as shipFrom, or the site whose address this is",
    );
    expect((await sitesOf(s))['dock-5']).toBeUndefined();

    // The site's address in other case and punctuation, with a ZIP+4: the same place.
    profile.shipFrom = {
      company: 'Lumen Candle Works',
      addressLine1: '1550 w. carroll ave.',
      city: 'Chicago',
      stateProvince: 'IL',
      postalCode: '60607-4410',
      countryCode: 'us',
    };
    // The secret pasted with a space before it and a line break after: taken without them.
    await call(s, 'profiles.provision', {
      json: JSON.stringify(file),
      clientSecret: ` ${key.clientSecret}\n`,
    });
    expect((await sitesOf(s))['dock-5']).toBe('site_lumen_chicago');
    const replaced = await s.dispatch('profiles.setSecret', {
      id: 'dock-5',
      clientSecret: `${key.clientSecret} `,
    });
    expect(replaced).toMatchObject({ ok: true });
  });

  it("a change of site in Settings takes the new site's address as the ship-from", async () => {
    const { s, sandbox } = await stations.start();
    const { file, profile } = await demoFile(s, sandbox());
    const harbor = sandbox().fixtures.apiClients.find((c) => c.clientId === 'demo-harbor-full')!;
    Object.assign(profile, {
      id: 'harbor-dock',
      name: 'Harbor dock',
      baseUrl: sandbox().url,
      clientId: harbor.clientId,
      tenantId: harbor.tenantId,
      shippingSiteId: 'site_harbor_edison',
      shipFrom: edison,
    });
    delete profile.brandTenants;
    delete profile.tenantType;
    await call(s, 'profiles.provision', {
      json: JSON.stringify(file),
      clientSecret: harbor.clientSecret,
    });
    await call(s, 'profiles.update', { id: 'harbor-dock', shippingSiteId: 'site_harbor_reno' });
    const saved = JSON.parse((await call(s, 'profiles.export', { id: 'harbor-dock' })).json) as {
      profiles: { shippingSiteId: string; shipFrom: Record<string, unknown> }[];
    };
    expect(saved.profiles[0]!.shippingSiteId).toBe('site_harbor_reno');
    expect(saved.profiles[0]!.shipFrom).toEqual({
      company: 'Harbor Fulfillment',
      name: 'Outbound',
      phone: '775-555-0122',
      addressLine1: '1155 Trademark Dr',
      city: 'Reno',
      stateProvince: 'NV',
      postalCode: '89521',
      countryCode: 'US',
      isResidential: false,
    });
  });
});

describe('a refused secret or tenant in a provisioning file (site IT)', () => {
  /** Dock 9's file on the external sandbox, with `over` laid on its profile. */
  function dockFile(over: Record<string, unknown>): string {
    const file = join(tempDir(), 'dock.station-profile.json');
    const profile = {
      id: 'dock-9',
      name: 'Dock 9',
      environment: 'sandbox',
      baseUrl: external.url,
      clientId: 'demo-lumen-full',
      clientSecretEnv: 'STATION_SECRET_DOCK9',
      tenantId: 'tnt_lumen',
      shippingSiteId: 'site_lumen_chicago',
      shipFrom: {
        name: 'Dock 9',
        addressLine1: '1550 W Carroll Ave',
        city: 'Chicago',
        stateProvince: 'IL',
        postalCode: '60607',
        countryCode: 'US',
      },
      ...over,
    };
    writeFileSync(
      file,
      JSON.stringify({ format: 'shipping-station-profiles', version: 1, profiles: [profile] }),
    );
    return file;
  }

  it('a secret the platform refuses is said of the variable that holds it, not of the site', async () => {
    const wrong = 'Not-The-Right-Secret-42';
    const error = await stations
      .start({ provisionFile: dockFile({}), env: { STATION_SECRET_DOCK9: wrong } })
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error?.message).toMatch(
      /profiles\[0\]\.clientSecretEnv names STATION_SECRET_DOCK9, and the platform at http:\/\/127\.0\.0\.1:\d+ refused that secret for client demo-lumen-full: check the variable's value/,
    );
    expect(error?.message).not.toMatch(/shippingSiteId/);
    expect(error?.message).not.toContain(wrong);
  });

  it('a secret refused after provisioning (the variable changed) shows on the header, not "online"', async () => {
    const key = external.sandbox.fixtures.apiClients.find((c) => c.clientId === 'demo-lumen-full')!;
    const dataDir = tempDir();
    const provisionFile = dockFile({});
    const env = { STATION_SECRET_DOCK9: key.clientSecret };
    const logged: string[] = [];
    const redactor = new Redactor(env);
    const first = demoStation(dataDir, {
      provisionFile,
      env,
      log: (line) => logged.push(redactor.text(line)),
    });
    await first.station.start();
    try {
      // Site IT's line on where the secret comes from survives the log's redaction whole.
      expect(logged).toContain('provisioned Dock 9 (client secret from STATION_SECRET_DOCK9)');
      await until(
        async () => (await call(first.station, 'station.status', {})).connectivity === 'online',
      );
    } finally {
      await first.station.stop();
    }
    // The same file at the next start (not asked again: nothing in it changed), another secret.
    const wrong = 'Not-The-Right-Secret-42';
    const second = demoStation(dataDir, { provisionFile, env: { STATION_SECRET_DOCK9: wrong } });
    // The header is told (a status event), not only a page that asks.
    const pushed: string[] = [];
    second.station.onEvent((name, payload) => {
      if (name === 'status') pushed.push((payload as { connectivity: string }).connectivity);
    });
    await second.station.start();
    try {
      await until(() => pushed.includes('refused'));
      const status = await until(async () => {
        const st = await call(second.station, 'station.status', {});
        return st.connectivity === 'refused' ? st : null;
      });
      expect(status.connectivityDetail).toMatch(
        /^The platform did not accept the API key of client demo-lumen-full; .*\(ref [^)]+\)\. Nothing can be bought until site IT mends it\.$/,
      );
      expect(JSON.stringify(status)).not.toContain(wrong);
    } finally {
      await second.station.stop();
    }
  });

  it('a tenant the key may not act for is said of the tenant', async () => {
    const key = external.sandbox.fixtures.apiClients.find((c) => c.clientId === 'demo-lumen-full')!;
    const error = await stations
      .start({
        provisionFile: dockFile({ tenantId: 'tnt_harbor' }),
        env: { STATION_SECRET_DOCK9: key.clientSecret },
      })
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error?.message).toMatch(
      /profiles\[0\]\.tenantId tnt_harbor is not a tenant client demo-lumen-full may act for on the platform at /,
    );
  });
});

describe("the header names the shipping site packing, not the label's company", () => {
  it("reads the site's name from the platform for the active profile", async () => {
    const { s, sandbox } = await stations.start();
    const site = sandbox().fixtures.shippingSites.find((x) => x.id === 'site_lumen_chicago')!;
    const status = await until(async () => {
      const st = await call(s, 'station.status', {});
      return st.profile?.siteName ? st : null;
    });
    expect(status.profile).toMatchObject({
      shippingSiteId: 'site_lumen_chicago',
      siteName: 'Lumen Chicago Workshop',
    });
    // Not the ship-from company printed on the label.
    expect(site.address?.company).toBe('Lumen Candle Works');
    const listed = (await call(s, 'profiles.list', {})).find((p) => p.active)!;
    expect(listed.siteName).toBe('Lumen Chicago Workshop');
    // And Settings names the tenant as the platform does, not by its id.
    const tenant = sandbox().fixtures.tenants.find((t) => t.tenantId === 'tnt_lumen')!;
    await until(async () => (await call(s, 'profiles.list', {})).find((p) => p.active)?.tenantName);
    expect((await call(s, 'profiles.list', {})).find((p) => p.active)!.tenantName).toBe(
      tenant.name,
    );
  });

  it('a station started while the platform does not answer names them as last read', async () => {
    const dataDir = tempDir();
    const first = demoStation(dataDir);
    await first.station.start();
    let named;
    try {
      named = await until(async () => {
        const p = (await call(first.station, 'station.status', {})).profile;
        return p?.siteName && p.tenantName ? p : null;
      });
    } finally {
      await first.station.stop();
    }
    const tenant = first.sandbox().fixtures.tenants.find((t) => t.tenantId === 'tnt_lumen')!;
    expect(named).toMatchObject({ siteName: 'Lumen Chicago Workshop', tenantName: tenant.name });

    // The next start: the platform's address answers nothing (a sandbox started and stopped).
    const gone = await startSandbox();
    const key = gone.fixtures.apiClients.find((c) => c.clientId === 'demo-lumen-full')!;
    await gone.close();
    const second = demoStation(dataDir, {
      startSandbox: async () => ({
        baseUrl: gone.url,
        clientId: key.clientId,
        clientSecret: key.clientSecret,
        tenantId: key.tenantId,
        close: async () => {},
      }),
    });
    await second.station.start();
    try {
      // Once it has tried the platform and found it away, the names are still the ones read.
      const status = await until(async () => {
        const st = await call(second.station, 'station.status', {});
        return st.connectivity === 'offline' ? st : null;
      });
      expect(status.profile).toMatchObject({
        shippingSiteId: 'site_lumen_chicago',
        siteName: 'Lumen Chicago Workshop',
        tenantName: tenant.name,
      });
      const listed = (await call(second.station, 'profiles.list', {})).find((p) => p.active)!;
      expect(listed).toMatchObject({ siteName: 'Lumen Chicago Workshop', tenantName: tenant.name });
    } finally {
      await second.station.stop();
    }
  });
});

describe('a read-only API key (site IT)', () => {
  it('a provisioning file with one is refused before anything is saved, naming the key', async () => {
    const { s, sandbox } = await stations.start();
    const { file, profile } = await demoFile(s, sandbox());
    const ro = external.sandbox.fixtures.apiClients.find(
      (c) => c.clientId === 'demo-lumen-readonly',
    )!;
    Object.assign(profile, {
      id: 'dock-3',
      name: 'Dock 3',
      environment: 'sandbox',
      baseUrl: external.url,
      clientId: ro.clientId,
    });
    const before = await sitesOf(s);
    const refused = await s.dispatch('profiles.provision', {
      json: JSON.stringify(file),
      clientSecret: ro.clientSecret,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation' } });
    if (refused.ok) return;
    expect(refused.error.message).toMatch(
      /profiles\[0\]\.clientId is a read-only API key on the platform at .*: it can rate but not buy labels; ask the platform's administrator for a key with full access/,
    );
    expect(refused.error.message).not.toContain(ro.clientSecret);
    expect(await sitesOf(s)).toEqual(before);

    // The same file with a full-access key of the same tenant is taken.
    const full = external.sandbox.fixtures.apiClients.find(
      (c) => c.clientId === 'demo-lumen-full',
    )!;
    profile.clientId = full.clientId;
    await call(s, 'profiles.provision', {
      json: JSON.stringify(file),
      clientSecret: full.clientSecret,
    });
    expect((await sitesOf(s))['dock-3']).toBe('site_lumen_chicago');
  });

  it('a profile made in Settings with one is refused, the key field marked', async () => {
    const { s } = await stations.start();
    const ro = external.sandbox.fixtures.apiClients.find(
      (c) => c.clientId === 'demo-lumen-readonly',
    )!;
    const before = (await call(s, 'profiles.list', {})).map((p) => p.id);
    const created = await s.dispatch('profiles.create', {
      environment: 'sandbox',
      baseUrl: external.url,
      clientId: ro.clientId,
      clientSecret: ro.clientSecret,
      name: 'Dock 4',
      tenantId: ro.tenantId,
      shippingSiteId: 'site_lumen_chicago',
      brandTenantIds: [],
      activate: true,
    });
    expect(created).toMatchObject({
      ok: false,
      error: {
        code: 'validation',
        message: expect.stringMatching(
          /^The API key of client demo-lumen-readonly is a read-only API key .* Nothing was saved\.$/,
        ),
        details: [{ field: 'clientId', message: expect.stringMatching(/read-only/) }],
      },
    });
    expect((await call(s, 'profiles.list', {})).map((p) => p.id)).toEqual(before);
    expect((await call(s, 'station.status', {})).profile?.id).toBe('demo');
  });
});
