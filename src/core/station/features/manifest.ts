import { manifestGroups, type EndOfDayQuery, type ManifestGroup } from '../../labels/end-of-day.js';
import type { ManifestRecord } from '../../labels/manifest-records.js';
import { PlatformError } from '../../platform/errors.js';
import type * as V from '../../../shared/views.js';
import { StationFailure } from '../errors.js';
import { brandName } from '../map.js';
import type { ProfileRuntime } from '../runtime.js';

type ManifestLine = V.ManifestResultView['manifests'][number];

/**
 * The labels of a manifest request the platform refused one by one (`labelIds[3]`: "label … was
 * not found"): a label voided on the platform, or bought against another sandbox. Null when the
 * refusal names anything else (the site, the carrier, the whole request), which leaving labels
 * out would not mend.
 */
function refusedLabelIds(e: unknown, labelIds: readonly string[]): Map<string, string> | null {
  if (!(e instanceof PlatformError) || e.kind !== 'validation' || e.fieldErrors.length === 0)
    return null;
  const refused = new Map<string, string>();
  for (const f of e.fieldErrors) {
    const at = /^labelIds\[(\d+)\]$/.exec(f.field ?? '');
    const id = at ? labelIds[Number(at[1])] : undefined;
    if (id === undefined) return null;
    refused.set(id, f.message || 'the platform refused this label');
  }
  return refused;
}

/** A 404/405/501 naming nothing more specific than the route: the platform has no such endpoint. */
function noManifestRoute(e: unknown): e is PlatformError {
  return (
    e instanceof PlatformError &&
    ([405, 501].includes(e.status ?? 0) ||
      (e.status === 404 && [null, 'NOT_FOUND', 'ROUTE_NOT_FOUND'].includes(e.errorCode)))
  );
}

/** Every label of the group is on a manifest already (a second close-out of the same days). */
function alreadyOnManifest(e: unknown): boolean {
  return (
    e instanceof PlatformError &&
    e.kind === 'validation' &&
    (e.fieldErrors.some((f) => f.code === 'empty') ||
      /nothing to manifest/i.test(e.platformMessage ?? ''))
  );
}

/**
 * The labels the platform says were on a manifest already (`alreadyManifested`, the sandbox's
 * shape: `[{ labelId, manifestId }]`; not shown in the spec), by manifest; read when present.
 */
function earlierManifests(m: Record<string, unknown>): Map<string, string[]> {
  const by = new Map<string, string[]>();
  const listed = Array.isArray(m.alreadyManifested) ? (m.alreadyManifested as unknown[]) : [];
  for (const x of listed) {
    const { labelId, manifestId } = (x ?? {}) as Record<string, unknown>;
    if (typeof labelId !== 'string' || typeof manifestId !== 'string') continue;
    by.set(manifestId, [...(by.get(manifestId) ?? []), labelId]);
  }
  return by;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "1 label the platform refused: 1Z… (order A-1). Look it up in History before …" */
function refusedWords(leftOut: readonly { trackingNumber: string; orderNumber: string }[]): string {
  const one = leftOut.length === 1;
  return `${plural(leftOut.length, 'label')} the platform refused: ${leftOut
    .map((l) => `${l.trackingNumber} (order ${l.orderNumber})`)
    .join(', ')}. Look ${one ? 'it' : 'them'} up in History before handing ${
    one ? 'that parcel' : 'those parcels'
  } to the carrier`;
}

/** "2 labels of order W1-014 stay off: it has an open possible double label …" */
function heldWords(labels: readonly { trackingNumber: string; orderNumber: string }[]): string {
  const orders = [...new Set(labels.map((l) => l.orderNumber))];
  return `${plural(labels.length, 'label')} of order${orders.length === 1 ? '' : 's'} ${orders.join(', ')} stay${labels.length === 1 ? 's' : ''} off: ${orders.length === 1 ? 'it has' : 'they have'} an open possible double label. A shift lead keeps one label and voids the other (Needs attention), then closes out again.`;
}

/**
 * Closing out with the carrier: one `POST /api/v1/manifests` per brand and carrier of those
 * days' labels (the spec names the endpoint and shows nothing else). A label the platform
 * refuses by its place in `labelIds` is left out and the rest sent once more, so one label the
 * platform does not know does not keep a carrier's whole day off its manifest; the lines name
 * what was left out (tracking and order number) for the shift lead to look into.
 */
export async function closeOut(
  r: ProfileRuntime,
  q: EndOfDayQuery,
  /** The whole site's labels (the site store's), instead of this station's own. */
  site?: (q: EndOfDayQuery) => Promise<ManifestGroup[]>,
  /** Writes down which labels a manifest made took (manifest-records.ts). */
  record?: (manifest: ManifestRecord) => Promise<void>,
): Promise<V.ManifestResultView> {
  if (q.from > q.to)
    throw new StationFailure(
      'validation',
      `The first day (${q.from}) is after the last (${q.to}).`,
    );
  const groups: ManifestGroup[] = site
    ? await site(q)
    : manifestGroups(r.workflow.shipments.db, r.scope, q);
  if (groups.length === 0)
    return {
      offered: true,
      message: 'No labels on these days: nothing to manifest.',
      manifests: [],
    };
  const manifests: ManifestLine[] = [];
  let closedBefore = 0;
  for (const g of groups) {
    const brand = brandName(r.profile, g.tenantId) ?? g.tenantId;
    const siteId =
      r.profile.brandTenants.find((b) => b.tenantId === g.tenantId)?.shippingSiteId ??
      r.profile.shippingSiteId;
    const base = { carrier: g.carrier, brandName: brand, labels: g.labels.length };
    if (!siteId) {
      manifests.push({
        ...base,
        manifestId: null,
        message: `No shipping site in the profile for ${brand}: a manifest needs one.`,
      });
      continue;
    }
    // Kept off by the site (an open possible double label): said on the line, never sent.
    const held = g.heldBack?.length ? ` ${heldWords(g.heldBack)}` : '';
    if (g.labels.length === 0) {
      manifests.push({ ...base, manifestId: null, message: held.trim() });
      continue;
    }
    let labels = g.labels;
    const leftOut: NonNullable<ManifestLine['leftOut']> = [];
    const send = () =>
      r.client.createManifest(
        { shippingSiteId: siteId, carrier: g.carrier, labelIds: labels.map((l) => l.labelId) },
        { tenantId: g.tenantId },
      );
    try {
      let m;
      try {
        m = await send();
      } catch (e) {
        const refused = refusedLabelIds(
          e,
          labels.map((l) => l.labelId),
        );
        if (!refused) throw e;
        for (const l of labels) {
          const reason = refused.get(l.labelId);
          if (reason)
            leftOut.push({ trackingNumber: l.trackingNumber, orderNumber: l.orderNumber, reason });
        }
        if (refused.size === labels.length) throw e;
        labels = labels.filter((l) => !refused.has(l.labelId));
        m = await send();
      }
      const count = m.labelCount ?? m.labelIds?.length ?? labels.length;
      const made = { tenantId: g.tenantId, carrier: g.carrier };
      await record?.({
        ...made,
        manifestId: m.id,
        labelIds: m.labelIds ?? labels.map((l) => l.labelId),
      });
      for (const [manifestId, labelIds] of earlierManifests(m))
        await record?.({ ...made, manifestId, labelIds });
      manifests.push({
        ...base,
        labels: count,
        manifestId: m.id,
        message: `Manifest ${m.id}${leftOut.length ? `, without ${refusedWords(leftOut)}` : ''}.${held}`,
        ...(leftOut.length ? { leftOut } : {}),
      });
    } catch (e) {
      // The spec shows no manifest endpoint: a platform without one is not an error here. A 404
      // with its own code (a shipping site or label the platform does not know) is a real
      // failure, said with its reference.
      if (noManifestRoute(e) && manifests.every((x) => !x.manifestId))
        return {
          offered: false,
          message: `This platform has no manifest endpoint (it answered ${e.status}). The end-of-day summary is the record: print it (Alt+P) or export it (Alt+E).`,
          manifests: [],
        };
      if (alreadyOnManifest(e)) {
        closedBefore++;
        manifests.push({
          ...base,
          manifestId: null,
          message: leftOut.length
            ? `Already closed out: every other ${g.carrier} label of ${brand} is on a manifest, without ${refusedWords(leftOut)}.`
            : `Already closed out: every ${g.carrier} label of ${brand} is on a manifest.`,
          ...(leftOut.length ? { leftOut } : {}),
        });
        continue;
      }
      manifests.push({
        ...base,
        manifestId: null,
        message: e instanceof Error ? e.message : String(e),
        ...(leftOut.length ? { leftOut } : {}),
      });
    }
  }
  const made = manifests.filter((m) => m.manifestId).length;
  const failed = manifests.length - made - closedBefore;
  const leftOut = manifests.reduce((n, m) => n + (m.leftOut?.length ?? 0), 0);
  const summary =
    made === 0 && failed === 0
      ? `Already closed out: every label of these days${leftOut ? ' that the platform knows' : ''} is on a manifest. Nothing new was sent.`
      : `${made} of ${manifests.length} manifest${manifests.length === 1 ? '' : 's'} made${closedBefore ? ` (${closedBefore} already closed out)` : ''}.`;
  return {
    offered: true,
    message: leftOut
      ? `${summary} ${plural(leftOut, 'label')} left out: the platform refused ${leftOut === 1 ? 'it' : 'them'} (below).`
      : summary,
    manifests,
  };
}
