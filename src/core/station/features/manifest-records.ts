import {
  manifestedLabelIds,
  recordManifestLabels,
  type ManifestRecord,
} from '../../labels/manifest-records.js';
import { SITE_SCHEMA_MANIFESTS } from '../../site/schema.js';
import type { StationContext } from '../context.js';
import type { ProfileRuntime } from '../runtime.js';

/**
 * Which labels the manifests made at this station took, kept here (station migration 24) and,
 * with a site store at site migration 9 or later, in the store for every station: End of day's
 * close-out question counts the labels on a manifest already apart from those that go on a new
 * one (the platform lists no manifests by label).
 */

/** The site store, when it can be asked now and keeps close-outs. */
function store(ctx: StationContext) {
  const link = ctx.site;
  if (!link) return null;
  const schema = link.store.schema;
  if (schema === null || schema < SITE_SCHEMA_MANIFESTS) return null;
  // A store known to be away is not waited for (a connection attempt takes seconds).
  if (link.sync.problem()) return null;
  return link.store;
}

/**
 * Records a manifest the platform made: here at once, in the site store as well when it answers.
 * A store that does not answer only misses the record (its close-out question then counts these
 * labels as not yet on a manifest, as before site migration 9): the manifest itself is made.
 */
export async function recordManifest(
  ctx: StationContext,
  r: ProfileRuntime,
  manifest: ManifestRecord,
): Promise<void> {
  recordManifestLabels(r.workflow.shipments.db, r.scope, manifest, Date.now());
  try {
    await store(ctx)?.recordManifest(r.scope, manifest);
  } catch (error) {
    ctx.log(
      `site: the labels of manifest ${manifest.manifestId} were not recorded in the site store (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/**
 * Of `labelIds` (the platform's), those on a manifest already: made here, or anywhere on the site
 * as the store says (when it answers).
 */
export async function manifestedOf(
  ctx: StationContext,
  r: ProfileRuntime,
  labelIds: readonly string[],
): Promise<Set<string>> {
  const found = manifestedLabelIds(r.workflow.shipments.db, r.scope, labelIds);
  if (found.size === labelIds.length) return found;
  try {
    const site = await store(ctx)?.manifestedLabelIds(r.scope, labelIds);
    for (const id of site ?? []) found.add(id);
  } catch {
    // The store's record is an addition: without it the count is this station's own.
  }
  return found;
}
