import type Database from 'better-sqlite3';
import type { PlatformClient } from '../platform/client.js';
import type { StationScope } from '../storage/scope.js';

type NameKind = 'tenant' | 'site';

/**
 * The names last read, kept in the station's database (migration 13) for a start without the
 * platform. A name the platform no longer gives (a site renamed away, a tenant without a name)
 * is forgotten with it.
 */
class KeptNames {
  private readonly get;
  private readonly put;
  private readonly drop;

  constructor(
    private readonly db: Database.Database,
    private readonly scope: StationScope,
  ) {
    const key = 'profile_id = ? AND environment = ? AND kind = ? AND platform_id = ?';
    this.get = db
      .prepare<[string, string, NameKind, string], string>(
        `SELECT name FROM platform_names WHERE ${key}`,
      )
      .pluck();
    this.put = db.prepare<[string, string, NameKind, string, string, string]>(
      `INSERT INTO platform_names (profile_id, environment, kind, platform_id, name, read_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET name = excluded.name, read_at = excluded.read_at`,
    );
    this.drop = db.prepare<[string, string, NameKind, string]>(
      `DELETE FROM platform_names WHERE ${key}`,
    );
  }

  read(kind: NameKind, id: string): string | null {
    return this.get.get(this.scope.profileId, this.scope.environment, kind, id) ?? null;
  }

  keep(kind: NameKind, id: string, name: string | null): void {
    // The profile may have stopped (its database closed) while the platform answered.
    if (!this.db.open) return;
    const { profileId, environment } = this.scope;
    if (name === null) this.drop.run(profileId, environment, kind, id);
    else this.put.run(profileId, environment, kind, id, name, new Date().toISOString());
  }
}

/**
 * The names the platform gives a profile's shipping site and tenant: the header names the site
 * packing (not the ship-from company on the label), Settings the tenant by its name. Read once
 * each when the platform answers, and kept: a station started without the platform shows the
 * names it last read (the ids only before the platform ever answered).
 */
export class PlatformNames {
  siteName: string | null = null;
  tenantName: string | null = null;
  private siteRead: boolean;
  private tenantRead = false;
  private readonly kept: KeptNames | null;

  constructor(
    private readonly o: {
      client: Pick<PlatformClient, 'listShippingSites' | 'getTenant'>;
      tenantId: string;
      shippingSiteId?: string | undefined;
      /** Where the names are kept between starts (none: read from the platform each start). */
      db?: Database.Database;
      scope?: StationScope;
      /** A name was read: the header gets a new status. */
      onChange: () => void;
    },
  ) {
    this.siteRead = !o.shippingSiteId;
    this.kept = o.db && o.scope ? new KeptNames(o.db, o.scope) : null;
    if (this.kept) {
      this.tenantName = this.kept.read('tenant', o.tenantId);
      if (o.shippingSiteId) this.siteName = this.kept.read('site', o.shippingSiteId);
    }
  }

  /** Both were read (a platform that did not answer is asked again at the next read()). */
  get complete(): boolean {
    return this.siteRead && this.tenantRead;
  }

  async read(): Promise<void> {
    const { client, shippingSiteId, tenantId } = this.o;
    const [askSite, askTenant] = [!this.siteRead, !this.tenantRead];
    const [site, tenant] = await Promise.allSettled([
      askSite ? client.listShippingSites() : null,
      askTenant ? client.getTenant(tenantId) : null,
    ]);
    const before = [this.siteName, this.tenantName];
    if (askSite && site.status === 'fulfilled' && shippingSiteId) {
      this.siteRead = true;
      this.siteName = site.value?.find((s) => s.id === shippingSiteId)?.name?.trim() || null;
      this.kept?.keep('site', shippingSiteId, this.siteName);
    }
    if (askTenant && tenant.status === 'fulfilled') {
      this.tenantRead = true;
      this.tenantName = tenant.value?.name?.trim() || null;
      this.kept?.keep('tenant', tenantId, this.tenantName);
    }
    if (before[0] !== this.siteName || before[1] !== this.tenantName) this.o.onChange();
  }
}

/**
 * The names kept for a profile that is not running (Settings' list): what the platform last
 * said, without asking it; null where it never answered.
 */
export function keptNamesOf(
  db: Database.Database,
  scope: StationScope,
  ids: { tenantId: string; shippingSiteId?: string | undefined },
): { tenantName: string | null; siteName: string | null } {
  const kept = new KeptNames(db, scope);
  return {
    tenantName: kept.read('tenant', ids.tenantId),
    siteName: ids.shippingSiteId ? kept.read('site', ids.shippingSiteId) : null,
  };
}
