import { test } from '@playwright/test';
import {
  startVirtualPrinter,
  type VirtualPrinter,
} from '../src/core/printing/virtual-printer/server.js';
import { removeCluster, startPostgres, type PostgresCluster } from '../test/support/postgres.js';
import { siteDatabase, STATION_PASSWORD } from '../test/core/site/support.js';
import {
  startProvisionedStation,
  startSandboxProcess,
  type ProvisionedStationOptions,
  type RunningStation,
  type SandboxProcess,
} from './station';

/**
 * A site for a spec file: one throwaway PostgreSQL cluster for the file, a sandbox process per
 * test, and provisioned Lumen stations (each with its own virtual printer) stopped after each
 * test. Call at the top of the spec.
 */
export function siteWorld() {
  let cluster: PostgresCluster;
  let sandbox: SandboxProcess;
  const printers: VirtualPrinter[] = [];
  const stations: RunningStation[] = [];
  test.beforeAll(async () => {
    cluster = await startPostgres();
  });
  test.afterAll(() => removeCluster(cluster));
  test.beforeEach(async () => {
    sandbox = await startSandboxProcess();
  });
  test.afterEach(async () => {
    for (const s of stations.splice(0)) await s.stop();
    for (const p of printers.splice(0)) await p.close();
    await sandbox.stop();
  });
  /** A station started with these options against the test's sandbox, stopped after it. */
  const start = async (
    options: Omit<ProvisionedStationOptions, 'baseUrl'>,
  ): Promise<RunningStation> => {
    const station = await startProvisionedStation({ baseUrl: sandbox.url, ...options });
    stations.push(station);
    return station;
  };
  /** A packing station of the site (Lumen, its own virtual printer); `siteUrl` null: alone. */
  const packingStation = async (siteUrl: string | null, stationId: string, stationName: string) => {
    const printer = await startVirtualPrinter({ port: 0 });
    printers.push(printer);
    const station = await start({
      printer: { port: printer.port, name: `ZD421 ${stationName}` },
      profile: { id: 'lumen-site', name: 'Lumen Chicago' },
      ...(siteUrl ? { file: { siteStore: { url: siteUrl, stationId, stationName } } } : {}),
      env: { STATION_SECRET_SITE_STORE: STATION_PASSWORD },
    });
    return { station, printer };
  };
  /** A new site store for the test, and two of its stations: A (chi-01) and B (chi-02). */
  const twoStations = async () => {
    const site = await siteDatabase(cluster);
    const a = await packingStation(site.stationUrl, 'chi-01', 'Station A');
    const b = await packingStation(site.stationUrl, 'chi-02', 'Station B');
    return { site, a, b };
  };
  return { cluster: () => cluster, sandbox: () => sandbox, start, packingStation, twoStations };
}
