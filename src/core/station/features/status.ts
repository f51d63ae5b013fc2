import { createPrinterDriver, NetworkPrinter } from '../../printing/drivers/index.js';
import { describeStatus } from '../../printing/zebra-status.js';
import {
  STATUS_ANSWER_BOUND_MS,
  stationPrinterAnswers,
} from '../../printing/drivers/printer-answers.js';
import { describePrinter, type PrinterConfig, type PrinterStatus } from '../../printing/types.js';
import { labelPrinterOf } from '../../profiles/profile-schema.js';
import { createHash } from 'node:crypto';
import { countsOf } from '../snapshots.js';
import { printerStateWords } from '../../../shared/printers.js';
import type {
  Connectivity,
  PrinterState,
  PrinterStatusView,
  StationStatus,
} from '../../../shared/views.js';
import type { StationContext } from '../context.js';
import { carrierView, profileView, trackingSync } from '../map.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { stationCalls } from '../../../shared/features/station.js';
import { siteHeader } from './site.js';
import { ProfileRuntime } from '../runtime.js';

/**
 * The view of a printer's status: `status` is what it answered (null: it cannot say), `message`
 * why it could not be asked. A fault is named in words; "other" stays a fault, never "ready".
 */
export function printerStatusView(
  cfg: PrinterConfig,
  status: PrinterStatus | null,
  message: string | null,
): PrinterStatusView {
  const where = describePrinter(cfg);
  const fault = status?.faults[0];
  // It answered, slowly (a weak Wi-Fi bridge): said, and not "not answering".
  const slowMs =
    status && cfg.kind === 'network' && cfg.host
      ? stationPrinterAnswers.slowMs(`${cfg.host}:${cfg.port ?? 9100}`)
      : null;
  const slow = slowMs
    ? `; it is slow to answer (${(slowMs / 1000).toFixed(1)} s a question: a weak network link?), so each label waits for its answers`
    : '';
  const state: PrinterState =
    status === null
      ? message
        ? 'offline'
        : 'unknown'
      : status.ready
        ? 'ready'
        : ((fault === 'other' || !fault ? 'unknown' : fault) as PrinterState);
  return {
    printerId: cfg.id,
    name: cfg.name,
    state,
    ...(slowMs ? { slowMs } : {}),
    message:
      message ??
      (status === null
        ? `${where} does not report its status; labels are sent to it as they come`
        : status.ready
          ? `${where} is ready${slow}`
          : `${describeStatus(cfg, status) ?? `${where} reports a fault`}${slow}`),
  };
}

/**
 * Whether packing can reach the platform, as the header says it (and the site's console, from
 * the heartbeat): the key refused, no secret, failing requests, or the connectivity signal.
 */
export function platformState(
  rt: NonNullable<ReturnType<StationContext['runtimeOrNull']>>,
  hasSecret: boolean,
): { state: Connectivity; detail: string | null } {
  const conn = rt.client.connectivity.snapshot();
  // Answered before, but the latest packing request(s) went unanswered: said at once (a
  // platform that hangs answers nothing, so it would stay "online" until a streak). A failure
  // the platform has answered anything since (a rating, the tracker list) is not "not
  // answering": one purchase whose connection was reset kept the header amber for minutes.
  const failing =
    conn.state === 'online' && conn.consecutiveFailures > 0
      ? (['token', 'rates', 'labels'] as const)
          .map((c) => conn.capabilities[c])
          .filter(
            (c) =>
              c.consecutiveFailures > 0 &&
              c.lastFailure &&
              c.lastFailure.at >= (conn.lastSuccessAt ?? 0),
          )
          .map((c) => c.lastFailure!)
          .sort((a, b) => b.at - a.at)[0]
      : undefined;
  const refused = rt.client.tokens.refused;
  // Rates (say) failing while the tracker list or carrier accounts answer: the platform is
  // there, and its rates endpoint fails. Said as such, not as the platform being offline.
  const alone = conn.state === 'offline' ? rt.client.connectivity.failingAlone() : [];
  const again = `The station asks again every ${Math.round(ProfileRuntime.platformProbeMs / 100) / 10} s by itself; purchases meanwhile wait in the offline queue.`;
  return {
    state: refused
      ? 'refused'
      : !hasSecret
        ? 'no-secret'
        : failing
          ? 'failing'
          : alone[0]
            ? (`${alone[0] as 'rates' | 'labels' | 'token'}-failing` as const)
            : conn.state,
    detail: !hasSecret
      ? 'No client secret for this profile: site IT sets it in Settings → Profiles (Replace secret) or in its environment variable'
      : refused
        ? `${refused.message}. Nothing can be bought until site IT mends it.`
        : conn.state === 'offline'
          ? `${rt.client.connectivity.outage()}${alone.length ? ' It answers other requests meanwhile (such as the tracker list and carrier accounts): the platform is there, and these requests fail at it, not on the network.' : ''} ${again}`
          : failing
            ? `The platform did not answer the last ${conn.consecutiveFailures === 1 ? 'request' : `${conn.consecutiveFailures} requests`} for packing (${failing.detail}); it counts as offline after a few in a row.`
            : null,
  };
}

/** How often the header asks: soon while something is wrong, rarely while all is well. */
const PROBE_TROUBLE_MS = 3000;
const PROBE_STEADY_MS = 10_000;

/** The header: profile, connectivity, printer, queue and attention counts. */
export class StatusFeature {
  private printer: PrinterStatusView | null = null;
  private probe: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: StationContext) {
    ctx.printerIssue = (printerId) => this.issue(printerId);
    ctx.printerView = () => this.printer;
    ctx.spool.on('printer', (notice) => {
      const rt = ctx.runtimeOrNull();
      const cfg = rt?.profile.printers.find((p) => p.id === notice.printerId);
      if (!cfg || notice.printerId !== labelPrinterOf(rt!.profile)) return;
      this.setPrinter(printerStatusView(cfg, notice.status, notice.message));
    });
  }

  /** The header's probe of the label printer, else what the spool last heard from it. */
  private issue(printerId: string): string | null {
    if (this.printer?.printerId === printerId)
      return this.printer.state === 'ready' || this.printer.state === 'unknown'
        ? null
        : printerStateWords[this.printer.state];
    const notice = this.ctx.spool.printerNotices().find((n) => n.printerId === printerId);
    if (!notice || notice.message === null) return null;
    if (notice.status === null) return printerStateWords.offline;
    const fault = notice.status.faults[0];
    return fault && fault !== 'other' ? printerStateWords[fault] : 'reports a fault';
  }

  private tick: (() => Promise<void>) | null = null;
  private ticking = false;
  private hurry = false;
  /** Whether sign-in was required at the last probe (null: not looked yet). */
  private signInRequired: boolean | null = null;
  /** Who was signed in at the last probe (undefined: not looked yet). */
  private signedIn: string | null | undefined = undefined;

  private setPrinter(view: PrinterStatusView): void {
    const before = JSON.stringify(this.printer);
    this.printer = view;
    if (before !== JSON.stringify(view)) this.ctx.changed('status');
  }

  /** One look: the label printer, the site's waiting changes, sign-in. 'closed': stopped meanwhile. */
  private async look(): Promise<'closed' | void> {
    // The site line and sign-in first: the printer may take seconds to answer (up to 8 s).
    // The header's site line says how long changes have waited ("3 changes waiting, 40 s"):
    // the station sends it again while they wait, so the page needs no timer of its own.
    if (this.ctx.site && this.ctx.site.sync.status().depth > 0) this.ctx.changed('status');
    // Users set up since (copied from the site, or added with npm run site -- users add
    // --station-dir) or all gone: the page on screen shows or drops sign-in.
    const required = this.ctx.session.required();
    if (required !== this.signInRequired) {
      if (this.signInRequired !== null) this.ctx.changed('status');
      this.signInRequired = required;
    }
    // Its user disabled by site IT meanwhile: signed out, and the page shows sign-in (why).
    const who = this.ctx.session.current()?.userId ?? null;
    if (who !== this.signedIn) {
      if (this.signedIn !== undefined) this.ctx.changed('status');
      this.signedIn = who;
    }
    const rt = this.ctx.runtimeOrNull();
    const id = rt && labelPrinterOf(rt.profile);
    const cfg = id ? rt.profile.printers.find((p) => p.id === id) : undefined;
    if (!cfg) {
      if (this.printer) {
        this.printer = null;
        this.ctx.changed('status');
      }
    } else {
      const probed = await probePrinter(cfg);
      // Away: the printer that answers next at this address may be another (a 300-dpi one
      // swapped in); its resolution is asked again before its next label.
      if (probed.state === 'offline') this.ctx.spool.forgetReportedDpi(cfg.id);
      // Stopped while the printer was asked (the station closing): its database is closed.
      if (this.probe === null) return 'closed';
      this.setPrinter(probed);
    }
  }

  /**
   * Asks the label printer how it is: every few seconds while it is not ready, less often while
   * it is. The drivers remember what each printer answers (no `~HQES` wait for one that never
   * answers it), so a probe is one short connection and one `~HS`.
   */
  start(): void {
    const tick = async () => {
      this.ticking = true;
      this.hurry = false;
      try {
        if ((await this.look()) === 'closed') return;
      } catch (error) {
        // One look that failed (a database busy for a moment) must not end the looks: the
        // printer's status and a user disabled by site IT would never reach the page again.
        this.ctx.log(
          `status: a look at the printer and the sign-in failed: ${(error as Error).message}`,
        );
      } finally {
        this.ticking = false;
      }
      if (this.probe === null) return;
      this.probe = setTimeout(
        () => void tick(),
        // Asked to look again while this look was under way (the printer changed meanwhile).
        this.hurry ? 50 : this.printer?.state === 'ready' ? PROBE_STEADY_MS : PROBE_TROUBLE_MS,
      );
    };
    this.tick = tick;
    this.probe = setTimeout(() => void tick(), 200);
  }

  /**
   * The label printer may have changed (a profile reopened: Use for labels, a printer added):
   * asked now rather than at the next steady probe, up to 10 s later.
   */
  soon(): void {
    if (this.probe === null || !this.tick) return;
    // One look at a time: a look under way takes the next one at once when it ends.
    if (this.ticking) {
      this.hurry = true;
      return;
    }
    clearTimeout(this.probe);
    const tick = this.tick;
    this.probe = setTimeout(() => void tick(), 50);
  }

  stop(): void {
    if (this.probe) clearTimeout(this.probe);
    this.probe = null;
  }

  async status(): Promise<StationStatus> {
    const ctx = this.ctx;
    const rt = ctx.runtimeOrNull();
    const o = ctx.options;
    if (!rt)
      return {
        profile: null,
        connectivity: 'unknown',
        connectivityDetail: null,
        trackingDelayed: null,
        printer: null,
        queue: { shipments: 0, printJobs: 0 },
        needsAttention: 0,
        expiredAccounts: [],
        dataDir: o.dataDir,
        host: o.host,
        secretStorage: secretStorage(o.vault),
        version: o.version ?? '0.0.0',
      };
    const counts = countsOf(ctx);
    // Site-wide items are the header's only: the counts a station reports at check-in stay its
    // own, or every station would report the site's items again.
    const siteAttention = ctx.siteAttention?.view(rt.scope) ?? null;
    // Connections that stopped working (expired, in error, deauthorized): the banner's. PENDING
    // is one never authorized yet, said in Carrier accounts, not a banner on every screen.
    const expired = rt
      .carriers()
      .filter((h) => ['EXPIRED', 'ERROR', 'UNAUTHORIZED'].includes(h.authorizationStatus));
    const secret = await ctx.secretState(rt.profile);
    const platform = platformState(rt, secret.hasSecret);
    return {
      profile: profileView(rt.profile, {
        active: true,
        ...secret,
        baseUrl: rt.baseUrl,
        siteName: rt.names.siteName,
        tenantName: rt.names.tenantName,
      }),
      connectivity: platform.state,
      connectivityDetail: platform.detail,
      trackingDelayed: trackingSync(rt).message,
      printer: this.printer,
      queue: { shipments: counts.shipments, printJobs: counts.printJobs },
      needsAttention: counts.needsAttention + (siteAttention?.count ?? 0),
      siteAttention,
      expiredAccounts: expired.map(carrierView),
      dataDir: o.dataDir,
      host: o.host,
      secretStorage: secretStorage(o.vault),
      version: o.version ?? '0.0.0',
      site: ctx.site
        ? siteHeader(
            ctx.site.sync.status(),
            Date.now(),
            ctx.site.outbox.offlinePurchase(),
            ctx.site.hasReachedStore() ? null : ctx.site.config.url,
          )
        : null,
      signInRequired: ctx.session.required(),
      signedInUserId: ctx.session.current()?.userId ?? null,
      boxPresets: boxPresetsStamp(ctx),
    };
  }

  handlers(): FeatureHandlers<typeof stationCalls> {
    return { 'station.status': () => this.status() };
  }
}

function secretStorage(vault: { description?: string }): string {
  return vault.description ?? "the host's secret vault";
}

/** One status question to a printer, for the header and Settings. */
export async function probePrinter(cfg: PrinterConfig): Promise<PrinterStatusView> {
  // A USB printer is asked only by the spool, which holds its interface while printing.
  if (cfg.kind === 'usb') return printerStatusView(cfg, null, null);
  let driver;
  try {
    driver =
      cfg.kind === 'network'
        ? new NetworkPrinter(cfg, {
            connectTimeoutMs: 1500,
            // A slow printer (answers in 3–6 s) is slow, not "not answering".
            answerTimeoutMs: STATUS_ANSWER_BOUND_MS,
          })
        : createPrinterDriver(cfg);
  } catch (error) {
    return printerStatusView(cfg, null, (error as Error).message);
  }
  try {
    return printerStatusView(cfg, await driver.status(), null);
  } catch (error) {
    return printerStatusView(cfg, null, (error as Error).message);
  } finally {
    await driver.close().catch(() => {});
  }
}

/**
 * The box presets Pack offers, as a short fingerprint: a page that read them under another one
 * reads them again (site IT changed the site's presets while Pack was open).
 */
function boxPresetsStamp(ctx: StationContext): string {
  return createHash('sha256')
    .update(JSON.stringify(ctx.stationSettings().boxes))
    .digest('base64url')
    .slice(0, 16);
}
