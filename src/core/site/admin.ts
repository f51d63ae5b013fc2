import type pg from 'pg';
import type { UserRecord, UserRole } from '../users/types.js';

/**
 * What site IT sets for the whole site: site settings and site users; every station reads
 * them. SiteStore delegates to it; `run` turns a pg error into words for site IT.
 */
export class SiteAdmin {
  constructor(
    private readonly pool: pg.Pool,
    private readonly run: <T>(work: () => Promise<T>) => Promise<T>,
  ) {}

  /** One site setting (site IT's CLI; a station reads them all at once with settings()). */
  async setting(key: 'offlinePurchase'): Promise<string | null> {
    return this.run(async () => {
      const { rows } = await this.pool.query<{ value: string }>({
        name: 'site-setting',
        text: 'SELECT value FROM site_settings WHERE key = $1',
        values: [key],
      });
      return rows[0]?.value ?? null;
    });
  }

  /**
   * Every site setting (issue 14: offline purchase, box presets, rate rule, packing slip, …), as
   * stored (text): a station reads them once per check-in.
   */
  async settings(): Promise<Record<string, string>> {
    return this.run(async () => {
      const { rows } = await this.pool.query<{ key: string; value: string }>({
        name: 'site-settings',
        text: 'SELECT key, value FROM site_settings',
      });
      return Object.fromEntries(rows.map((r) => [r.key, r.value]));
    });
  }

  /** Removes a site setting (site IT; stations then use their own). */
  async clearSetting(key: string): Promise<boolean> {
    return this.run(async () => {
      const res = await this.pool.query('DELETE FROM site_settings WHERE key = $1', [key]);
      return (res.rowCount ?? 0) > 0;
    });
  }

  async setSetting(key: string, value: string): Promise<void> {
    await this.run(() =>
      this.pool.query(
        `INSERT INTO site_settings (key, value, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
        [key, value],
      ),
    );
  }

  /** The site's users (active and not), for sign-in at any station. Hashes only. */
  async users(): Promise<UserRecord[]> {
    return this.run(async () => {
      const { rows } = await this.pool.query<{
        user_id: string;
        name: string;
        role: UserRole;
        badge_sha256: string | null;
        pin_hash: string | null;
        active: boolean;
      }>({ name: 'site-users', text: 'SELECT * FROM site_users ORDER BY name' });
      return rows.map((r) => ({
        userId: r.user_id,
        name: r.name,
        role: r.role,
        badgeSha256: r.badge_sha256,
        pinHash: r.pin_hash,
        active: r.active,
      }));
    });
  }

  /** Adds or changes a site user (site IT's role: the station role cannot write users). */
  async saveUser(user: UserRecord): Promise<void> {
    await this.run(() =>
      this.pool.query(
        `INSERT INTO site_users (user_id, name, role, badge_sha256, pin_hash, active, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, now())
         ON CONFLICT (user_id) DO UPDATE SET name = EXCLUDED.name, role = EXCLUDED.role,
           badge_sha256 = EXCLUDED.badge_sha256, pin_hash = EXCLUDED.pin_hash,
           active = EXCLUDED.active, updated_at = now()`,
        [user.userId, user.name, user.role, user.badgeSha256, user.pinHash, user.active],
      ),
    );
  }
}
