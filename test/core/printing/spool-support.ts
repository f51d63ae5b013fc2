import { afterEach } from 'vitest';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../src/core/storage/database.js';
import { NetworkPrinter } from '../../../src/core/printing/drivers/network.js';
import {
  PrintSpool,
  type PrintJob,
  type PrintSpoolOptions,
} from '../../../src/core/printing/spool/print-spool.js';
import type { Printer, PrinterConfig } from '../../../src/core/printing/types.js';
import { tempDir } from '../../support/tmp.js';
import { waitUntil } from '../../support/virtual-printer.js';

export const fast = { backoff: { baseMs: 5, maxMs: 40 }, faultPollMs: 10, printingPollMs: 5 };

/** A spool on a real SQLite file, with network drivers; stopped and closed after the test. */
export function openSpool(
  printers: PrinterConfig[],
  options: Partial<PrintSpoolOptions> & { file?: string; wrap?: (p: Printer) => Printer } = {},
): { spool: PrintSpool; db: Db; file: string } {
  const file = options.file ?? join(tempDir(), 'station.db');
  const db = openDatabase(file);
  const spool = new PrintSpool({
    db,
    printers: () => printers,
    createDriver: (c) => {
      const driver = new NetworkPrinter(c, { answerTimeoutMs: 5000 });
      return options.wrap ? options.wrap(driver) : driver;
    },
    ...fast,
    ...options,
  });
  afterEach(async () => {
    await spool.stop();
    db.close();
  });
  return { spool, db, file };
}

export async function waitForState(spool: PrintSpool, id: number, state: PrintJob['state']) {
  await waitUntil(() => spool.get(id)?.state === state);
  return spool.get(id)!;
}
