import type { Db } from '../storage/database.js';
import type { StationScope } from '../storage/scope.js';

/** One manifest the platform made: its id and the labels it took. */
export interface ManifestRecord {
  manifestId: string;
  tenantId: string;
  carrier: string;
  /** The platform's label ids. */
  labelIds: readonly string[];
}

/**
 * Writes down which labels a manifest took (station migration 24). A label already recorded
 * keeps its first manifest: the platform puts a label on one manifest only.
 */
export function recordManifestLabels(
  db: Db,
  scope: StationScope,
  manifest: ManifestRecord,
  madeAt: number,
): void {
  db.prepare(
    `INSERT INTO manifest_labels
       (profile_id, environment, platform_label_id, manifest_id, tenant_id, carrier, made_at)
     SELECT @profileId, @environment, value, @manifestId, @tenantId, @carrier, @madeAt
       FROM json_each(@ids) WHERE true
     ON CONFLICT DO NOTHING`,
  ).run({
    profileId: scope.profileId,
    environment: scope.environment,
    manifestId: manifest.manifestId,
    tenantId: manifest.tenantId,
    carrier: manifest.carrier,
    madeAt,
    ids: JSON.stringify(manifest.labelIds),
  });
}

/** Of `labelIds` (the platform's), those a manifest this station made took. */
export function manifestedLabelIds(
  db: Db,
  scope: StationScope,
  labelIds: readonly string[],
): Set<string> {
  if (labelIds.length === 0) return new Set();
  const rows = db
    .prepare<{ profileId: string; environment: string; ids: string }, { id: string }>(
      `SELECT platform_label_id AS id FROM manifest_labels
        WHERE profile_id = @profileId AND environment = @environment
          AND platform_label_id IN (SELECT value FROM json_each(@ids))`,
    )
    .all({
      profileId: scope.profileId,
      environment: scope.environment,
      ids: JSON.stringify(labelIds),
    });
  return new Set(rows.map((r) => r.id));
}
