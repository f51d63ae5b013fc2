import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteLink } from '../../../src/core/site/link.js';
import { SiteOutbox } from '../../../src/core/site/outbox.js';
import { SiteStore } from '../../../src/core/site/store.js';
import { useSandbox } from '../../support/sandbox.js';
import { usePostgres } from '../../support/use-postgres.js';
import {
  removeCluster,
  startPostgres,
  SUPERUSER_PASSWORD,
  type PostgresCluster,
} from '../../support/postgres.js';
import { waitUntil } from '../../support/virtual-printer.js';
import { lumenProfile } from '../packing/support/station.js';
import { orderId, stationFor } from '../packing/support/harness.js';
import { grantStationRole, siteDatabase, STATION_PASSWORD } from './support.js';
import { startTcpProxy } from '../../support/tcp-proxy.js';

// site.md, "Moving the store to another server": the address the stations use (a host name)
// now leads to a new server. Its database may well have the old one's OID (a fresh server's
// first database gets the same one), so the station must tell the servers apart too.

const sb = useSandbox();
const pgc = usePostgres();
let newServer: PostgresCluster;

beforeAll(async () => {
  newServer = await startPostgres();
}, 120_000);
afterAll(() => removeCluster(newServer));

describe('the site store moved to another server under the same address', () => {
  it("the station notices and sends its whole history there, though the database's OID is the same", async () => {
    const site = await siteDatabase(pgc.cluster);
    const { rows } = await site.owner.pool.query<{ oid: string }>(
      'SELECT oid::text FROM pg_database WHERE datname = current_database()',
    );
    // The new server: its database under the same name and, as happens, the same OID.
    const su = newServer.superuser();
    await su.connect();
    await su.query(`CREATE DATABASE "${site.name}" OID = ${rows[0]!.oid}`);
    await su.end();
    const moved = new SiteStore({
      config: { url: newServer.url(site.name), stationId: 'site-it', stationName: 'Site IT' },
      password: SUPERUSER_PASSWORD,
    });
    await moved.migrate();
    await grantStationRole(newServer, site.name);

    // The host name the stations use: a relay to whichever server it leads to now.
    const name = await startTcpProxy(pgc.cluster.port);
    const labels = async (store: SiteStore) =>
      (
        await store.pool.query<{ order_number: string }>('SELECT order_number FROM site_labels')
      ).rows.map((r) => r.order_number);
    // A station that labelled LUM-10421 before it was linked to the site: its first
    // connection sends its history, the label among it.
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    const shipped = await station.workflow.ship(orderId(station, 'LUM-10421'), {
      stationUser: 'ana',
    });
    expect(shipped.outcome).toBe('printed');
    let moveAfterApply = true;
    const link = new SiteLink(
      {
        url: `postgres://shipping_station@127.0.0.1:${name.port}/${site.name}`,
        stationId: 'st-m',
        stationName: 'Station M',
      },
      {
        db: station.db,
        password: STATION_PASSWORD,
        pollMs: 20,
        // Site IT moves the store and points the host name at the new server at the worst
        // moment: right after the label reached the old store, before anything else is said.
        afterApply: async () => {
          if (!moveAfterApply || (await labels(site.owner)).length === 0) return;
          moveAfterApply = false;
          name.moveTo(newServer.port);
        },
      },
    );
    link.start();
    try {
      await waitUntil(async () => (await labels(site.owner)).length === 1);
      // The new store learns that LUM-10421 was labelled, so no other station buys it again.
      await waitUntil(async () => (await labels(moved)).length === 1, 50);
      expect(await labels(moved)).toEqual(['LUM-10421']);
    } finally {
      await link.close();
      await Promise.all([moved.close(), site.owner.close(), name.close()]);
    }
  });

  it('a station that remembered the database by its OID alone (before) does not send everything again', async () => {
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    const outbox = new SiteOutbox(station.db, 'st-u');
    outbox.enable();
    await station.workflow.ship(orderId(station, 'LUM-10421'), { stationUser: 'ana' });
    outbox.ack(outbox.next(1000)!.upTo);
    station.db.prepare(`UPDATE site_sync SET store_identity = '16385' WHERE id = 1`).run();
    // The same database, now read with its server's identifier: remembered so, nothing resent.
    expect(outbox.sendAllTo('7713523880997261775:16385')).toBe(false);
    expect(outbox.storeIdentity()).toBe('7713523880997261775:16385');
    expect(outbox.depth().depth).toBe(0);
    // Another server's database: everything again.
    expect(outbox.sendAllTo('7713523890241061382:16385')).toBe(true);
    expect(outbox.depth().depth).toBeGreaterThan(0);
  });
});
