// Station facades on one site store: one sandbox and one throwaway PostgreSQL cluster for the
// test file, each station its own data directory (its own SQLite) on them.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import {
  createStation,
  type Station,
  type StationOptions,
} from '../../../src/core/station/index.js';
import { MemorySecretVault } from '../../../src/core/profiles/secret-vault.js';
import { ConfSettingsStore } from '../../../src/core/profiles/settings-store.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { tempDir } from '../../support/tmp.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { usePostgres } from '../../support/use-postgres.js';
import { siteDatabase, STATION_PASSWORD } from '../site/support.js';
import { call, until, type Sandbox } from './support.js';

const root = join(import.meta.dirname, '../../..');

/** The labels a station's virtual printer has printed (one .zpl file each). */
export const printed = (dir: string) =>
  existsSync(join(dir, 'virtual-printer'))
    ? readdirSync(join(dir, 'virtual-printer')).filter((f) => f.endsWith('.zpl'))
    : [];

/** Call at the top of a test file: the file's cluster and sandbox, and stations on them. */
export function siteStations() {
  const pgc = usePostgres();
  let shared: Sandbox | undefined;
  beforeAll(async () => {
    shared = await startSandbox();
  });
  afterAll(() => shared?.close());
  const sandbox = (): Sandbox => {
    if (!shared) throw new Error('siteStations: the sandbox is not running');
    return shared;
  };

  /**
   * A demo station whose embedded sandbox is the one shared by the whole site, packing with the
   * sandbox's API client `clientId` (Lumen's; Harbor's for another tenant on the same profile id).
   */
  function siteStation(
    dataDir: string,
    extra: Partial<StationOptions> = {},
    clientId = 'demo-lumen-full',
  ): Station {
    const c = () => sandbox().fixtures.apiClients.find((x) => x.clientId === clientId)!;
    return createStation({
      dataDir,
      host: 'web',
      settings: new ConfSettingsStore(join(dataDir, 'settings.json')),
      vault: new MemorySecretVault(),
      resourcesDir: join(root, 'resources'),
      startSandbox: async () => ({
        baseUrl: sandbox().url,
        clientId: c().clientId,
        clientSecret: c().clientSecret,
        tenantId: c().tenantId,
        close: async () => {},
      }),
      ...extra,
    });
  }

  /**
   * A demo station on the same profile id packing for another tenant (the sandbox's Harbor
   * client): a copied provisioning file, or a station of another brand on the store.
   */
  const harborStation = (dataDir: string, extra: Partial<StationOptions> = {}) =>
    siteStation(dataDir, extra, 'demo-harbor-full');

  /** Settings → Site store → Connect, as site IT does it: this address, id, name, password. */
  async function linkToSite(s: Station, url: string, stationId: string, stationName: string) {
    await call(s, 'site.configure', {
      siteStore: { url, stationId, stationName },
      password: STATION_PASSWORD,
    });
  }

  /** Stations A (st-a) and B (st-b) started on a new site database, each linked to it. */
  async function stationsAandB() {
    const site = await siteDatabase(pgc.cluster);
    const [dirA, dirB] = [tempDir(), tempDir()];
    const a = siteStation(dirA);
    const b = siteStation(dirB);
    await Promise.all([a.start(), b.start()]);
    try {
      await linkToSite(a, site.stationUrl, 'st-a', 'Station A');
      await linkToSite(b, site.stationUrl, 'st-b', 'Station B');
    } catch (error) {
      await Promise.all([a.stop(), b.stop()]);
      throw error;
    }
    return { site, a, b, dirA, dirB };
  }

  /**
   * Starts a station on a new data directory with a provisioning file, and stops it: its data
   * directory, and why the start was refused (null: it started).
   */
  async function startProvisioned(provisionFile: string, env: Record<string, string>) {
    const dataDir = tempDir();
    const s = siteStation(dataDir, { provisionFile, env });
    try {
      await s.start();
      return { dataDir, error: null };
    } catch (error) {
      return { dataDir, error: error as Error };
    } finally {
      await s.stop().catch(() => {});
    }
  }

  /**
   * A started copy of a station's disk image: its settings, so its site store, id and name (the
   * password from the environment, as the keychain does not travel with a disk image).
   */
  async function diskImageOf(url: string, stationId: string, stationName: string) {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({ siteStore: { url, stationId, stationName } }),
    );
    const copy = siteStation(dir, { env: { STATION_SECRET_SITE_STORE: STATION_PASSWORD } });
    await copy.start();
    return copy;
  }

  /**
   * Station B of stationsAandB moved to reach the store through a relay, synced: `cut()` it and
   * the store B has reached goes away (an outage), while A still reaches it. Close it after.
   */
  async function bThroughRelay(site: { stationUrl: string }, b: Station): Promise<TcpProxy> {
    const proxy = await startTcpProxy(pgc.cluster.port);
    await call(b, 'site.configure', {
      siteStore: {
        url: site.stationUrl.replace(`:${pgc.cluster.port}/`, `:${proxy.port}/`),
        stationId: 'st-b',
        stationName: 'Station B',
      },
    });
    await synced(b);
    return proxy;
  }

  return {
    pgc,
    sandbox,
    siteStation,
    bThroughRelay,
    harborStation,
    linkToSite,
    stationsAandB,
    startProvisioned,
    diskImageOf,
  };
}

/** Until the station's header says "Site: synced" (its outbox empty, the store answering). */
export const synced = (s: Station) =>
  until(async () => (await call(s, 'station.status', {})).site?.text === 'Site: synced');

/** A one-package order of one candle shipped to Austin, as an order file of a test holds it. */
export function candleOrder(orderNumber: string, name = 'Ada') {
  return {
    orderNumber,
    shipTo: {
      name,
      addressLine1: '1 Main St',
      city: 'Austin',
      stateProvince: 'TX',
      postalCode: '78701',
      countryCode: 'US',
    },
    packages: [{ weightLbs: 2, items: [{ sku: 'C-1', name: 'Candle', quantity: 1 }] }],
  };
}
