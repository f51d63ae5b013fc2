import { tenantsOf } from '../../profiles/profile-schema.js';
import { consoleSnapshot } from '../../site/console.js';
import { describeSiteError } from '../../site/errors.js';
import type { SiteLink } from '../../site/link.js';
import { SITE_SCHEMA_VOIDS } from '../../site/schema.js';
import type { ConsoleView } from '../../../shared/features/site-services.js';
import type { ProfileRuntime } from '../runtime.js';
import { brandName } from '../map.js';

/**
 * With no console open, the site is read again at a check-in after the store's change notices
 * at most this often: a site of 50 stations is read under twice a second in all, and a console
 * opened in an outage shows the site as it was at most this long before.
 */
const AFTER_NOTICE_MS = 30_000;
/** ...and this often when nothing was noticed (heartbeats only age: little to miss). */
const IDLE_MS = 5 * 60_000;

type Read = Pick<ConsoleView, 'snapshot' | 'attention' | 'brands'> & {
  key: string;
  /** This station's clock when the read began. */
  readAt: string;
};

const keyOf = (rt: ProfileRuntime) => `${rt.scope.profileId}|${rt.scope.environment}`;

/**
 * The shift-lead console's picture of the site as this station last read it, kept by the station
 * (not the page), so a console opened for the first time while the store is away shows the site
 * as last read instead of a blank page. Read whenever a console asks, and with no console open
 * at the station's first check-in and then at a check-in now and then (AFTER_NOTICE_MS, IDLE_MS):
 * six small queries, one read at a time. Kept in memory: a station started during an outage
 * says it has not read the site yet.
 */
export class SiteConsoleCache {
  private last: Read | null = null;
  /** A check-in reached the store since this link was made. */
  private answered = false;
  /** The store said something changed since the last read (NOTIFY). */
  private noticed = true;
  private checkInRead: Promise<void> | null = null;

  constructor(
    private readonly o: {
      link: SiteLink;
      runtime: () => ProfileRuntime | null;
    },
  ) {}

  /** Another station committed or its heartbeat changed: worth reading at a coming check-in. */
  notice(): void {
    this.noticed = true;
  }

  /** The store answered a check-in: read the site if it is due, without holding the check-in. */
  atCheckIn(): void {
    this.answered = true;
    const rt = this.o.runtime();
    if (!rt || this.checkInRead) return;
    const last = this.last?.key === keyOf(rt) ? Date.parse(this.last.readAt) : 0;
    const age = Date.now() - last;
    if (age < (this.noticed ? AFTER_NOTICE_MS : IDLE_MS)) return;
    // A failure is the console's to say when one is opened; the last read stays.
    this.checkInRead = this.read(rt)
      .then(
        () => {},
        () => {},
      )
      .finally(() => (this.checkInRead = null));
  }

  /** When the site was last read for this profile (this station's clock), or null. */
  readAt(rt: ProfileRuntime): string | null {
    return this.last?.key === keyOf(rt) ? this.last.readAt : null;
  }

  /** The console's view: read now; while the store does not answer, the last read, marked. */
  async view(rt: ProfileRuntime): Promise<ConsoleView> {
    const thisStationId = this.o.link.config.stationId;
    try {
      const read = await this.read(rt);
      return { reachable: true, note: null, thisStationId, ...viewOf(read) };
    } catch (error) {
      const problem = describeSiteError(error, this.o.link.config.url);
      const last = this.last?.key === keyOf(rt) ? this.last : null;
      // The console's own words: what the store did, and what the floor does meanwhile (the
      // station's banner speaks of this station alone). The page says when the site below was
      // read (readAt).
      // Under the site's offline rule "refuse" the floor buys nothing meanwhile: said so (trial
      // of 2026-11-29: the console said every station packs on its own).
      const refuse = this.o.link.outbox.offlinePurchase() === 'refuse';
      const thisStationAway = refuse
        ? 'buying no label until the store answers'
        : 'packing on its own';
      const meanwhile = refuse
        ? 'meanwhile no station buys a label (the site\'s offline rule is "refuse", site IT set it so): packers can scan and reprint labels their station bought, and buy again when the store is back.'
        : 'meanwhile every station packs on its own and sends its labels when the store is back.';
      const note =
        problem.kind !== 'unreachable' || !problem.fact
          ? problem.message
          : last
            ? `${problem.fact} The console shows the site again as soon as it answers; ${meanwhile}`
            : !this.answered
              ? `The site store has not answered since this station started: ${problem.fact} The console shows the site as soon as it answers; ${meanwhile}`
              : `${problem.fact} The console shows the site as soon as it answers; ${meanwhile}`;
      const away = { reachable: false, note, thisStationId, thisStationAway };
      return last
        ? { ...away, readAt: last.readAt, ...viewOf(last) }
        : { ...away, snapshot: null, attention: [], brands: {} };
    }
  }

  private async read(rt: ProfileRuntime): Promise<Read> {
    const { store } = this.o.link;
    const started = new Date();
    // "Today" for the labels per hour is the station's local day, as the console's.
    const midnight = new Date(started);
    midnight.setHours(0, 0, 0, 0);
    const wasNoticed = this.noticed;
    this.noticed = false;
    try {
      const [snapshot, attention] = await Promise.all([
        consoleSnapshot(
          store.pool,
          rt.scope,
          midnight.toISOString(),
          -started.getTimezoneOffset(),
          (store.schema ?? 0) >= SITE_SCHEMA_VOIDS,
          tenantsOf(rt.profile),
        ),
        store.attention(rt.scope, undefined, tenantsOf(rt.profile)),
      ]);
      const read: Read = {
        key: keyOf(rt),
        readAt: started.toISOString(),
        // The profile's brands' labels and cost only (a station of another tenant sees none).
        snapshot,
        attention: attention.map((a) => ({ id: a.id, message: a.message, since: a.since })),
        brands: Object.fromEntries(
          tenantsOf(rt.profile).map((t) => [t, brandName(rt.profile, t) ?? t]),
        ),
      };
      this.answered = true;
      // Two reads at once (a console's and a check-in's): the later one is kept.
      if (!this.last || this.last.key !== read.key || this.last.readAt <= read.readAt)
        this.last = read;
      return read;
    } catch (error) {
      this.noticed ||= wasNoticed;
      throw error;
    }
  }
}

function viewOf(read: Read): Pick<ConsoleView, 'snapshot' | 'attention' | 'brands'> {
  return { snapshot: read.snapshot, attention: read.attention, brands: read.brands };
}
