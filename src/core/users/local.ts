import { inTransaction, type Db } from '../storage/database.js';
import type { UserRecord, UserRole } from './types.js';

interface Row {
  user_id: string;
  name: string;
  role: UserRole;
  badge_sha256: string | null;
  pin_hash: string | null;
  active: number;
  origin: 'local' | 'site';
}

const record = (r: Row): UserRecord => ({
  userId: r.user_id,
  name: r.name,
  role: r.role,
  badgeSha256: r.badge_sha256,
  pinHash: r.pin_hash,
  active: r.active === 1,
});

/**
 * The station's users (SQLite station_users): the list itself on a station alone (origin
 * 'local'), or the last copy of the site's users (origin 'site') so sign-in works while the
 * site store does not answer.
 */
export class LocalUsers {
  constructor(private readonly db: Db) {}

  /** Active users that can sign in here. */
  count(): number {
    return (
      this.db
        .prepare<[], { n: number }>('SELECT count(*) AS n FROM station_users WHERE active = 1')
        .get()?.n ?? 0
    );
  }

  /** Any user at all, disabled ones too: sign-in was set up here (or at the site). */
  any(): boolean {
    return this.db.prepare('SELECT 1 FROM station_users LIMIT 1').get() !== undefined;
  }

  list(): UserRecord[] {
    return this.db.prepare<[], Row>('SELECT * FROM station_users ORDER BY name').all().map(record);
  }

  byBadge(digest: string): UserRecord | null {
    const row = this.db
      .prepare<[string], Row>('SELECT * FROM station_users WHERE badge_sha256 = ? AND active = 1')
      .get(digest);
    return row ? record(row) : null;
  }

  /** Whether this badge belongs to a user who can no longer sign in (disabled). */
  badgeDisabled(digest: string): boolean {
    return (
      this.db
        .prepare<[string], { n: number }>(
          'SELECT count(*) AS n FROM station_users WHERE badge_sha256 = ? AND active = 0',
        )
        .get(digest)!.n > 0
    );
  }

  /** A user of this station that site IT disabled (not one never known). */
  disabled(userId: string): boolean {
    return (
      this.db
        .prepare<[string], { n: number }>(
          'SELECT count(*) AS n FROM station_users WHERE user_id = ? AND active = 0',
        )
        .get(userId)!.n > 0
    );
  }

  byId(userId: string): UserRecord | null {
    const row = this.db
      .prepare<[string], Row>('SELECT * FROM station_users WHERE user_id = ? AND active = 1')
      .get(userId);
    return row ? record(row) : null;
  }

  /** Adds or changes a user of this station alone (a site's users come from the store). */
  upsert(user: UserRecord): void {
    this.db
      .prepare(
        `INSERT INTO station_users (user_id, name, role, badge_sha256, pin_hash, active, origin, updated_at)
         VALUES (@userId, @name, @role, @badgeSha256, @pinHash, @active, 'local', @now)
         ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, role = excluded.role,
           badge_sha256 = excluded.badge_sha256, pin_hash = excluded.pin_hash,
           active = excluded.active, origin = 'local', updated_at = excluded.updated_at`,
      )
      .run({ ...user, active: user.active ? 1 : 0, now: new Date().toISOString() });
  }

  /** The site's users, as the store has them now, replace the last copy (one transaction). */
  replaceSite(users: readonly UserRecord[]): void {
    inTransaction(this.db, () => {
      this.db.prepare(`DELETE FROM station_users WHERE origin = 'site'`).run();
      const insert = this.db.prepare(
        `INSERT INTO station_users (user_id, name, role, badge_sha256, pin_hash, active, origin, updated_at)
         VALUES (@userId, @name, @role, @badgeSha256, @pinHash, @active, 'site', @now)
         ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, role = excluded.role,
           badge_sha256 = excluded.badge_sha256, pin_hash = excluded.pin_hash,
           active = excluded.active, origin = 'site', updated_at = excluded.updated_at`,
      );
      const now = new Date().toISOString();
      for (const u of users) insert.run({ ...u, active: u.active ? 1 : 0, now });
    });
  }
}
