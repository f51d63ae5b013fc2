import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import {
  OrderHotFolder,
  type HotFolderFileResult,
  type HotFolderOptions,
} from '../../src/core/orders/hot-folder.js';
import { OrderRepository } from '../../src/core/orders/order-repository.js';
import { openDatabase } from '../../src/core/storage/database.js';
import { scope, tenants } from './order-exports.js';
import { tempDir } from './tmp.js';

/**
 * A station's order hot folder on a real folder and SQLite file (not started): its inbox, its
 * orders and every file's result as it comes. Stopped and closed when the test ends.
 */
export function hotFolderStation(options: Partial<HotFolderOptions> = {}) {
  const dir = tempDir();
  const inbox = join(dir, 'inbox');
  mkdirSync(inbox);
  const db = openDatabase(join(dir, 'station.db'));
  const orders = new OrderRepository(db);
  const results: HotFolderFileResult[] = [];
  const folder = new OrderHotFolder({
    folder: inbox,
    orders,
    scope,
    tenants,
    log: () => {},
    onFile: (r) => results.push(r),
    ...options,
  });
  onTestFinished(async () => {
    await folder.stop();
    if (db.open) db.close();
  });
  return { dir, inbox, db, orders, folder, results };
}
