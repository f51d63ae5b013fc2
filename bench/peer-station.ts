// The peer (issue 16.5): a minimal station written the obvious way, to hold our station's
// overhead against. Per scan: POST /rates, take the cheapest, POST /labels, one SQLite insert,
// write the ZPL to the printer's socket. No crash-safe purchase record, no spool, no printer
// status, no offline queue, no response validation beyond JSON.parse: what a station that only
// had to work on a good day would do. It runs in the benchmark's process against the same
// sandbox and printer as ours, scan for scan, so the machine's load falls on both alike.
import Database from 'better-sqlite3';
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { IncomingOrder } from '../src/core/orders/types.js';

interface PeerOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  tenantId: string;
  shipFrom: Record<string, unknown>;
  printer: { host: string; port: number };
  dbFile: string;
}

interface Rate {
  rateQuoteId: string;
  carrier: string;
  serviceLevel: string;
  amount: number;
  carrierAccount: { id: string };
}

export class PeerStation {
  /** The API round trips of the last scan, from just before fetch to the end of the body. */
  apiMs = 0;
  /** process.cpuUsage (user + system, µs) when the last label was handed to the socket. */
  cpuAtWrite = 0;
  /** The monotonic time (ms, process.hrtime) when the last label was handed to the socket. */
  writtenAt = 0;
  private token = '';
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;

  constructor(private readonly o: PeerOptions) {
    this.db = new Database(o.dbFile);
    // The same durability settings as the station, so the ratio compares code, not pragmas.
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS labels (
      id TEXT PRIMARY KEY, order_number TEXT, tracking_number TEXT, zpl TEXT, created_at TEXT)`);
    this.insert = this.db.prepare(
      `INSERT INTO labels (id, order_number, tracking_number, zpl, created_at) VALUES (?, ?, ?, ?, ?)`,
    );
  }

  private async post<T>(path: string, body: unknown): Promise<T> {
    const started = performance.now();
    const res = await fetch(`${this.o.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.token
          ? { authorization: `Bearer ${this.token}`, 'x-tenant-id': this.o.tenantId }
          : {}),
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    this.apiMs += performance.now() - started;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  }

  async login(): Promise<void> {
    const t = await this.post<{ accessToken: string }>('/api/v1/tokens/m2m', {
      grantType: 'clientCredentials',
      clientId: this.o.clientId,
      clientSecret: this.o.clientSecret,
    });
    this.token = t.accessToken;
  }

  /** One scan: resolves when the label has been written to the printer's socket and closed. */
  async ship(order: IncomingOrder): Promise<void> {
    this.apiMs = 0;
    const shipment = {
      shipTo: order.shipTo,
      shipFrom: this.o.shipFrom,
      packages: order.packages.map((p, i) => ({
        weightLbs: p.weightLbs,
        lengthIn: p.lengthIn,
        widthIn: p.widthIn,
        heightIn: p.heightIn,
        type: 'box',
        externalPackageId: `${order.orderNumber}-${i + 1}`,
        items: p.items.map((x) => ({ sku: x.sku, name: x.name, quantity: x.quantity })),
      })),
    };
    const { shipmentRates } = await this.post<{ shipmentRates: Rate[] }>('/api/v1/rates', {
      shipment,
    });
    const rate = shipmentRates.reduce((a, b) => (b.amount < a.amount ? b : a));
    const label = await this.post<{ id: string; trackingNumber: string; labelData: string }>(
      '/api/v1/labels',
      {
        service: rate.carrier,
        serviceLevel: rate.serviceLevel,
        carrierAccountId: rate.carrierAccount.id,
        rateQuoteId: rate.rateQuoteId,
        orderReference: order.orderNumber,
        shipment,
        labelOptions: { type: 'ZPL', size: '4x6', inline: true },
        mode: 'TEST',
      },
    );
    const zpl = Buffer.from(label.labelData, 'base64');
    this.insert.run(
      label.id,
      order.orderNumber,
      label.trackingNumber,
      zpl.toString('utf8'),
      new Date().toISOString(),
    );
    await new Promise<void>((resolve, reject) => {
      const socket = connect(this.o.printer.port, this.o.printer.host, () => {
        const cpu = process.cpuUsage();
        this.cpuAtWrite = cpu.user + cpu.system;
        this.writtenAt = Number(process.hrtime.bigint()) / 1e6;
        socket.end(zpl);
      });
      socket.on('close', () => resolve()).on('error', reject);
    });
  }

  close(): void {
    this.db.close();
  }
}
