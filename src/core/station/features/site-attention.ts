import type { SiteLink } from '../../site/link.js';
import type { StationScope } from '../../storage/scope.js';
import type { SiteAttentionCountView } from '../../../shared/views.js';

const keyOf = (scope: StationScope) => `${scope.profileId}|${scope.environment}`;
/** A read that failed while the drainer reached the store is tried again this much later. */
const RETRY_MS = 5000;

/**
 * The header's site-wide part of Needs attention: the open items Needs attention lists under
 * Whole site (possible double labels, other stations' unknown purchases), less this station's
 * own unknown purchases, which its own count already holds.
 *
 * Read from the store when something may have changed it, not on a timer: another station
 * committed (LISTEN site_changes, resolutions included), this station's batch reached the store
 * (it may have raised a possible double label), the store answers again, a resolution here, or
 * the header asks for a profile not read yet. One read at a time; a burst is folded into one
 * more read. While the store is away the last count read stays, marked as not current.
 */
/** The count as last read from the store, for one profile scope. */
export interface SiteAttentionLastRead {
  key: string;
  count: number;
  readAt: string;
}

export class SiteAttentionCount {
  private last: SiteAttentionLastRead | null = null;
  /** The count the station kept from before it started: not the store's answer of this run. */
  private fromBefore = false;
  /** The profile last asked for: a header for another one starts a read, once. */
  private asked: string | null = null;
  private failed = false;
  private attemptAt = 0;
  private reading = false;
  private again = false;

  constructor(
    private readonly o: {
      link: SiteLink;
      scope: () => StationScope | null;
      /** The profile's brands: another tenant's items are not this station's to count. */
      tenantIds?: () => readonly string[] | undefined;
      /** The count or whether it is current changed: the header gets a new status. */
      onChange: () => void;
      /**
       * Where the last count read is kept across restarts (the station's settings): a station
       * restarted while the store is away shows the site's count as last read, marked, rather
       * than 0 (trial of 2026-11-29: "Needs attention 0?" with a possible double label open).
       */
      kept?: {
        get: () => SiteAttentionLastRead | null;
        set: (last: SiteAttentionLastRead) => void;
      };
    },
  ) {
    const kept = o.kept?.get() ?? null;
    if (kept) {
      this.last = kept;
      this.fromBefore = true;
    }
  }

  refresh(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void this.read().finally(() => {
      this.reading = false;
      if (!this.again) return;
      this.again = false;
      this.refresh();
    });
  }

  /** For the header of this profile: what is known, and whether it is known now. */
  view(scope: StationScope): SiteAttentionCountView {
    const key = keyOf(scope);
    const away = this.o.link.sync.status().problem !== null;
    // A store known to be away is read again when it answers (refresh on the sync's change).
    if (this.asked !== key || (this.failed && !away && Date.now() - this.attemptAt > RETRY_MS))
      this.refresh();
    const last = this.last?.key === key ? this.last : null;
    return {
      count: last?.count ?? 0,
      current: last !== null && !away && !this.failed && !this.fromBefore,
      readAt: last?.readAt ?? null,
    };
  }

  private async read(): Promise<void> {
    const scope = this.o.scope();
    if (!scope) return;
    const key = keyOf(scope);
    this.asked = key;
    this.attemptAt = Date.now();
    const before = this.last?.key === key ? this.last.count : null;
    const failedBefore = this.failed;
    try {
      const count = await this.o.link.store.attentionCount(
        scope,
        this.o.link.config.stationId,
        this.o.tenantIds?.(),
      );
      const keptBefore = this.last;
      this.last = { key, count, readAt: new Date().toISOString() };
      this.failed = false;
      this.fromBefore = false;
      // Written when it changes, and at most once a minute otherwise (when it was read).
      if (
        keptBefore?.key !== key ||
        keptBefore.count !== count ||
        Date.parse(this.last.readAt) - Date.parse(keptBefore.readAt) > 60_000
      )
        this.o.kept?.set(this.last);
    } catch {
      // The store is away: the count read before stays, shown as not current (view).
      this.failed = true;
    }
    if (this.last?.count !== before || this.failed !== failedBefore || this.fromBefore)
      this.o.onChange();
  }
}
