import pg from 'pg';
import { connectionOf } from './connection.js';

/**
 * LISTEN site_changes on its own connection: every batch a station commits ends with a NOTIFY
 * naming that station, so the others refresh site-wide views (attention, history) at once
 * instead of polling. Reconnects by itself while the store is away; the outbox does not
 * depend on it (a missed notification only delays a refresh).
 */
export class SiteListener {
  private client: pg.Client | null = null;
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;

  constructor(
    private readonly o: {
      url: string;
      password: string | undefined;
      stationId: string;
      onChange: (fromStationId: string) => void;
      /** A station's heartbeat or carrier connections changed (site_console, issue 14). */
      onConsole?: (fromStationId: string) => void;
    },
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (!this.running) return;
    const client = new pg.Client({
      ...connectionOf(this.o.url, this.o.password),
      connectionTimeoutMillis: 3000,
      application_name: `shipping-station ${this.o.stationId} listen`.slice(0, 63),
    });
    const retry = () => {
      if (this.client === client) this.client = null;
      client.end().catch(() => {});
      if (!this.running || this.timer) return;
      this.failures++;
      this.timer = setTimeout(
        () => {
          this.timer = null;
          void this.connect();
        },
        Math.min(15_000, 500 * 2 ** Math.min(this.failures, 5)),
      );
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', (n) => {
      if (n.channel === 'site_changes' && n.payload && n.payload !== this.o.stationId)
        this.o.onChange(n.payload);
      if (n.channel === 'site_console' && n.payload) this.o.onConsole?.(n.payload);
    });
    try {
      await client.connect();
      await client.query('LISTEN site_changes');
      if (this.o.onConsole) await client.query('LISTEN site_console');
      if (!this.running) {
        await client.end();
        return;
      }
      this.client = client;
      this.failures = 0;
    } catch {
      retry();
    }
  }
}
