import type Database from 'better-sqlite3';
import { migration001 } from './001-station.js';
import { migration002 } from './002-print-spool.js';
import { migration003 } from './003-tracking.js';
import { migration004 } from './004-site-outbox.js';
import { migration005 } from './005-order-details.js';
import { migration006 } from './006-packing-floor.js';
import { migration007 } from './007-station-users.js';
import { migration008 } from './008-label-day-counts.js';
import { migration009 } from './009-tracker-rows.js';
import { migration010 } from './010-orders-by-update.js';
import { migration011 } from './011-batch-failures.js';
import { migration012 } from './012-order-status.js';
import { migration013 } from './013-platform-names.js';
import { migration014 } from './014-order-search.js';
import { migration015 } from './015-import-alerts.js';
import { migration016 } from './016-labelled-elsewhere.js';
import { migration017 } from './017-order-cancelled.js';
import { migration018 } from './018-reprints-by-time.js';
import { migration019 } from './019-site-store-identity.js';
import { migration020 } from './020-site-order-cancel.js';
import { migration021 } from './021-label-voids.js';
import { migration022 } from './022-site-label-voids.js';
import { migration023 } from './023-order-shipping-changes.js';
import { migration024 } from './024-manifest-labels.js';

export interface Migration {
  /** 1-based; equals the migration's position in the list, stored in PRAGMA user_version. */
  version: number;
  name: string;
  up(db: Database.Database): void;
}

/**
 * Forward-only. Never edit a migration that has shipped; add the next number.
 * (Before the first release each module owns one migration and may still shape it.)
 */
export const migrations: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
  migration017,
  migration018,
  migration019,
  migration020,
  migration021,
  migration022,
  migration023,
  migration024,
];
