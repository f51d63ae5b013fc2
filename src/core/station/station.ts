import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { EventName } from '../../shared/contract.js';
import type { Result } from '../../shared/result.js';
import { StationContext, type StationOptions } from './context.js';
import { dispatch, type Handlers } from './dispatch.js';
import { acquireDataDirLock } from './lock.js';
import { printJobView } from './map.js';
import { printerNamer } from './snapshots.js';
import type { StationEvents } from './events.js';
import { deviceHandlers } from './features/devices.js';
import { scaleHandlers } from './features/scale.js';
import { settingsHandlers } from './features/settings.js';
import { packingHandlers } from './features/packing.js';
import { floorHandlers } from './features/floor.js';
import { profileHandlers } from './features/profiles.js';
import { profileBrandHandlers } from './features/profile-brands.js';
import { platformProblems } from './features/profile-checks.js';
import { recordHandlers } from './features/records.js';
import {
  openSite,
  refuseStationIdInUse,
  provisionedSiteStore,
  saveSiteStore,
  siteHandlers,
  siteStoreInFile,
} from './features/site.js';
import { StatusFeature } from './features/status.js';
import { siteServiceHandlers } from './features/site-services.js';
import { diagnosticsHandlers } from './features/diagnostics.js';
import { DEMO_PROFILE_ID, openDemoProfile } from './first-run.js';
import { provisionProfiles, type ProvisionedProfile } from '../profiles/provisioning.js';
import { SettingsError } from '../profiles/settings-store.js';

export type { StationOptions } from './context.js';

export interface Station {
  readonly handlers: Handlers;
  readonly events: StationEvents;
  /** For tests and hosts: the data the station runs on. */
  readonly context: StationContext;
  dispatch(name: unknown, input: unknown): Promise<Result<unknown>>;
  onEvent(listener: (name: EventName, payload: unknown) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The Station facade: composes the core modules into the contract's handlers, one feature
 * file each. It wires and translates; every business rule stays in the module that owns it.
 */
export function createStation(options: StationOptions): Station {
  // Before the database is opened: a second station on this directory stops here.
  const unlock = acquireDataDirLock(options.dataDir);
  // A first start (no database yet) that is refused leaves no empty database behind.
  const database = join(options.dataDir, 'station.db');
  const firstStart = !existsSync(database);
  let ctx: StationContext;
  try {
    ctx = new StationContext(options);
  } catch (error) {
    unlock();
    throw error;
  }
  const status = new StatusFeature(ctx);
  ctx.onActivated = () => status.soon();
  ctx.onStatusDue = () => {
    void status.status().then(
      (s) => ctx.events.emit('status', s),
      () => {},
    );
  };
  ctx.spool.on('job', (job) => {
    ctx.events.emit('print-job', printJobView(job, printerNamer(ctx)(job.printerId)));
    ctx.changed('queue');
    if (job.state === 'failed' || job.state === 'unknown') ctx.changed('attention');
  });

  // One entry per feature module of src/shared/features; a call without its handler does not
  // compile (each feature's handlers are typed as exactly its calls, and the join as all of them).
  const handlers = {
    ...status.handlers(),
    ...profileHandlers(ctx),
    ...profileBrandHandlers(ctx),
    ...packingHandlers(ctx),
    ...floorHandlers(ctx),
    ...scaleHandlers(ctx),
    ...recordHandlers(ctx),
    ...deviceHandlers(ctx),
    ...settingsHandlers(ctx),
    ...siteHandlers(ctx),
    ...siteServiceHandlers(ctx),
    ...diagnosticsHandlers(ctx),
  } satisfies Handlers;
  ctx.handlersRef = handlers;

  let closing: Promise<void> | undefined;
  const shutDown = (): Promise<void> =>
    (closing ??= (async () => {
      status.stop();
      try {
        await ctx.close();
      } finally {
        unlock();
      }
    })());

  return {
    handlers,
    events: ctx.events,
    context: ctx,
    dispatch: (name, input) => dispatch(handlers, name, input, ctx.log),
    onEvent: (listener) => ctx.events.onAny(listener),
    async start() {
      try {
        await starting();
      } catch (error) {
        // A refused start (its provisioning file, a site store, a profile) leaves nothing
        // running and no lock behind: the next start, or another host, takes the directory.
        // On a first start, not the database either: it held only its schema and what this
        // start wrote before it was refused, and the next start begins as a first one.
        await shutDown().catch(() => {});
        if (firstStart)
          for (const f of [database, `${database}-wal`, `${database}-shm`])
            rmSync(f, { force: true });
        throw error;
      }
    },
    stop: shutDown,
  };

  async function starting(): Promise<void> {
    ctx.spool.start();
    if (options.provisionFile) {
      const text = provisioningText(options.provisionFile);
      // The whole file is checked before anything of it is stored: its site store (and the
      // station id not in use by another station) first, then its profiles.
      const inFile = siteStoreInFile(text);
      // A name changed in Settings since is kept while the file says what it said before.
      const provisioned = inFile ? provisionedSiteStore(ctx, inFile) : null;
      const site = provisioned?.config ?? null;
      if (site) await refuseStationIdInUse(ctx, site);
      const results = await provisionProfiles(ctx.profiles, text, {
        source: 'command-line',
        hotFolderProblem: (folder) => ctx.hotFolderProblem(folder, 'command-line'),
        ...(options.env ? { env: options.env } : {}),
        checkPlatform: (profile, secret) => platformProblems(ctx, profile, secret),
      });
      if (site) {
        saveSiteStore(ctx, site);
        provisioned?.accepted();
        ctx.log(`provisioned site store ${site.stationName} (${site.stationId})`);
      }
      const first = results[0]?.profile;
      if (first) ctx.profiles.setActive(first.id);
      ctx.log(
        `provisioned ${results.map((r) => `${r.profile.name} (${secretWords(r)})`).join(', ')}`,
      );
      for (const r of results)
        if (r.keptFromSettings)
          ctx.log(
            `provisioning file: ${r.profile.name} keeps its ${r.keptFromSettings.join(', ')} as changed in Settings since the file last set them. To set them from the file, change them in the file.`,
          );
    }
    await openSite(ctx);
    const profiles = ctx.profiles.list();
    if (profiles.length === 0) {
      await openDemoProfile(ctx, true);
    } else {
      const active = ctx.profiles.active() ?? profiles[0]!;
      if (profiles.some((p) => p.id === DEMO_PROFILE_ID) && options.startSandbox) {
        const demo = await openDemoProfile(ctx, false);
        await ctx.activate(active.id === DEMO_PROFILE_ID ? demo : active);
      } else {
        await ctx.activate(active);
      }
    }
    status.start();
  }
}

/** The provisioning file's text; one that cannot be read is said in a sentence, not a stack. */
function provisioningText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES'
          ? 'cannot be read by this user'
          : code === 'EISDIR'
            ? 'is a folder, not a file'
            : `cannot be read (${code ?? (error as Error).message})`;
    throw new SettingsError(`The provisioning file ${file} ${why}.`, {
      file,
      issues: [{ path: '(file)', message: why }],
    });
  }
}

/**
 * Where a provisioned profile's client secret comes from, for the log (no "secret:" in it: the
 * log's redaction would take what follows for a secret and blank it).
 */
function secretWords(r: ProvisionedProfile): string {
  switch (r.secret) {
    case 'from-environment':
      return `client secret from ${r.profile.clientSecretEnv ?? 'its environment variable'}`;
    case 'already-set':
      return 'client secret already stored';
    case 'typed':
      return 'client secret typed at the station';
    case 'needs-secret':
      return `no client secret yet${r.profile.clientSecretEnv ? ` (${r.profile.clientSecretEnv} is not set)` : ''}: set it in Settings → Profiles`;
  }
}
