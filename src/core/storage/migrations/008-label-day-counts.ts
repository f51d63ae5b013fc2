import type { Migration } from './index.js';

/**
 * Owned by the label cache (issue 16): how many labels each brand has per day, kept by
 * triggers in the same transaction as the labels themselves. History's "1–50 of N labels" and
 * a page far down the list are then answered from these counts (a few thousand rows at most)
 * instead of walking millions of index entries: at 10,000,000 labels a plain count(*) takes
 * seconds. `day` is the first 10 characters of labels.created_at (its UTC date), so a day's
 * labels are exactly those with day <= created_at < the next day, in text order, as every
 * label query compares them.
 *
 * The first start on an existing database counts its labels once (2.5 s per million labels on
 * the loaded development machine).
 */
export const migration008: Migration = {
  version: 8,
  name: 'label-day-counts',
  up(db) {
    db.exec(`
      CREATE TABLE label_day_counts (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        day TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (profile_id, environment, day, tenant_id)
      ) STRICT, WITHOUT ROWID;

      INSERT INTO label_day_counts (profile_id, environment, day, tenant_id, n)
      SELECT profile_id, environment, substr(created_at, 1, 10), tenant_id, count(*)
        FROM labels GROUP BY 1, 2, 3, 4;

      CREATE TRIGGER label_day_counts_insert AFTER INSERT ON labels BEGIN
        INSERT INTO label_day_counts (profile_id, environment, day, tenant_id, n)
        VALUES (NEW.profile_id, NEW.environment, substr(NEW.created_at, 1, 10), NEW.tenant_id, 1)
        ON CONFLICT DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER label_day_counts_delete AFTER DELETE ON labels BEGIN
        UPDATE label_day_counts SET n = n - 1
         WHERE profile_id = OLD.profile_id AND environment = OLD.environment
           AND day = substr(OLD.created_at, 1, 10) AND tenant_id = OLD.tenant_id;
      END;
      CREATE TRIGGER label_day_counts_update AFTER UPDATE OF profile_id, environment, tenant_id, created_at ON labels
      BEGIN
        UPDATE label_day_counts SET n = n - 1
         WHERE profile_id = OLD.profile_id AND environment = OLD.environment
           AND day = substr(OLD.created_at, 1, 10) AND tenant_id = OLD.tenant_id;
        INSERT INTO label_day_counts (profile_id, environment, day, tenant_id, n)
        VALUES (NEW.profile_id, NEW.environment, substr(NEW.created_at, 1, 10), NEW.tenant_id, 1)
        ON CONFLICT DO UPDATE SET n = n + 1;
      END;
    `);
  },
};
