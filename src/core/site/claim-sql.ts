/**
 * The order claim's one statement (SiteClaims.claimOrder). $1 profile, $2 environment, $3 tenant,
 * $4 order number, $5 station id, $6 station name, $7 purchase id, $8 packer, $9 another label
 * confirmed.
 *
 * `crossProfile` (a store at site migration 8, whose index finds an order's claims by tenant and
 * number whatever the profile): a claim held for the same order of the same tenant by a station
 * set up under another profile id refuses this one too. Such stations share no History or orders
 * (both are kept per profile), but they buy from the same platform account, and a second label is
 * a second charge.
 */
export function claimOrderSql(crossProfile: boolean): string {
  const other = crossProfile ? 'other_profile' : null;
  const none = (name: string | null) => (name ? ` AND NOT EXISTS (SELECT 1 FROM ${name})` : '');
  return `WITH cancelled AS (
       -- Cancelled by a shift lead at a station (its order as it last sent it): no station takes
       -- the order, another label asked for or not.
       SELECT o.order_json->'cancelled' AS info, o.station_id
         FROM site_orders o
        WHERE o.profile_id = $1 AND o.environment = $2 AND o.tenant_id = $3
          AND o.order_number = $4 AND jsonb_typeof(o.order_json->'cancelled') = 'object'),
     ${
       other
         ? `${other} AS (
       SELECT f.station_id, f.station_name, f.packer, f.state, f.claimed_at, f.profile_id
         FROM site_order_claims f
        WHERE f.tenant_id = $3 AND f.order_number = $4 AND f.environment = $2
          AND f.state <> 'released' AND f.profile_id <> $1 AND NOT $9::boolean
        ORDER BY f.claimed_at LIMIT 1),
     `
         : ''
     }taken AS (
       INSERT INTO site_order_claims AS c (profile_id, environment, tenant_id, order_number,
         station_id, station_name, purchase_id, packer, state)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, 'in-flight'
        WHERE NOT EXISTS (SELECT 1 FROM cancelled)${none(other)}
       ON CONFLICT (profile_id, environment, tenant_id, order_number) DO UPDATE
         SET station_id = EXCLUDED.station_id, station_name = EXCLUDED.station_name,
             purchase_id = EXCLUDED.purchase_id, packer = EXCLUDED.packer,
             state = 'in-flight', claimed_at = now(), updated_at = now()
         WHERE c.state = 'released' OR c.station_id = EXCLUDED.station_id OR $9::boolean
       RETURNING true AS granted, station_id, station_name, packer, state, claimed_at,
         NULL::bigint AS label_local_id, NULL::text AS label_tracking_number,
         NULL::jsonb AS label_voided, NULL::boolean AS holder_quiet, NULL::timestamptz AS holder_seen_at,
         NULL::jsonb AS cancelled${other ? ', NULL::text AS other_profile' : ''},
         NULL::text AS holder_purchase_state)
     SELECT * FROM taken
     UNION ALL
     SELECT false, x.station_id, COALESCE(st.station_name, x.station_id), NULL,
            'cancelled', now(), NULL, NULL, NULL, NULL, NULL, x.info${other ? ', NULL' : ''}, NULL
       FROM cancelled x LEFT JOIN site_stations st ON st.station_id = x.station_id
     ${
       other
         ? `UNION ALL
     -- Held under another profile id: who, and that profile (no label to reprint here).
     SELECT false, o.station_id, o.station_name, o.packer, o.state, o.claimed_at,
            NULL, NULL, NULL, NULL, NULL, NULL, o.profile_id, NULL
       FROM ${other} o WHERE NOT EXISTS (SELECT 1 FROM cancelled)
     `
         : ''
     }UNION ALL
     -- Refused: the holder's label too (by its purchase), so the packer can reprint it here. Only
     -- read when nothing was taken: a granted claim costs no more.
     SELECT false, h.station_id, h.station_name, h.packer, h.state, h.claimed_at,
            l.local_id, l.tracking_number,
            -- Voided at the carrier there since (to_jsonb: a store before site migration 6 has no
            -- such column, and answers null).
            to_jsonb(l)->'voided',
            -- Quiet: checked in last over two minutes ago, or gone from the site (retired) with a
            -- claim that old.
            CASE WHEN st.station_id IS NULL
                 THEN h.claimed_at < now() - interval '2 minutes'
                 ELSE st.last_seen_at < now() - interval '2 minutes' END,
            st.last_seen_at, NULL${other ? ', NULL' : ''},
            -- The holder's purchase as its station last sent it: 'unknown' when the platform
            -- did not confirm it (a lead settles it there), not a purchase under way.
            p.state
       FROM site_order_claims h
       LEFT JOIN site_labels l
         ON h.state = 'purchased' AND l.station_id = h.station_id AND l.purchase_id = h.purchase_id
       LEFT JOIN site_stations st ON st.station_id = h.station_id
       LEFT JOIN site_purchases p
         ON h.state = 'in-flight' AND p.station_id = h.station_id AND p.purchase_id = h.purchase_id
      WHERE NOT EXISTS (SELECT 1 FROM taken) AND NOT EXISTS (SELECT 1 FROM cancelled)${none(other)}
        AND h.profile_id = $1 AND h.environment = $2 AND h.tenant_id = $3
        AND h.order_number = $4`;
}
