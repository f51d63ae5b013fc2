import type { SiteMigration } from '../schema.js';

/**
 * Labels voided at the carrier, and retired stations kept for their names.
 *
 * Voided labels (a shift lead's mark at the station that bought the label, station
 * migration 21): the store keeps the mark on the label, so the console's labels and cost of the
 * day leave it out and Site History says it, and no station reprints it.
 *
 * The station sends the mark inside its label row (`voided`: { by, reason, at } or null), which a
 * store before this migration ignores. The batch function is wrapped, not rewritten: the one of
 * migration 3 does the work as before (renamed, still SECURITY INVOKER), then the marks of the
 * batch's labels are written. A station of an older version calls the same function and sends no
 * mark (it can make none): its labels keep none. Additive, so stations of schema 4 and 5 keep
 * using the store.
 */
export const siteMigration006: SiteMigration = {
  version: 6,
  name: 'label-voids',
  readersFrom: 4,
  sql: `
      -- { by, reason, at } as the station that bought the label has it; NULL: not voided.
      ALTER TABLE site_labels ADD COLUMN voided JSONB;
      -- A station site IT retired (npm run site -- stations retire): off the lists, its row kept
      -- so History and the console still name its labels. One that checks in after it (last_seen_at
      -- later) is listed again.
      ALTER TABLE site_stations ADD COLUMN retired_at TIMESTAMPTZ;

      ALTER FUNCTION site_apply_batch(TEXT, TEXT, JSONB) RENAME TO site_apply_batch_3;
      CREATE FUNCTION site_apply_batch(p_station_id TEXT, p_station_name TEXT, p_changes JSONB)
      RETURNS INTEGER LANGUAGE plpgsql AS $fn$
      DECLARE
        v_count INTEGER;
      BEGIN
        v_count := site_apply_batch_3(p_station_id, p_station_name, p_changes);
        UPDATE site_labels l SET voided = NULLIF(c.value->'row'->'voided', 'null'::JSONB)
          FROM jsonb_array_elements(p_changes) AS c(value)
         WHERE c.value->>'kind' = 'label' AND l.station_id = p_station_id
           AND l.local_id = (c.value->'row'->>'localId')::BIGINT
           AND l.voided IS DISTINCT FROM NULLIF(c.value->'row'->'voided', 'null'::JSONB);
        RETURN v_count;
      END
      $fn$;
      DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'shipping_station') THEN
          GRANT EXECUTE ON FUNCTION site_apply_batch(TEXT, TEXT, JSONB) TO shipping_station;
          GRANT EXECUTE ON FUNCTION site_apply_batch_3(TEXT, TEXT, JSONB) TO shipping_station;
        END IF;
      END $$;
    `,
};
