-- The least-privilege role every packing station of a site logs in as.
-- Site IT runs this once, after `npm run site -- migrate`, connected to the site database as
-- its owner (the role that ran the migrations), for example:
--
--   psql "postgres://site_owner@db.site.local/shipping_site" \
--        -v station_password="'<a long random password>'" -f station-role.sql
--
-- The stations then use postgres://shipping_station@db.site.local/shipping_site, with the
-- password in each station's keychain (Settings) or in STATION_SECRET_SITE_STORE.
--
-- What the role can do: read everything of the site; insert and update the rows stations
-- write (idempotent upserts, order claims, site-wide attention items), and give up its own
-- claim on an order file that brought in no order. What it cannot do: create, alter or drop
-- anything (it owns nothing), DELETE any other row (labels, purchases and reprints are money
-- and audit), change site settings, or touch the migration history.

-- psql stops at the first error (a role that may not create roles, say) instead of going on.
\set ON_ERROR_STOP on

-- The role's name: shipping_station, unless site IT names another. Roles belong to the whole
-- PostgreSQL server, not to one database: a second site on the same server gives its stations
-- their own role (-v station_role=shipping_station_dock2), so one site's stations can never log
-- in to the other's store.
\if :{?station_role}
\else
\set station_role shipping_station
\endif

CREATE ROLE :"station_role" LOGIN PASSWORD :station_password;

REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO :"station_role";

GRANT SELECT ON ALL TABLES IN SCHEMA public TO :"station_role";
GRANT INSERT, UPDATE ON site_stations, site_purchases, site_labels, site_order_claims,
  site_attention, site_orders, site_printers, site_trackers, site_tracker_sync,
  site_carrier_health TO :"station_role";
GRANT INSERT ON site_reprints, site_import_claims TO :"station_role";
-- Site migration 9: which labels each close-out's manifests took (granted where the store has
-- the table: one not yet migrated that far has none).
SELECT set_config('shipping_station.role', :'station_role', false);
DO $$ BEGIN
  IF to_regclass('site_manifest_labels') IS NOT NULL THEN
    EXECUTE format('GRANT INSERT ON site_manifest_labels TO %I',
      current_setting('shipping_station.role'));
  END IF;
END $$;
-- Site migration 4: an order file whose import brought in nothing is claimed no more.
GRANT DELETE ON site_import_claims TO :"station_role";
GRANT USAGE ON SEQUENCE site_attention_id_seq, site_trackers_seq_seq TO :"station_role";
-- site_users is read (sign-in at any station) but only site IT adds or changes users.

-- Site migration 3: an outbox batch in one round trip (SECURITY INVOKER: it writes only what
-- the grants above allow).
GRANT EXECUTE ON FUNCTION site_apply_batch(TEXT, TEXT, JSONB) TO :"station_role";
