import { describeSiteError, type SiteProblem } from './errors.js';
import { OutageLog } from './outage.js';
import type { SiteOutbox } from './outbox.js';
import {
  olderSchemaWords,
  SITE_SCHEMA_OLDEST,
  SITE_SCHEMA_VERSION,
  SITE_SCHEMA_PACKAGES,
  SITE_SCHEMA_VOIDS,
} from './schema.js';
import type { SitePrinter, SiteStore, StationQueues } from './store.js';
import type { Heartbeat } from './console.js';
import { refuseOtherStationsId } from './station-id-taken.js';
export { olderSchemaWords } from './schema.js';

/** How far back labels sent before site migration 8 are sent again with their packages. */
const PACKAGES_BACKFILL_MS = 35 * 24 * 60 * 60 * 1000;

export interface SiteSyncStatus {
  /** synced: nothing waits; waiting: changes on their way; unreachable: the store does not answer. */
  state: 'synced' | 'waiting' | 'unreachable';
  depth: number;
  /** epoch ms of the oldest change waiting. */
  oldestAt: number | null;
  problem: SiteProblem | null;
  /** When a batch last reached the store (ISO). */
  lastSyncedAt: string | null;
  /** epoch ms of the last failed attempt (the claim skips a store that just failed). */
  failedAt: number | null;
  /** The store has not answered yet since the station started (state is then `waiting`). */
  connecting: boolean;
}

export interface SiteSyncOptions {
  store: SiteStore;
  outbox: SiteOutbox;
  /**
   * How often an empty outbox is looked at anyway. This station's own commits wake the drainer
   * at once (SiteOutbox.onRow); the poll finds rows written by any other connection to the file.
   */
  pollMs?: number;
  backoff?: { baseMs: number; maxMs: number };
  batchSize?: number;
  /** Check in (depth, settings, printers) this often: on the first pass, then every checkInMs. */
  checkInMs?: number;
  onChange?: (status: SiteSyncStatus) => void;
  log?: (line: string) => void;
  /** How often a store that stays away is mentioned again in the log (OutageLog; 5 min). */
  outageReminderMs?: number;
  /** Between the store's commit and the outbox acknowledgement: where the crash tests kill. */
  afterApply?: (applied: number) => void | Promise<void>;
  /** The station's queues, reported with each check-in (the site-wide queue view). */
  queues?: () => StationQueues;
  /** The station's network printers, registered at each check-in for site-wide reprints. */
  printers?: () => SitePrinter[];
  /** The station's heartbeat for the console (issue 14), written with each check-in. */
  heartbeat?: () => Heartbeat | Promise<Heartbeat>;
  /**
   * More to do at each check-in (issue 14: the site settings, read once here and handed over;
   * users; carrier connections).
   */
  atCheckIn?: (store: SiteStore, settings: Record<string, string>) => Promise<void>;
}

/**
 * Drains the station's outbox into the site store, in order, one batch per transaction:
 * the store commits, then the batch leaves the outbox. A crash between the two replays the
 * batch, which the store's upserts absorb. When the store does not answer it backs off and
 * tries again for as long as it takes; nothing is dropped.
 */
export class SiteSync {
  private running = false;
  private unsubscribe: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  /** A wake-up that came while the loop was busy: it must not sleep before looking again. */
  private woken = false;
  /** The site's network printers as last read at a check-in. */
  sitePrinters: Awaited<ReturnType<SiteStore['printers']>> = [];
  private ready = false;
  /** The log has said once that the store's schema is older than this version's. */
  private saidSchema = false;
  /** The newer schema the log last said this station goes on using. */
  private saidNewer = 0;
  /** The store's schema when this station last prepared for it (see prepare). */
  private preparedSchema: number | null = null;
  /** This station's voided marks went into the outbox for a store that keeps them. */
  private voidsSent = false;
  /** Labels sent before site migration 8 were sent again with their packages (sendPackages). */
  private packagesSent = false;
  private failures = 0;
  private answered = false; // the store answered since start()
  private lastCheckIn = 0;
  /** The last check-in tried, and the last one that found another station under this id. */
  private checkedAt = 0;
  private duplicateAt = 0;
  /** The heartbeat and queues last written (consoles are told only when they change). */
  private lastBeat: string | undefined;
  private current: SiteSyncStatus = {
    state: 'waiting',
    depth: 0,
    oldestAt: null,
    problem: null,
    lastSyncedAt: null,
    failedAt: null,
    connecting: true,
  };

  /** Away once, a reminder every few minutes, back once: not a line per attempt. */
  private readonly outage: OutageLog;

  constructor(private readonly o: SiteSyncOptions) {
    this.outage = new OutageLog({
      what: 'site store',
      log: o.log,
      remindEveryMs: o.outageReminderMs,
      url: o.store.config.url,
      reached: () => o.outbox.storeIdentity() !== null,
      refuses: () => o.outbox.offlinePurchase() === 'refuse',
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.o.outbox.onRow(() => this.wake());
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    const wasRunning = this.running;
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.wake();
    await this.loop;
    this.loop = null;
    // The last word to the site: how much this station leaves waiting (best effort).
    if (wasRunning && this.current.problem === null) {
      const d = this.o.outbox.depth();
      await this.o.store
        .checkIn(
          {
            depth: d.depth,
            oldestAt: d.oldestAt === null ? null : new Date(d.oldestAt).toISOString(),
          },
          this.o.queues?.(),
        )
        .catch(() => {});
    }
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Why the store cannot be used now (null: it can), without counting the outbox as status() does. */
  problem(): SiteProblem | null {
    return this.current.problem;
  }

  status(): SiteSyncStatus {
    const { depth, oldestAt } = this.o.outbox.depth();
    // Not "synced" before the store has answered this run: nothing was asked of it yet.
    const connecting = !this.answered && this.current.problem === null;
    const state = this.current.problem ? 'unreachable' : depth || connecting ? 'waiting' : 'synced';
    return { ...this.current, state, depth, oldestAt, connecting };
  }

  /** Drains until the outbox is empty or the store fails; for tests and the CLI. */
  async drainOnce(): Promise<number> {
    await this.prepare();
    let sent = 0;
    for (;;) {
      const batch = this.o.outbox.next(this.o.batchSize ?? 200);
      if (!batch) return sent;
      await this.o.store.apply(batch.changes);
      await this.o.afterApply?.(batch.changes.length);
      this.o.outbox.ack(batch.upTo);
      sent += batch.changes.length;
    }
  }

  /**
   * The labels this station marked voided, again, once the store keeps the marks (site
   * migration 6): a mark sent while the store was older was ignored there. At each preparation (a
   * start, a reconnection: site IT may have migrated meanwhile) and when a check-in sees the
   * migrate; a few rows, replayed as any label is.
   */
  private sendVoids(): void {
    if (this.voidsSent || (this.o.store.schema ?? 0) < SITE_SCHEMA_VOIDS) return;
    this.voidsSent = true;
    this.o.outbox.resendVoided();
  }

  /**
   * This station's labels of the last 35 days that the store keeps without their packages (sent
   * before site migration 8), again, once the store keeps them: the whole site's End of day then
   * counts those days' packages and leaves their return labels off its manifests. Once per
   * preparation; each label replayed as any label is.
   */
  private async sendPackages(): Promise<void> {
    if (this.packagesSent || (this.o.store.schema ?? 0) < SITE_SCHEMA_PACKAGES) return;
    this.packagesSent = true;
    const since = new Date(Date.now() - PACKAGES_BACKFILL_MS);
    for (let after = 0; ;) {
      const ids = await this.o.store.labelsWithoutPackages(since, after);
      this.o.outbox.resendLabels(ids);
      if (ids.length < 5000) return;
      after = ids[ids.length - 1]!;
    }
  }

  private async prepare(): Promise<void> {
    if (this.ready) return;
    const { store, outbox } = this.o;
    // The first station of a site migrates it; a station role without DDL rights is told to ask.
    // A store already at SITE_SCHEMA_OLDEST or later is not upgraded by a station (the stations
    // not yet updated would refuse it): this one works with what it has, and says so, until
    // site IT migrates it (the next check-in reads the new version).
    // A store newer than this version knows is used when its later migrations say stations of
    // this schema may (readers_from, additive changes); otherwise migrate() refuses it, untouched.
    const found = await store.schemaVersion();
    if (found >= SITE_SCHEMA_OLDEST && found <= SITE_SCHEMA_VERSION) store.schema = found;
    else if (
      found > SITE_SCHEMA_VERSION &&
      (await store.readersFrom(SITE_SCHEMA_VERSION)) <= SITE_SCHEMA_VERSION
    ) {
      store.schema = found;
      if (this.saidNewer !== found) {
        this.saidNewer = found;
        this.o.log?.(
          `The site store is at schema ${found}, newer than this version of Shipping Station knows (${SITE_SCHEMA_VERSION}); its later migrations keep stations of schema ${SITE_SCHEMA_VERSION} working, so this one goes on using it. Update this station for what the newer version adds.`,
        );
      }
    } else {
      await store.migrate();
      store.schema = SITE_SCHEMA_VERSION;
    }
    this.preparedSchema = store.schema;
    await refuseOtherStationsId(store, outbox); // an id saved while the store was away
    this.voidsSent = false;
    this.sendVoids();
    this.packagesSent = false;
    await this.sendPackages();
    if (found >= SITE_SCHEMA_OLDEST && found < SITE_SCHEMA_VERSION && !this.saidSchema) {
      this.saidSchema = true;
      this.o.log?.(olderSchemaWords(found));
    }
    await store.releaseOrphanClaims((id) => outbox.isKnownPurchase(id));
    this.ready = true;
  }

  private async run(): Promise<void> {
    const { store, outbox } = this.o;
    const pollMs = this.o.pollMs ?? 100;
    const backoff = this.o.backoff ?? { baseMs: 500, maxMs: 10_000 };
    while (this.running) {
      this.woken = false;
      let wait = pollMs;
      try {
        await this.prepare();
        // Another station checks in under this id: nothing is sent (its rows and ours share
        // keys), only the check-in that finds out when it is gone.
        const duplicate = this.current.problem?.kind === 'duplicate-station';
        // A store not checked in to yet (none recorded): checked in first, so what is sent went
        // to a known database, and a store moved right after is noticed (and sent all again).
        const unidentified = this.lastCheckIn === 0 && outbox.storeIdentity() === null;
        const checkInMs = this.o.checkInMs ?? 2000;
        const batch = duplicate || unidentified ? null : outbox.next(this.o.batchSize ?? 200);
        if (unidentified) wait = 0;
        if (batch) {
          await store.apply(batch.changes);
          await this.o.afterApply?.(batch.changes.length);
          outbox.ack(batch.upTo);
          wait = 0;
        }
        // Not at every idle poll: a site of 50 stations would otherwise send the store hundreds
        // of check-ins a second (the site's view of this station is at most checkInMs old).
        // Under a duplicate id, at the check-in's own beat (not at every wake-up), so that the
        // other station's check-in falls between two of this one's.
        const checkIn = duplicate
          ? Date.now() - this.checkedAt >= checkInMs
          : this.lastCheckIn === 0 || Date.now() - this.lastCheckIn > checkInMs;
        if (checkIn) {
          this.checkedAt = Date.now();
          const d = outbox.depth();
          const queues = this.o.queues?.();
          const beat = await this.o.heartbeat?.();
          const seen = beat ? JSON.stringify([beat, queues]) : undefined;
          const notify = seen !== undefined && seen !== this.lastBeat;
          // Forgotten until it is written: the first heartbeat after the store was away always
          // notifies, so consoles that aged this station to offline see it back at once.
          this.lastBeat = undefined;
          // One statement for the check-in and the heartbeat, one read of the site settings.
          await store.checkIn(
            {
              depth: d.depth,
              oldestAt: d.oldestAt === null ? null : new Date(d.oldestAt).toISOString(),
            },
            queues,
            beat,
            notify,
          );
          this.lastBeat = seen;
          // A store restored from a backup into the same name is another database (the pool
          // simply reconnects to it): it may lack what this station sent since the backup
          // (labelled orders another station could buy again), so the whole history goes to it
          // again (replayed rows change nothing), and it is prepared again (its schema, claims).
          if (store.database && outbox.sendAllTo(store.database)) {
            this.ready = false;
            wait = 0;
            this.o.log?.(
              "site store: the database is not the one this station sent its history to (restored from a backup?): this station's history is sent to it again",
            );
          }
          // Migrated past this version while running: prepared again (used on, or refused),
          // before anything more is sent.
          if (
            store.schema !== null &&
            store.schema > SITE_SCHEMA_VERSION &&
            store.schema !== this.preparedSchema
          ) {
            this.ready = false;
            wait = 0;
          }
          this.sendVoids();
          await this.sendPackages();
          // Site IT migrated the store it said was older: said once, as the older one was.
          if (this.saidSchema && store.schema === SITE_SCHEMA_VERSION) {
            this.saidSchema = false;
            this.o.log?.(
              `The site store is now at schema ${SITE_SCHEMA_VERSION}: everything of this version works with it.`,
            );
          }
          const settings = await store.settings();
          outbox.rememberOfflinePurchase(settings.offlinePurchase ?? null);
          await this.o.atCheckIn?.(store, settings);
          if (this.o.printers) {
            await store.registerPrinters(this.o.printers());
            this.sitePrinters = await store.printers();
          }
          this.lastCheckIn = Date.now();
        }
        // The other station under this id is taken for gone only after check-ins without it
        // for three beats: one missed between two of ours is a timing, not its absence.
        if (duplicate && (!checkIn || Date.now() - this.duplicateAt < 3 * checkInMs))
          wait = checkInMs;
        else {
          const recovered = this.current.problem !== null || !this.answered;
          this.answered = true;
          this.failures = 0;
          this.current = {
            ...this.current,
            problem: null,
            failedAt: null,
            lastSyncedAt: batch ? new Date().toISOString() : this.current.lastSyncedAt,
          };
          this.outage.answered();
          if (batch || recovered) {
            outbox.recordSync(null);
            this.o.onChange?.(this.status());
          }
        }
      } catch (error) {
        const problem = describeSiteError(error, store.config.url);
        const changed = this.current.problem?.message !== problem.message;
        this.failures++;
        this.current = { ...this.current, problem, failedAt: Date.now() };
        // Prepared again after any failure, an outage too: the store that answers afterwards may
        // be another database under the same name (restored from a backup), and a schema or
        // rights problem needs asking again. Not under a station id in use elsewhere: that would
        // release the other station's claims as orphans of this one.
        if (problem.kind !== 'duplicate-station') this.ready = false;
        else this.duplicateAt = Date.now();
        wait =
          problem.kind === 'duplicate-station'
            ? (this.o.checkInMs ?? 2000)
            : Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(this.failures - 1, 10));
        this.outage.failed(problem);
        if (changed) {
          outbox.recordSync(problem.message);
          this.o.onChange?.(this.status());
        }
      }
      if (wait > 0 && this.running && !this.woken)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, wait);
          function done() {
            clearTimeout(timer);
            resolve();
          }
          this.wakeUp = done;
        });
      this.wakeUp = null;
    }
  }
}
