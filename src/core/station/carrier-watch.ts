import type { CarrierAccountHealth, CarrierHealth } from '../tracking/index.js';

/** A carrier account a rating named as unable to rate (its connection's status, when said). */
export interface NamedCarrierProblem {
  carrierAccountId: string;
  authorizationStatus?: string | undefined;
}

/**
 * The profile's carrier accounts as the station last read them (CarrierHealth's cache), and
 * when to read them again: on the runtime's timer, when a rating names an account the cache
 * does not know in that state, and after a scan that took pre-rated rates over.
 */
export class CarrierWatch {
  /**
   * A scan on pre-rated rates reads its tenant's accounts again at most this often: a burst of
   * scans shares one read. Each such scan would otherwise have sent a rate request, so the
   * platform is asked no more than without pre-rating, and a lighter request.
   */
  static preRatedCheckMs = 2_000;
  private refreshing: Promise<CarrierAccountHealth[]> | null = null;
  /** When each tenant's accounts were last asked for (machine clock). */
  private readonly readAt = new Map<string, number>();

  constructor(
    private readonly o: {
      health: CarrierHealth;
      /** The tenants the profile ships for (a 3PL's own and each brand's). */
      tenants: () => string[];
      log: (line: string) => void;
      changed: () => void;
    },
  ) {}

  /**
   * Reads the carrier accounts of every tenant again; one refresh at a time. A tenant that
   * cannot be read keeps what was cached.
   */
  refresh(): Promise<CarrierAccountHealth[]> {
    this.refreshing ??= (async () => {
      const tenants = this.o.tenants();
      for (const t of tenants) this.readAt.set(t, Date.now());
      const results = await Promise.allSettled(
        tenants.map((tenantId) => this.o.health.refresh({ tenantId })),
      );
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) this.o.log(`carrier health: ${(failed.reason as Error).message}`);
      this.o.changed();
      if (failed && results.every((r) => r.status === 'rejected')) throw failed.reason;
      return this.cached();
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Every cached carrier account of the profile's tenants, without a round trip. */
  cached(): CarrierAccountHealth[] {
    return this.o.tenants().flatMap((tenantId) => this.o.health.cached(tenantId));
  }

  /**
   * A rating named carrier accounts whose state the cache does not know (a connection that
   * expired during the shift): every account is read again so the header's banner says so.
   * Rates taken over from pre-rating (`preRatedFor`, the order's tenant) asked the platform
   * nothing, so nothing named a lapse since they were rated: that tenant's accounts are read
   * again (unless read in the last preRatedCheckMs) off the packer's path; a lapse found there
   * raises the banner, and Pack rates again (the lapsed account's rates are not taken over).
   */
  notice(problems: readonly NamedCarrierProblem[], preRatedFor?: string): void {
    const known = new Map(this.cached().map((h) => [h.carrierAccountId, h.authorizationStatus]));
    const news = problems.some(
      (p) => p.authorizationStatus && known.get(p.carrierAccountId) !== p.authorizationStatus,
    );
    if (news) {
      void this.refresh().catch(() => {});
      return;
    }
    if (!preRatedFor) return;
    if (Date.now() - (this.readAt.get(preRatedFor) ?? 0) <= CarrierWatch.preRatedCheckMs) return;
    this.readAt.set(preRatedFor, Date.now());
    void this.o.health.refresh({ tenantId: preRatedFor }).then(
      () => this.o.changed(),
      (e: Error) => this.o.log(`carrier health: ${e.message}`),
    );
  }
}
