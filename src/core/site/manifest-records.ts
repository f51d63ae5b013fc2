import type pg from 'pg';
import type { ManifestRecord } from '../labels/manifest-records.js';
import type { SiteScope } from './types.js';

/**
 * Writes down which labels a manifest made at this station took (site migration 9), for every
 * station's close-out question. A label already recorded keeps its first manifest.
 */
export async function recordSiteManifest(
  pool: pg.Pool,
  scope: SiteScope,
  stationId: string,
  manifest: ManifestRecord,
): Promise<void> {
  await pool.query(
    `INSERT INTO site_manifest_labels
       (profile_id, environment, platform_label_id, manifest_id, tenant_id, carrier, station_id)
     SELECT $1, $2, id, $3, $4, $5, $6 FROM unnest($7::text[]) AS id
     ON CONFLICT DO NOTHING`,
    [
      scope.profileId,
      scope.environment,
      manifest.manifestId,
      manifest.tenantId,
      manifest.carrier,
      stationId,
      [...manifest.labelIds],
    ],
  );
}

/** Of `labelIds` (the platform's), those a manifest made anywhere on the site took. */
export async function siteManifestedLabelIds(
  pool: pg.Pool,
  scope: SiteScope,
  labelIds: readonly string[],
): Promise<Set<string>> {
  if (labelIds.length === 0) return new Set();
  const { rows } = await pool.query<{ id: string }>(
    `SELECT platform_label_id AS id FROM site_manifest_labels
      WHERE profile_id = $1 AND environment = $2 AND platform_label_id = ANY($3::text[])`,
    [scope.profileId, scope.environment, [...labelIds]],
  );
  return new Set(rows.map((r) => r.id));
}
