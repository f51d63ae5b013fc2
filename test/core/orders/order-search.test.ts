import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { OrderList } from '../../../src/core/orders/order-list.js';
import { OrderRepository } from '../../../src/core/orders/order-repository.js';
import type { IncomingOrder } from '../../../src/core/orders/types.js';
import { openDatabase, schemaVersion } from '../../../src/core/storage/database.js';
import { migrations } from '../../../src/core/storage/migrations/index.js';
import { foldForSearch } from '../../../src/shared/search-fold.js';
import { tempDir } from '../../support/tmp.js';

const scope = { profileId: 'nordic', environment: 'sandbox' as const };

function order(
  orderNumber: string,
  name: string,
  city: string,
  line1 = '1 Main St',
): IncomingOrder {
  return {
    orderNumber,
    shipTo: { name, addressLine1: line1, city, postalCode: '10115', countryCode: 'DE' },
    packages: [{ weightLbs: 1, items: [{ sku: 'MUG', name: 'Mug', quantity: 1 }] }],
  };
}

const numbers = (rows: { orderNumber: string }[]) => rows.map((r) => r.orderNumber).sort();

describe('order search ignores case and accents', () => {
  it('folds accents, case and the letters that do not decompose', () => {
    expect(foldForSearch('José MÜLLER')).toBe('jose muller');
    expect(foldForSearch('Ørsted Æble Łódź')).toBe('orsted aeble lodz');
    expect(foldForSearch('Hauptstraße')).toBe('hauptstrasse');
    expect(foldForSearch('Ｌｕｍ－１')).toBe('lum-1'); // full-width, as some scanners type it
  });

  it('finds orders by name, city or number written with or without accents, in the Orders view and Pack', () => {
    const db = openDatabase(join(tempDir(), 'station.db'));
    const repo = new OrderRepository(db);
    repo.upsert(scope, 'tnt_n', order('NOR-1', 'José Álvarez', 'Málaga'), 'file');
    repo.upsert(scope, 'tnt_n', order('NOR-2', 'Jörg Müller', 'München', 'Hauptstraße 5'), 'file');
    repo.upsert(scope, 'tnt_n', order('NOR-3', 'Anne Ørsted', 'København'), 'file');
    repo.upsert(scope, 'tnt_n', order('nor-4', 'Plain Name', 'Berlin'), 'file');
    const list = new OrderList(db);
    const found = (search: string) => numbers(list.page(scope, { search }).rows);

    expect(found('jose')).toEqual(['NOR-1']);
    expect(found('JOSÉ')).toEqual(['NOR-1']);
    expect(found('malaga')).toEqual(['NOR-1']);
    expect(found('muller')).toEqual(['NOR-2']);
    expect(found('MUENCHEN')).toEqual([]); // a transliteration is not a fold
    expect(found('munchen')).toEqual(['NOR-2']);
    expect(found('strasse 5')).toEqual(['NOR-2']);
    expect(found('orsted')).toEqual(['NOR-3']);
    expect(found('kobenhavn')).toEqual(['NOR-3']);
    expect(found('NOR-4')).toEqual(['nor-4']);
    expect(found('nor-')).toEqual(['NOR-1', 'NOR-2', 'NOR-3', 'nor-4']);
    // The address's field names and a term across two fields find nothing.
    expect(found('addressLine1')).toEqual([]);
    expect(found('Álvarez Málaga')).toEqual([]);
    // LIKE's wildcards are searched as themselves.
    expect(found('%')).toEqual([]);
    expect(found('_')).toEqual([]);

    expect(numbers(repo.search(scope, 'jörg'))).toEqual(['NOR-2']);
    expect(numbers(repo.search(scope, 'jorg'))).toEqual(['NOR-2']);
    // A corrected file's new address is searched, not the old one.
    repo.upsert(scope, 'tnt_n', order('NOR-1', 'José Álvarez', 'Sevilla'), 'file');
    expect(found('malaga')).toEqual([]);
    expect(found('sevilla')).toEqual(['NOR-1']);
    db.close();
  });

  it('fills the search text of orders stored before migration 14, without sending them to the site again', () => {
    const file = join(tempDir(), 'station.db');
    const old = openDatabase(file, { migrations: migrations.slice(0, 13) });
    old.transaction(() => {
      const insert = old.prepare(
        `INSERT INTO orders (profile_id, environment, tenant_id, order_number, ship_to, source, imported_at, updated_at)
         VALUES ('nordic', 'sandbox', 'tnt_n', ?, ?, 'file', '2026-11-27T10:00:00Z', '2026-11-27T10:00:00Z')`,
      );
      insert.run('NOR-1', JSON.stringify(order('NOR-1', 'José Álvarez', 'Málaga').shipTo));
      insert.run('NOR-2', JSON.stringify(order('NOR-2', 'Anne Ørsted', 'København').shipTo));
    })();
    old.prepare(`UPDATE site_sync SET enabled = 1 WHERE id = 1`).run();
    const outboxBefore = (
      old.prepare(`SELECT count(*) AS n FROM site_outbox`).get() as { n: number }
    ).n;
    old.close();

    const db = openDatabase(file);
    expect(schemaVersion(db)).toBe(migrations.length);
    const list = new OrderList(db);
    expect(numbers(list.page(scope, { search: 'jose' }).rows)).toEqual(['NOR-1']);
    expect(numbers(list.page(scope, { search: 'orsted' }).rows)).toEqual(['NOR-2']);
    expect((db.prepare(`SELECT count(*) AS n FROM site_outbox`).get() as { n: number }).n).toBe(
      outboxBefore,
    );
    expect((db.prepare(`SELECT enabled FROM site_sync`).get() as { enabled: number }).enabled).toBe(
      1,
    );
    db.close();
  });
});
