import type { SiteMigration } from '../schema.js';

/**
 * Each label's packages and whether it is a return label, for End of day across the whole site
 * (its packages per carrier, and manifests that leave return labels off, as each station's own
 * End of day does); and an index of the order claims by tenant and order number, so a station
 * set up under another profile id is refused an order another station holds (claimOrderSql).
 *
 * The station sends both inside its label row (`packages`, `returnLabel`), which a store before
 * this migration ignores; a station of an older version sends neither, and its labels keep NULL
 * (counted as one package, not a return). A station of this version sends its recent labels
 * again once it finds the store migrated (SiteSync), so the days before the migration count too.
 * The batch function is wrapped again, as migration 6 did: the one before does the work, then the
 * batch's labels get their two values, and a possible double label raised again for two purchases
 * a lead already resolved (a restore's re-sent history) is resolved as it was. Additive, so
 * stations of schema 4 to 7 keep using the store.
 */
export const siteMigration008: SiteMigration = {
  version: 8,
  name: 'label-packages',
  readersFrom: 4,
  sql: `
      -- The label's packages (1 for a one-package label); NULL: not said by its station.
      ALTER TABLE site_labels ADD COLUMN packages INTEGER;
      -- A return label (from the customer back to the site; never on the dock's manifest).
      ALTER TABLE site_labels ADD COLUMN return_label BOOLEAN;
      -- An order's claims by tenant and number whatever the profile: a station set up under
      -- another profile id is refused an order a station of the site holds (claimOrderSql).
      CREATE INDEX site_order_claims_by_order
        ON site_order_claims (tenant_id, order_number, environment) WHERE state <> 'released';

      ALTER FUNCTION site_apply_batch(TEXT, TEXT, JSONB) RENAME TO site_apply_batch_6;
      CREATE FUNCTION site_apply_batch(p_station_id TEXT, p_station_name TEXT, p_changes JSONB)
      RETURNS INTEGER LANGUAGE plpgsql AS $fn$
      DECLARE
        v_count INTEGER;
      BEGIN
        v_count := site_apply_batch_6(p_station_id, p_station_name, p_changes);
        UPDATE site_labels l
           SET packages = (c.value->'row'->>'packages')::INTEGER,
               return_label = (c.value->'row'->>'returnLabel')::BOOLEAN
          FROM jsonb_array_elements(p_changes) AS c(value)
         WHERE c.value->>'kind' = 'label' AND c.value->'row' ? 'packages'
           AND l.station_id = p_station_id
           AND l.local_id = (c.value->'row'->>'localId')::BIGINT
           AND (l.packages IS DISTINCT FROM (c.value->'row'->>'packages')::INTEGER
             OR l.return_label IS DISTINCT FROM (c.value->'row'->>'returnLabel')::BOOLEAN);
        -- A possible double label raised again for two purchases a shift lead already resolved
        -- (a restore's re-sent history brings both purchases back; the resolution came back
        -- with the backup): resolved as it was (an UPDATE, which the station role may do; it
        -- may not delete).
        UPDATE site_attention n
           SET resolved_at = r.resolved_at, resolved_by = r.resolved_by, resolution = r.resolution
          FROM site_attention r
         WHERE n.resolved_at IS NULL AND n.kind = 'possible-double-label'
           AND r.resolved_at IS NOT NULL AND r.kind = n.kind
           AND r.profile_id = n.profile_id AND r.environment = n.environment
           AND r.tenant_id = n.tenant_id AND r.order_number = n.order_number
           AND r.purchases @> n.purchases AND n.purchases @> r.purchases;
        RETURN v_count;
      END
      $fn$;
      DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'shipping_station') THEN
          GRANT EXECUTE ON FUNCTION site_apply_batch(TEXT, TEXT, JSONB) TO shipping_station;
          GRANT EXECUTE ON FUNCTION site_apply_batch_6(TEXT, TEXT, JSONB) TO shipping_station;
        END IF;
      END $$;
    `,
};
