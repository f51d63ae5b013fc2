import type { SiteMigration } from '../schema.js';

/** One outbox batch in one round trip (site_apply_batch), and site History's indexes. */
export const siteMigration003: SiteMigration = {
  version: 3,
  name: 'apply-batch-and-search-indexes',
  sql: `
      -- One outbox batch in one round trip: the station sends the batch as a JSON array
      -- ([{ kind, row }], in outbox order) and this applies each change exactly as the station
      -- did statement by statement before (idempotent upserts keyed by station id + local ids,
      -- the order claim following the purchase, the possible-double-label item), then notifies
      -- the other stations. Called as one statement, so the batch is one transaction.
      -- SECURITY INVOKER (the default): it can do only what the calling role may do.
      CREATE FUNCTION site_apply_batch(p_station_id TEXT, p_station_name TEXT, p_changes JSONB)
      RETURNS INTEGER LANGUAGE plpgsql AS $fn$
      DECLARE
        v_change JSONB;
        v_row JSONB;
        v_state TEXT;
        v_held INTEGER;
        v_holder RECORD;
        v_count INTEGER := 0;
      BEGIN
        FOR v_change IN SELECT e.value FROM jsonb_array_elements(p_changes) WITH ORDINALITY AS e(value, i) ORDER BY e.i
        LOOP
          v_row := v_change->'row';
          CASE v_change->>'kind'
          WHEN 'order' THEN
            INSERT INTO site_orders (profile_id, environment, tenant_id, order_number, station_id, source, order_json)
            VALUES (v_row->>'profileId', v_row->>'environment', v_row->>'tenantId', v_row->>'orderNumber',
                    p_station_id, v_row->>'source', v_row->'order')
            ON CONFLICT (profile_id, environment, tenant_id, order_number) DO UPDATE SET
              order_json = EXCLUDED.order_json, source = EXCLUDED.source,
              station_id = EXCLUDED.station_id, updated_at = now();
          WHEN 'label' THEN
            INSERT INTO site_labels (station_id, local_id, purchase_id, platform_label_id, profile_id,
              environment, tenant_id, order_number, order_reference, tracking_number, carrier,
              service_level, cost_cents, currency, packer, created_at, synced_at)
            VALUES (p_station_id, (v_row->>'localId')::BIGINT, v_row->>'purchaseId', v_row->>'platformLabelId',
              v_row->>'profileId', v_row->>'environment', v_row->>'tenantId', v_row->>'orderNumber',
              v_row->>'orderReference', v_row->>'trackingNumber', v_row->>'carrier', v_row->>'serviceLevel',
              (v_row->>'costCents')::BIGINT, v_row->>'currency', v_row->>'packer',
              (v_row->>'createdAt')::TIMESTAMPTZ, clock_timestamp())
            ON CONFLICT (station_id, local_id) DO UPDATE SET
              tracking_number = EXCLUDED.tracking_number, packer = EXCLUDED.packer,
              synced_at = clock_timestamp();
          WHEN 'reprint' THEN
            INSERT INTO site_reprints (station_id, source, local_id, label_station_id, label_local_id,
              profile_id, environment, tenant_id, station_user, reason, printer_id, created_at)
            VALUES (p_station_id, v_row->>'source', (v_row->>'localId')::BIGINT, v_row->>'labelStationId',
              (v_row->>'labelLocalId')::BIGINT, v_row->>'profileId', v_row->>'environment', v_row->>'tenantId',
              v_row->>'stationUser', v_row->>'reason', v_row->>'printerId', (v_row->>'createdAt')::TIMESTAMPTZ)
            ON CONFLICT (station_id, source, local_id) DO NOTHING;
          WHEN 'purchase' THEN
            v_state := v_row->>'state';
            INSERT INTO site_purchases (station_id, purchase_id, profile_id, environment, tenant_id, order_number,
              order_reference, state, packer, failure, confirmed_by, resolution, resolved_by, resolved_at,
              created_at, updated_at)
            VALUES (p_station_id, v_row->>'purchaseId', v_row->>'profileId', v_row->>'environment',
              v_row->>'tenantId', v_row->>'orderNumber', v_row->>'orderReference', v_state, v_row->>'packer',
              NULLIF(v_row->'failure', 'null'::JSONB), v_row->>'confirmedBy', v_row->>'resolution',
              v_row->>'resolvedBy', (v_row->>'resolvedAt')::TIMESTAMPTZ, (v_row->>'createdAt')::TIMESTAMPTZ,
              (v_row->>'updatedAt')::TIMESTAMPTZ)
            ON CONFLICT (station_id, purchase_id) DO UPDATE SET state = EXCLUDED.state,
              failure = EXCLUDED.failure, resolution = EXCLUDED.resolution, resolved_by = EXCLUDED.resolved_by,
              resolved_at = EXCLUDED.resolved_at, updated_at = EXCLUDED.updated_at, synced_at = now();
            IF v_state IN ('failed', 'not-bought') THEN
              -- Nothing was bought: the order is free for any station again.
              UPDATE site_order_claims SET state = 'released', updated_at = now()
               WHERE profile_id = v_row->>'profileId' AND environment = v_row->>'environment'
                 AND tenant_id = v_row->>'tenantId' AND order_number = v_row->>'orderNumber'
                 AND purchase_id = v_row->>'purchaseId' AND state <> 'released';
            ELSIF v_state IN ('purchasing', 'unknown') THEN
              -- Bought or maybe bought: hold the order if nobody does (an offline purchase catching up).
              INSERT INTO site_order_claims AS oc (profile_id, environment, tenant_id, order_number, station_id,
                station_name, purchase_id, packer, state, claimed_at)
              VALUES (v_row->>'profileId', v_row->>'environment', v_row->>'tenantId', v_row->>'orderNumber',
                p_station_id, p_station_name, v_row->>'purchaseId', v_row->>'packer', 'in-flight',
                (v_row->>'createdAt')::TIMESTAMPTZ)
              ON CONFLICT (profile_id, environment, tenant_id, order_number) DO UPDATE
                SET station_id = EXCLUDED.station_id, station_name = EXCLUDED.station_name,
                    purchase_id = EXCLUDED.purchase_id, packer = EXCLUDED.packer, state = 'in-flight',
                    updated_at = now()
                WHERE oc.state = 'released';
            ELSIF v_state = 'purchased' THEN
              INSERT INTO site_order_claims AS oc (profile_id, environment, tenant_id, order_number, station_id,
                station_name, purchase_id, packer, state, claimed_at)
              VALUES (v_row->>'profileId', v_row->>'environment', v_row->>'tenantId', v_row->>'orderNumber',
                p_station_id, p_station_name, v_row->>'purchaseId', v_row->>'packer', 'purchased',
                (v_row->>'createdAt')::TIMESTAMPTZ)
              ON CONFLICT (profile_id, environment, tenant_id, order_number) DO UPDATE
                SET station_id = EXCLUDED.station_id, station_name = EXCLUDED.station_name,
                    purchase_id = EXCLUDED.purchase_id, packer = EXCLUDED.packer, state = 'purchased',
                    updated_at = now()
                WHERE oc.purchase_id = EXCLUDED.purchase_id OR oc.state = 'released';
              GET DIAGNOSTICS v_held = ROW_COUNT;
              IF v_held = 0 AND COALESCE(v_row->>'confirmedBy', '') = '' THEN
                -- Another station holds this order: two labels may have been bought (offline purchase).
                SELECT oc.station_id, oc.station_name, oc.purchase_id INTO v_holder FROM site_order_claims oc
                 WHERE oc.profile_id = v_row->>'profileId' AND oc.environment = v_row->>'environment'
                   AND oc.tenant_id = v_row->>'tenantId' AND oc.order_number = v_row->>'orderNumber';
                IF FOUND AND v_holder.station_id <> p_station_id THEN
                  INSERT INTO site_attention (kind, profile_id, environment, tenant_id, order_number, purchases, message)
                  VALUES ('possible-double-label', v_row->>'profileId', v_row->>'environment', v_row->>'tenantId',
                    v_row->>'orderNumber',
                    jsonb_build_array(
                      jsonb_build_object('stationId', v_holder.station_id, 'purchaseId', v_holder.purchase_id),
                      jsonb_build_object('stationId', p_station_id, 'purchaseId', v_row->>'purchaseId')),
                    format('Possible double label: order %s was labelled at %s and at %s while the site store was unreachable. Keep one label and void the other.',
                      v_row->>'orderNumber', v_holder.station_name, p_station_name))
                  ON CONFLICT (kind, profile_id, environment, tenant_id, order_number) WHERE resolved_at IS NULL
                  DO NOTHING;
                END IF;
              END IF;
            ELSE
              RAISE EXCEPTION 'unknown purchase state %', v_state;
            END IF;
          ELSE
            RAISE EXCEPTION 'unknown site change %', v_change->>'kind';
          END CASE;
          v_count := v_count + 1;
        END LOOP;
        PERFORM pg_notify('site_changes', p_station_id);
        RETURN v_count;
      END
      $fn$;

      -- Site History filtered by station or by packer, newest first: without these the search
      -- walks site_labels_by_time and filters, which at 10,000,000 labels reads a large part of
      -- the index for a rare packer or a quiet station.
      CREATE INDEX site_labels_by_station_time ON site_labels (profile_id, environment, station_id, created_at DESC);
      CREATE INDEX site_labels_by_packer_time ON site_labels (profile_id, environment, packer, created_at DESC);
      DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'shipping_station') THEN
          GRANT EXECUTE ON FUNCTION site_apply_batch(TEXT, TEXT, JSONB) TO shipping_station;
        END IF;
      END $$;
    `,
};
