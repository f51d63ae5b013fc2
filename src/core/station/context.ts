import { join } from 'node:path';
import { keptNamesOf } from './platform-names.js';
import { batchView } from './features/floor.js';
import { takeSiteVersion } from './features/site-order-refresh.js';
import type { HidPort } from '../devices/index.js';
import type { StationLog } from '../logging/index.js';
import { createPrinterDriver } from '../printing/drivers/index.js';
import { PrintSpool } from '../printing/spool/print-spool.js';
import { ProfileStore } from '../profiles/profile-store.js';
import type { Profile, ProfileInput } from '../profiles/profile-schema.js';
import { secretFromEnvironment, type SecretVault } from '../profiles/secret-vault.js';
import type { SettingsStore } from '../profiles/settings-store.js';
import { TokenStore } from '../platform/index.js';
import { checkpointInBackground } from '../storage/checkpoints.js';
import { openDatabase, type Db } from '../storage/database.js';
import type { ProfileView, StationSettings } from '../../shared/views.js';
import { profileView } from './map.js';
import { LiveChanges, type ChangeKind } from './live-changes.js';
import { StationFailure } from './errors.js';
import { hotFolderProblem } from '../orders/hot-folder-policy.js';
import { StationEvents } from './events.js';
import type { EmbeddedSandbox, StartSandbox } from './ports.js';
import { ProfileRuntime } from './runtime.js';
import type { SiteLink } from '../site/link.js';
import type { SiteAttentionCount } from './features/site-attention.js';
import type { SiteConsoleCache } from './features/site-console.js';
import { LocalUsers } from '../users/local.js';
import { withSiteSettings, type SettingSource, type SiteSettingKey } from '../site/settings.js';
import {
  readSiteOverrides,
  readSiteSettings,
  readSiteSettingSources,
  readStationSettings,
  writeStationSettings,
} from './station-settings.js';
import { StationSession } from '../users/session.js';
import type { PrinterStatusView } from '../../shared/station-views.js';
import type { Handlers } from './dispatch.js';

export interface StationOptions {
  dataDir: string;
  settings: SettingsStore;
  vault: SecretVault;
  host: 'electron' | 'web';
  /** Starts the embedded sandbox for the first-run demo profile (core may not import it). */
  startSandbox?: StartSandbox;
  /** better-sqlite3's native binding for hosts whose ABI differs from Node (Electron). */
  nativeBinding?: string;
  /** A provisioning file applied on start. */
  provisionFile?: string;
  /** Where `resources/` lives (sample orders). */
  resourcesDir?: string;
  version?: string;
  /** One line for the station's log; the log file's `line` when omitted and there is one. */
  log?: (line: string) => void;
  /** The rotating log file (src/core/logging): its folder and redactor serve diagnostics. */
  stationLog?: Pick<StationLog, 'dir' | 'redactor' | 'line'> & Partial<Pick<StationLog, 'written'>>;
  env?: NodeJS.ProcessEnv;
  /**
   * Web host: the folders under which a hot folder typed in the page may lie (--hot-folder-root).
   * Provisioning from the command line can add more (hotFolderRoots).
   */
  hotFolderRoots?: string[];
  /** Electron: a native folder dialog, the only way the app sets a hot folder. */
  chooseFolder?: () => Promise<string | null>;
  /** `npm run web -- --console`: the shift-lead console, with no printer or scanner (issue 14). */
  consoleOnly?: boolean;
  /** node-hid, where scales are looked for; the machine's when omitted (tests pass a fake). */
  hid?: HidPort | (() => Promise<HidPort>);
}

/** What every feature of the facade shares: storage, stores, the spool and the active profile. */
export class StationContext {
  readonly db: Db;
  readonly profiles: ProfileStore;
  readonly spool: PrintSpool;
  readonly events = new StationEvents();
  readonly tokenStore = new TokenStore();
  readonly log: (line: string) => void;
  private current: ProfileRuntime | null = null;
  sandbox: EmbeddedSandbox | null = null;
  /** The demo profile's in-process virtual printer, when it runs. */
  virtualPrinter: { port: number } | null = null;
  private sandboxStarting: Promise<EmbeddedSandbox> | null = null;
  /** The site store link (issue 12); null on a station on its own. */
  site: SiteLink | null = null;
  /** The site-wide part of the header's Needs attention count; null without a site store. */
  siteAttention: SiteAttentionCount | null = null;
  /** The console's picture of the site as last read; null without a site store. */
  siteConsole: SiteConsoleCache | null = null;
  /** The station's users (a station alone) or the copy of the site's (issue 14). */
  readonly users: LocalUsers;
  /** Who is packing here, and a shift lead's approvals (issue 14). */
  readonly session: StationSession;
  /** The facade's handlers, for features that delegate to another call. */
  handlersRef: Handlers | null = null;
  /** Stopped with the station: the embedded sandbox, the demo's virtual printer. */
  readonly closers: (() => Promise<void>)[] = [];
  private readonly stopCheckpoints: () => void;

  constructor(readonly options: StationOptions) {
    this.log = options.log ?? options.stationLog?.line ?? (() => {});
    this.db = openDatabase(join(options.dataDir, 'station.db'), {
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    });
    // Checkpoints while no packer's call is under way, not inside a purchase's commit.
    this.stopCheckpoints = checkpointInBackground(this.db, {
      idle: () => !this.current?.workflow.packerBusy,
    });
    this.profiles = new ProfileStore(options.settings, options.vault);
    this.users = new LocalUsers(this.db);
    this.session = new StationSession({ users: this.users });
    this.spool = new PrintSpool({
      db: this.db,
      printers: () => [
        ...(this.current?.profile.printers ?? this.profiles.active()?.printers ?? []),
        // Other stations' network printers, for reprints from site-wide History (issue 12).
        ...(this.site?.remotePrinters() ?? []),
      ],
      otherPrinter: (id) => {
        try {
          return this.profiles
            .list()
            .flatMap((p) => p.printers)
            .find((p) => p.id === id);
        } catch {
          return undefined; // stored profiles unreadable: said where they are edited
        }
      },
      createDriver: (config) => createPrinterDriver(config),
      backoff: { baseMs: 500, maxMs: 5000 },
      faultPollMs: 1000,
    });
  }

  /** The site settings as last read from the store (issue 14); undefined without a site. */
  siteSettings(): Record<string, string> | undefined {
    return readSiteSettings(this.options.settings);
  }

  /** The site settings this station keeps its own value for (shown with a marker). */
  siteOverrides(): string[] {
    return readSiteOverrides(this.options.settings);
  }

  /** Where each site setting this station uses comes from (Settings shows the marker). */
  siteSettingSources(): Record<SiteSettingKey, SettingSource> {
    return readSiteSettingSources(this.options.settings);
  }

  stationSettings(): StationSettings {
    return readStationSettings(this.options.settings);
  }

  saveStationSettings(next: StationSettings): void {
    writeStationSettings(this.options.settings, next);
  }

  /**
   * Whether the profile's client secret is there (in the vault, bound to the profile, or in the
   * variable it names) and where it comes from, in words for Settings. One look at the vault
   * for both: the header asks on every status.
   */
  async secretState(
    profile: Profile,
  ): Promise<{ hasSecret: boolean; secretSource: string | null }> {
    const env = this.options.env ?? process.env;
    const inVault = await this.profiles.hasClientSecret(profile.id);
    let inEnv = false;
    if (!inVault)
      try {
        secretFromEnvironment(profile, env);
        inEnv = true;
      } catch {
        inEnv = false;
      }
    // The demo's key is the embedded sandbox's own, handed over on every start: nothing to keep.
    const secretSource =
      profile.environment === 'embedded-sandbox'
        ? 'comes with the embedded sandbox (demo data, nothing to keep)'
        : inVault
          ? (this.options.vault.description ?? "the host's secret vault")
          : profile.clientSecretEnv && env[profile.clientSecretEnv]
            ? `from the environment variable ${profile.clientSecretEnv}`
            : null;
    return { hasSecret: inVault || inEnv, secretSource };
  }

  /**
   * Why a hot folder given through the contract (a page) is refused, or null. The data
   * directory and its parents never; in Electron only the native dialog sets one; in the web
   * host only folders under a hot-folder root.
   */
  hotFolderProblem(folder: string, from: 'page' | 'dialog' | 'command-line'): string | null {
    if (from === 'page' && this.options.host === 'electron')
      return 'In the app, the hot folder is chosen with "Choose folder…", not typed.';
    const roots =
      from === 'page'
        ? [...(this.options.hotFolderRoots ?? []), ...this.profiles.hotFolderRoots()]
        : undefined;
    return hotFolderProblem(folder, { dataDir: this.options.dataDir, roots });
  }

  /** The profile as the screens show it. */
  async view(profile: Profile, baseUrl?: string): Promise<ProfileView> {
    const running = this.current?.profile.id === profile.id ? this.current : null;
    // A profile not running is named as the platform last named it (kept in the database).
    const names = running
      ? { siteName: running.names.siteName, tenantName: running.names.tenantName }
      : this.db.open
        ? keptNamesOf(this.db, { profileId: profile.id, environment: profile.environment }, profile)
        : { siteName: null, tenantName: null };
    return profileView(profile, {
      active: this.profiles.active()?.id === profile.id,
      ...(await this.secretState(profile)),
      ...(baseUrl ? { baseUrl } : {}),
      ...names,
    });
  }

  runtimeOrNull(): ProfileRuntime | null {
    return this.current;
  }

  runtime(): ProfileRuntime {
    if (!this.current)
      throw new StationFailure(
        'no-profile',
        'No site profile is active. Set one up in Settings (Alt+7).',
      );
    return this.current;
  }

  async embeddedSandbox(): Promise<EmbeddedSandbox> {
    if (this.sandbox) return this.sandbox;
    if (!this.options.startSandbox)
      throw new StationFailure('not-available', 'This host cannot start the embedded sandbox.');
    this.sandboxStarting ??= this.options
      .startSandbox({ dataDir: this.options.dataDir })
      .then((s) => {
        this.sandbox = s;
        this.closers.push(() => s.close());
        return s;
      });
    return this.sandboxStarting;
  }

  /** Makes a profile the active one: closes the old runtime, opens the new one. */
  async activate(profile: Profile): Promise<ProfileRuntime> {
    await this.current?.close();
    this.current = null;
    this.profiles.setActive(profile.id);
    // The site's rate rule and packing-slip settings, unless this station overrides them (issue 14).
    const runtime = await ProfileRuntime.open(
      withSiteSettings(profile, this.siteSettings(), this.siteOverrides()),
      {
        db: this.db,
        hotFolderProblem: (folder) => hotFolderProblem(folder, { dataDir: this.options.dataDir }),
        clientSecret: (p) => this.profiles.clientSecret(p, this.options.env ?? process.env),
        spool: this.spool,
        tokenStore: this.tokenStore,
        embeddedBaseUrl: async () => (await this.embeddedSandbox()).baseUrl,
        log: this.log,
        onChange: (what) => this.changed(what),
        onTrackers: (numbers) => this.trackersChanged(numbers),
        onLabel: (purchaseId) => this.labelStored(purchaseId),
        onOrders: (fileName, imported) => this.ordersChanged({ fileName, imported }),
        onAttention: () => this.changed('attention'),
        boxes: () => this.stationSettings().boxes,
        onBatch: (summary) => this.events.emit('batch-progress', batchView(summary, this.spool)),
        ...(this.site
          ? {
              orderClaims: this.site.claims.bind(this.site),
              beforeShip: async (orderId: number) => {
                const order = this.runtimeOrNull()?.orders.get(orderId);
                if (order) await takeSiteVersion(this, order);
              },
              claimOrderFile: this.site.claimFile.bind(this.site),
              releaseOrderFile: this.site.releaseFile.bind(this.site),
              siteTrackers: (o) => {
                const site = this.site!;
                return site.trackers({
                  ...o,
                  onChanges: o.onChanges,
                  log: this.log,
                  reached: () => site.hasReachedStore(),
                  refuses: () => site.outbox.offlinePurchase() === 'refuse',
                });
              },
            }
          : {}),
      },
    );
    this.current = runtime;
    await runtime.start();
    this.changed('status');
    this.onActivated?.();
    return runtime;
  }

  /** Called each time a profile is (re)opened: the header asks its label printer again at once. */
  onActivated: (() => void) | null = null;

  /**
   * Stores a profile; when it is the active one it is reopened, so its printers, rule and hot
   * folder take effect now, not at the next switch of profiles.
   */
  async saveProfile(next: ProfileInput): Promise<Profile> {
    const saved = this.profiles.save(next);
    if (this.profiles.active()?.id === saved.id) await this.activate(saved);
    return saved;
  }

  /**
   * The site's settings (or this station's overrides of them) changed: the running profile
   * takes the new rate rule and packing slips without being reopened (batches go on, the
   * tracker leadership is kept). Box presets, the reprint limit and offline purchase are read
   * where they are used and need nothing here. Only a runtime whose profile changed in what
   * it was built from (which a site setting never changes) is opened again.
   */
  async applySiteSettings(): Promise<void> {
    const rt = this.current;
    const active = this.profiles.active();
    if (!rt || !active) return;
    const next = withSiteSettings(active, this.siteSettings(), this.siteOverrides());
    if (next.id !== rt.profile.id || !rt.applySettings(next)) await this.reload();
    this.changed('status');
  }

  /** Replaces the active profile's definition (printers, rule…) and reopens it. */
  async reload(): Promise<void> {
    const active = this.profiles.active();
    if (active) await this.activate(active);
  }

  /** What changed since the last live events, sent within 100 ms (live-changes.ts). */
  private readonly live = new LiveChanges(this);
  /**
   * Something changed: within 100 ms (bursts coalesce) the renderer gets an event carrying the
   * data as it is now (the queue, Needs attention, the changed trackers, the carrier accounts)
   * and a new status for the header.
   */
  changed(what: ChangeKind): void {
    // (The site's drainer is woken by the outbox itself when a commit adds a row: SiteOutbox.onRow.)
    this.live.changed(what);
  }

  /** Trackers a poll stored (new or with a new status): their rows go out with the next event. */
  trackersChanged(trackingNumbers: readonly string[]): void {
    this.live.trackersChanged(trackingNumbers);
  }

  /** A label was stored, by its purchase id: it goes out with the next labels-changed. */
  labelStored(purchaseId: string): void {
    this.live.labelStored(purchaseId);
  }

  /**
   * Orders came in from a file, or these orders' state changed (verified, overridden): said at
   * once, with what changed (the Orders view follows).
   */
  ordersChanged(change: { fileName?: string; imported?: number; orderIds?: string[] }): void {
    this.live.ordersChanged(change);
    // A batch's failed order leaves Needs attention once re-imported, cancelled or reopened.
    this.changed('attention');
  }

  onStatusDue: (() => void) | null = null;
  /**
   * Why a printer cannot print right now, in a few words ("not answering", "out of paper"), from
   * the last thing the station heard of it; null when it is ready or nothing is known.
   */
  printerIssue: (printerId: string) => string | null = () => null;
  /** The label printer as the header last saw it (the heartbeat publishes it for the console). */
  printerView: () => PrinterStatusView | null = () => null;

  async close(): Promise<void> {
    this.live.stop();
    await this.current?.close();
    this.current = null;
    await this.spool.stop();
    await this.site?.close();
    this.site = null;
    this.siteAttention = null;
    this.siteConsole = null;
    for (const close of this.closers.reverse()) await close().catch(() => {});
    this.stopCheckpoints();
    this.db.close();
  }
}
