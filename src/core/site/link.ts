import { createHash } from 'node:crypto';
import type { Db } from '../storage/database.js';
import type { PrinterConfig } from '../printing/types.js';
import type { StationScope } from '../storage/scope.js';
import type { SiteStoreConfig } from './config.js';
import { describeSiteStore } from './config.js';
import {
  describeSiteError,
  neverAnsweredWords,
  SiteStoreError,
  type SiteProblem,
} from './errors.js';
import { LabelledElsewhere } from './labelled-elsewhere.js';
import { SiteListener } from './listener.js';
import { inProfileScope, type Heartbeat } from './console.js';
import { SiteOutbox } from './outbox.js';
import { SiteStore, type SitePrinter, type StationQueues } from './store.js';
import { SiteSync, type SiteSyncStatus } from './sync.js';
import type { OrderClaims } from '../packing/order-claims.js';
import type { LabelVoidMark, SiteLabel, SiteOrderRow, SiteReprint } from './types.js';
import { SiteTrackers, type SiteTrackersOptions } from './trackers.js';

export type { OrderClaims } from '../packing/order-claims.js';

/** What the site store answered for a scanned order number, or why it could not be asked. */
export interface SiteOrderLookup {
  orders: SiteOrderRow[];
  problem: SiteProblem | null;
}

/** A profile's scope as the site's reads narrow by it: its id, environment and brands. */
export interface ProfileScope {
  id: string;
  environment: string;
  tenants: readonly string[];
}

/** After a failed attempt, claims, scans and imports skip the store this long instead of waiting on it. */
const SKIP_AFTER_FAILURE_MS = 5000;

/**
 * A station's connection to its site: the store, the outbox and its drainer, and the order
 * claim. Made only when a site store is configured; a station without one never builds it.
 */
export class SiteLink {
  readonly store: SiteStore;
  readonly outbox: SiteOutbox;
  private readonly labelled: LabelledElsewhere;
  readonly sync: SiteSync;
  private readonly listener: SiteListener | null;
  private readonly password: string | undefined;
  private readonly profileScope: (() => ProfileScope | null) | undefined;

  constructor(
    readonly config: SiteStoreConfig,
    options: {
      db: Db;
      password: string | undefined;
      log?: (line: string) => void;
      onChange?: (status: SiteSyncStatus) => void;
      pollMs?: number;
      /** Check in this often (default 2 s). */
      checkInMs?: number;
      connectTimeoutMs?: number;
      batchSize?: number;
      afterApply?: (applied: number) => void | Promise<void>;
      /** Another station committed changes (LISTEN/NOTIFY); absent: no listening connection. */
      onRemoteChange?: (stationId: string) => void;
      /** A station's heartbeat changed (LISTEN site_console): the console refreshes. */
      onConsole?: (stationId: string) => void;
      queues?: () => StationQueues;
      printers?: () => SitePrinter[];
      heartbeat?: () => Heartbeat | Promise<Heartbeat>;
      atCheckIn?: (store: SiteStore, settings: Record<string, string>) => Promise<void>;
      /** How often a store that stays away is mentioned again in the log (default 5 min). */
      outageReminderMs?: number;
      /**
       * The profile this station packs under now (null: none open): only the printers of
       * stations of its scope are offered (inProfileScope). Absent: every station's.
       */
      profileScope?: () => ProfileScope | null;
    },
  ) {
    this.password = options.password;
    this.profileScope = options.profileScope;
    this.store = new SiteStore({
      config,
      password: options.password,
      ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    });
    this.outbox = new SiteOutbox(options.db, config.stationId);
    this.outbox.enable();
    this.labelled = new LabelledElsewhere(options.db);
    this.sync = new SiteSync({
      store: this.store,
      outbox: this.outbox,
      ...(options.pollMs ? { pollMs: options.pollMs } : {}),
      ...(options.checkInMs ? { checkInMs: options.checkInMs } : {}),
      ...(options.batchSize ? { batchSize: options.batchSize } : {}),
      ...(options.afterApply ? { afterApply: options.afterApply } : {}),
      ...(options.queues ? { queues: options.queues } : {}),
      ...(options.printers ? { printers: options.printers } : {}),
      ...(options.heartbeat ? { heartbeat: options.heartbeat } : {}),
      ...(options.atCheckIn ? { atCheckIn: options.atCheckIn } : {}),
      ...(options.log ? { log: options.log } : {}),
      ...(options.outageReminderMs ? { outageReminderMs: options.outageReminderMs } : {}),
      ...(options.onChange ? { onChange: options.onChange } : {}),
    });
    this.listener = options.onRemoteChange
      ? new SiteListener({
          url: config.url,
          password: options.password,
          stationId: config.stationId,
          onChange: options.onRemoteChange,
          ...(options.onConsole ? { onConsole: options.onConsole } : {}),
        })
      : null;
  }

  /** The site's one tracker poller for a scope (see SiteTrackers); the caller starts it. */
  trackers(o: Omit<SiteTrackersOptions, 'url' | 'password' | 'stationId'>): SiteTrackers {
    return new SiteTrackers({
      ...o,
      url: this.config.url,
      password: this.password,
      stationId: this.config.stationId,
    });
  }

  start(): void {
    this.sync.start();
    this.listener?.start();
  }

  async close(): Promise<void> {
    await this.listener?.stop();
    await this.sync.stop();
    await this.store.close();
  }

  /**
   * Other stations' network printers as printer configs this station's spool can print to,
   * with ids `site:<station id>:<printer id>` (this station's own printers are its own).
   */
  remotePrinters(): PrinterConfig[] {
    const mine = this.profileScope ? this.profileScope() : undefined;
    if (mine === null) return [];
    return this.sync.sitePrinters
      .filter(
        (p) => p.stationId !== this.config.stationId && (!mine || inProfileScope(p.profile, mine)),
      )
      .map((p) => ({
        id: `site:${p.stationId}:${p.printerId}`,
        name: `${p.name} (${p.stationName})`,
        kind: 'network' as const,
        host: p.host,
        port: p.port,
        dpi: (p.dpi === 300 || p.dpi === 600 ? p.dpi : 203) as PrinterConfig['dpi'],
      }));
  }

  /**
   * The station of the site whose network printer this is, when that station is of another
   * profile scope (another tenant's): a reprint there is refused, said by the station's name.
   */
  printerOutOfScope(printerId: string): string | null {
    if (!this.profileScope) return null;
    const mine = this.profileScope();
    const p = this.sync.sitePrinters.find(
      (x) => `site:${x.stationId}:${x.printerId}` === printerId,
    );
    return p && (!mine || !inProfileScope(p.profile, mine)) ? p.stationName : null;
  }

  /**
   * A store that just failed to answer is not asked again for a while: a packer's scan, claim
   * or import must not wait out another connection timeout (the drainer keeps trying).
   */
  private throwIfRecentlyDown(): void {
    const { problem, failedAt } = this.sync.status();
    if (
      problem?.kind === 'unreachable' &&
      failedAt !== null &&
      Date.now() - failedAt < SKIP_AFTER_FAILURE_MS
    )
      throw new SiteStoreError(problem);
  }

  /**
   * Whether this station has reached the store at its address: the database it sent its
   * history to is recorded at its first check-in there (station migration 19) and forgotten when
   * the address changes (saveSiteStore). A store never reached is not an outage but an address to
   * check (a typo in the port, a station not set up yet): nothing is bought there.
   */
  hasReachedStore(): boolean {
    return this.outbox.storeIdentity() !== null;
  }

  /** Where the store is, for Settings: never the password. */
  get where(): string {
    return describeSiteStore(this.config.url);
  }

  /**
   * Claims an order file for this site before importing it (the same content imported at any
   * station, or dropped in a hot folder several stations watch, is imported once). Returns why
   * not to import it, or null to go ahead; an unreachable store imports locally (an order
   * imported twice is harmless: the order claim still stops a second label).
   */
  async claimFile(scope: StationScope, text: string, fileName: string): Promise<string | null> {
    const sha = createHash('sha256').update(text).digest('hex');
    try {
      this.throwIfRecentlyDown();
      const claim = await this.store.claimImport(scope, sha, fileName);
      if (claim.claimed) return null;
      return `${fileName} was already imported for this site at ${claim.stationName} (${claim.at}${claim.fileName !== fileName ? `, as ${claim.fileName}` : ''}); its orders can be scanned at every station.`;
    } catch {
      this.sync.wake();
      return null;
    }
  }

  /**
   * The import of a file this station claimed brought in no order: the claim is given up, so
   * the file can be imported again once its problems are put right. Best effort: with the
   * store away the claim stays (importing the file here again is still allowed).
   */
  async releaseFile(scope: StationScope, text: string): Promise<void> {
    const sha = createHash('sha256').update(text).digest('hex');
    try {
      this.throwIfRecentlyDown();
      await this.store.releaseImport(scope, sha);
    } catch {
      this.sync.wake();
    }
  }

  /**
   * A label of any station of the site, for a reprint here. A store that does not answer (or
   * just failed to) throws its SiteStoreError at once: the packer is not kept waiting.
   */
  label(stationId: string, localId: number): Promise<SiteLabel | null> {
    return this.askNow(() => this.store.label(stationId, localId));
  }

  /** Every station's reprints of one label; throws at once while the store is down, as label(). */
  reprintsOf(stationId: string, localId: number): Promise<SiteReprint[]> {
    return this.askNow(() => this.store.reprintsOf(stationId, localId));
  }

  /** A read a person waits for: not tried while the store just failed; a failure wakes the sync. */
  async askNow<T>(read: () => Promise<T>): Promise<T> {
    this.throwIfRecentlyDown();
    try {
      return await read();
    } catch (error) {
      this.sync.wake();
      throw error;
    }
  }

  /**
   * Orders of the site with this number, for a scan this station has no order for. When the
   * store could not be asked, `problem` says why: "nothing matches" would then be a guess, and
   * the packer must be told the site was not looked in.
   */
  async findOrders(
    scope: StationScope,
    orderNumber: string,
    tenantIds?: readonly string[],
  ): Promise<SiteOrderLookup> {
    try {
      this.throwIfRecentlyDown();
      return { orders: await this.store.findOrders(scope, orderNumber, tenantIds), problem: null };
    } catch (error) {
      this.sync.wake();
      return { orders: [], problem: describeSiteError(error, this.config.url) };
    }
  }

  /** Another station's label of this order, as this station keeps them (see mirrorLabelled). */
  labelledElsewhere(scope: StationScope, tenantId: string, orderNumber: string) {
    return this.labelled.holder(scope, tenantId, orderNumber);
  }

  /**
   * Whether another station's label was marked voided at the carrier there since (the labels
   * kept above carry no marks): the mark, null when not, undefined when the store was not asked.
   */
  async labelVoid(stationId: string, localId: number): Promise<LabelVoidMark | null | undefined> {
    try {
      this.throwIfRecentlyDown();
      return await this.store.labelVoid(stationId, localId);
    } catch {
      this.sync.wake();
      return undefined;
    }
  }

  /**
   * The voided marks of some of other stations' labels (see labelVoid), by `stationId:localId`;
   * undefined when the store was not asked or did not answer.
   */
  async labelVoids(
    labels: readonly { stationId: string; localId: number }[],
  ): Promise<Map<string, LabelVoidMark> | undefined> {
    try {
      this.throwIfRecentlyDown();
      return await this.store.labelVoids(labels);
    } catch {
      this.sync.wake();
      return undefined;
    }
  }

  /** Keeps the labels other stations bought, for an outage (see LabelledElsewhere.mirror). */
  mirrorLabelled(scope: StationScope): Promise<number> {
    return this.labelled.mirror(scope, (since, limit) =>
      this.store.labelledSince(scope, since, limit),
    );
  }

  /**
   * The claim for one profile's scope. Unreachable store: an order the store said was labelled
   * at another station is refused from that memory (LabelledElsewhere); otherwise the site's
   * offlinePurchase setting (as last read) decides: allow buys and reconciles later, refuse
   * buys nothing. A store that answers but refuses this station (login, role, database) buys
   * nothing: that is a station set up wrong, not an outage. So does a store that has never
   * answered this station at its address (a mistyped port: the offline rule would have it buy
   * without claims for as long as nobody noticed).
   */
  claims(scope: StationScope): OrderClaims {
    return {
      claim: async (request) => {
        const { tenantId, orderNumber } = request;
        // Two running stations under one id would each take the other's claims for its own.
        // (The sync's problem as it stands: no outbox count on a purchase's path.)
        const problem = this.sync.problem();
        if (problem?.kind === 'duplicate-station')
          return { granted: false, code: 'site-store-unreachable', message: problem.message };
        // A store migrated past what this station can use: its claim would be taken and its
        // label never sent (the outbox waits), so another station would read "being labelled
        // here" for good. Nothing is bought until the station is updated.
        if (problem?.kind === 'newer-schema')
          return {
            granted: false,
            code: 'site-store-unreachable',
            message: `${problem.message} Nothing was bought: this station cannot record its labels in the site store until it is updated. Call site IT.`,
          };
        let answer;
        try {
          this.throwIfRecentlyDown();
          answer = await this.store.claimOrder(scope, request);
        } catch (error) {
          const problem = describeSiteError(error, this.config.url);
          this.sync.wake();
          // Labelled at another station, as the store said before it went away: not bought
          // offline (a second charge flagged later), unless the packer asks for another label.
          const known = request.confirmed
            ? null
            : this.labelled.refusal(scope, tenantId, orderNumber, problem.fact ?? problem.message);
          if (known) return known;
          // The store answers but did not take the claim in time (busy): another station's
          // claim may be right behind a lock, so buying under the offline rule could buy the
          // order twice. Nothing is bought; the packer tries again in a moment.
          if (problem.kind === 'busy')
            return {
              granted: false,
              code: 'site-store-unreachable',
              message: `${problem.fact ?? problem.message} Nothing was bought: without the site's answer another station may be buying this order right now. Press Ctrl+Enter again in a moment; call site IT if it stays so.`,
            };
          // The store answers but will not have this station (its password, its role, its
          // database, a newer schema): not an outage the site's rule is for, but a station set
          // up wrong, which would buy without claims until someone notices. Nothing is bought.
          if (problem.kind !== 'unreachable' && problem.kind !== 'other')
            return {
              granted: false,
              code: 'site-store-unreachable',
              message: `${problem.message} Nothing was bought: this station cannot check with the site whether another station has labelled this order. Call the shift lead or site IT (Settings → Site store).`,
            };
          if (!this.hasReachedStore())
            return {
              granted: false,
              code: 'site-store-unreachable',
              message: `${neverAnsweredWords(this.config.url, problem)} Nothing was bought: this station cannot check with the site whether another station has labelled this order, and the site's offline rule is for a store that has answered it before. Call the shift lead or site IT (Settings → Site store).`,
            };
          if (this.outbox.offlinePurchase() === 'refuse')
            return {
              granted: false,
              code: 'site-store-unreachable',
              message: `${problem.fact ?? problem.message} This site buys no label while the site store is away (site IT set it so), so nothing was bought. Try again when it answers, or call the shift lead.`,
            };
          return { granted: true, mode: 'offline' };
        }
        this.labelled.learn(scope, tenantId, orderNumber, answer);
        return answer;
      },
    };
  }
}
