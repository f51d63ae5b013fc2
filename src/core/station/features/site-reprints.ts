import { labelPrinterOf } from '../../profiles/profile-schema.js';
import { SiteStoreError } from '../../site/errors.js';
import { voidedReprintWords } from '../../labels/voids.js';
import { isPlatformError, type PlatformErrorKind } from '../../platform/errors.js';
import { asSentence } from '../../../shared/result.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { siteCalls } from '../../../shared/features/site.js';
import type { StationContext } from '../context.js';
import { StationFailure } from '../errors.js';
import { printJobView } from '../map.js';
import { actor, leadFor, reprintsWithoutLead } from './users.js';
import { firstAttemptWithin } from './devices.js';

// Reprints of any station's label from whole-site History (site.reprint), and a label's
// reprints at every station (site.labelReprints): the site's side of History's detail.

const platformAway = new Set<PlatformErrorKind>(['network', 'retryable', 'unexpected-response']);

/** How long a reprint to another station's printer waits for its first attempt (connect: 3 s). */
const REMOTE_ATTEMPT_MS = 4000;

/** The site's store could not be asked: said as a StationFailure the packer reads. */
function storeAway(error: unknown, what: string): never {
  if (error instanceof SiteStoreError && error.problem.kind === 'unreachable')
    throw new StationFailure(
      'site-store-unreachable',
      `${(error.problem.fact ?? error.problem.message).replace(/\.$/, '')}: ${what}`,
    );
  throw error;
}

export function siteReprintHandlers(
  ctx: StationContext,
): Pick<FeatureHandlers<typeof siteCalls>, 'site.reprint' | 'site.labelReprints'> {
  const rt = () => ctx.runtime();
  return {
    'site.reprint': async ({ stationId, labelId, reason, printerId }) => {
      const r = rt();
      const link = ctx.site;
      const target = printerId ?? labelPrinterOf(r.profile);
      if (!target)
        throw new StationFailure(
          'printer-offline',
          `Profile ${r.profile.name} has no label printer; add one in Settings.`,
        );
      // A printer of a station of another tenant (or profile) on the same store is not offered,
      // and is refused when asked for by its id: this profile's labels do not print there.
      const elsewhere = r.profile.printers.some((p) => p.id === target)
        ? null
        : (link?.printerOutOfScope(target) ?? null);
      if (elsewhere)
        throw new StationFailure(
          'not-found',
          `Printer ${target} belongs to ${elsewhere}, a station of another profile or tenant on this site store: a label of ${r.profile.name} is not printed there. Nothing was printed; choose one of this profile's printers.`,
        );
      const printer =
        r.profile.printers.find((p) => p.id === target) ??
        link?.remotePrinters().find((p) => p.id === target);
      if (!printer)
        throw new StationFailure(
          'not-found',
          `Printer ${target} is not set up at this station or registered at the site.`,
        );
      const local = r.profile.printers.some((p) => p.id === target);
      if (local && (!link || stationId === link.config.stationId)) {
        const handler = ctx.handlersRef?.['labels.reprint'];
        if (!handler) throw new StationFailure('not-available', 'Reprint is not available.');
        return handler({ id: labelId, reason, printerId: target });
      }
      if (!link) throw new StationFailure('not-available', 'This station has no site store.');
      const label = await link.label(stationId, Number(labelId)).catch((error: unknown) => {
        if (error instanceof SiteStoreError && error.problem.kind === 'unreachable')
          throw new StationFailure(
            'site-store-unreachable',
            `${(error.problem.fact ?? error.problem.message).replace(/\.$/, '')}: nothing was printed. This station finds another station's label, and so its ZPL, only through the site store: reprint it at the station that bought it, or here once the site store answers again.`,
          );
        throw error;
      });
      if (
        !label ||
        label.profileId !== r.scope.profileId ||
        label.environment !== r.scope.environment
      )
        throw new StationFailure(
          'not-found',
          `Label ${labelId} of station ${stationId} is not in the site store for this profile.`,
        );
      if (label.voided)
        throw new StationFailure(
          'conflict',
          voidedReprintWords(label, label.voided, label.stationName),
        );
      // The site's reprint limit counts every station's reprints of the label, as a label of
      // this station counts its own: past it, a lead approves. The other stations' as the store
      // has them; this station's own as it keeps them (one made a moment ago may not have
      // reached the store yet, or have reached it and not been acknowledged: counted once).
      let stationUser = actor(ctx);
      const limit = reprintsWithoutLead(ctx);
      const me = link.config.stationId;
      const mine = link.outbox.siteReprintsOf(stationId, label.localId).length;
      const stored = await link.reprintsOf(stationId, label.localId).catch(() => null);
      const reprints = stored
        ? stored.filter((x) => !(x.stationId === me && x.source === 'site')).length + mine
        : label.reprints + (link.outbox.unsentReprints().get(`${stationId}:${label.localId}`) ?? 0);
      if (reprints >= limit) {
        const lead = leadFor(ctx, {
          kind: 'reprint',
          orderNumber: label.orderNumber,
          reprints,
          limit,
        });
        if (lead && lead !== stationUser) stationUser = `${stationUser} (approved by ${lead})`;
      }
      // The ZPL lives at the station that bought it; the platform keeps it for every label.
      const zpl = await r.platform
        .labelZpl(label.tenantId, label.platformLabelId)
        .catch((error: unknown) => {
          // The platform no longer keeps the label's file (purged, or lost): the station that
          // bought it prints it from its own copy.
          if (isPlatformError(error) && error.kind === 'not-found')
            throw new StationFailure(
              'not-found',
              `The platform no longer has the label of order ${label.orderNumber} (${label.trackingNumber}), so it cannot be printed here: nothing was printed. Reprint it at ${label.stationName} (History there): the station that bought a label prints it from its own copy.`,
            );
          if (isPlatformError(error) && platformAway.has(error.kind))
            throw new StationFailure(
              'platform-unreachable',
              `${asSentence(error.message)} Nothing was printed: the label of order ${label.orderNumber} was bought at ${label.stationName}, and this station prints it from the platform's copy. Try again in a moment, or reprint it at ${label.stationName}.`,
            );
          throw error;
        });
      const job = ctx.spool.enqueue({
        printerId: target,
        payload: zpl,
        kind: 'reprint',
        labelId: `${stationId}:${label.localId}`,
        orderReference: label.orderReference,
        reason,
      }).job;
      link.outbox.recordSiteReprint({
        label_station_id: stationId,
        label_local_id: label.localId,
        profile_id: r.scope.profileId,
        environment: r.scope.environment,
        tenant_id: label.tenantId,
        order_number: label.orderNumber,
        station_user: stationUser,
        reason,
        printer_id: target,
        print_job_id: job.id,
      });
      link.sync.wake();
      ctx.changed('queue');
      // Another station's printer: its state is not in this station's header, so the answer
      // waits for the first attempt (a refused connection is known at once, one that does not
      // answer within the printer's connect timeout): "queued for ZD421 (Station 4): …", not
      // "sent", when it did not take the label.
      const attempted = local ? null : await firstAttemptWithin(ctx, job.id, REMOTE_ATTEMPT_MS);
      return printJobView(attempted ?? job, printer.name);
    },
    'site.labelReprints': async ({ stationId, labelId }) => {
      const link = ctx.site;
      if (!link) return [];
      const label = await link
        .label(stationId, Number(labelId))
        .catch((e: unknown) =>
          storeAway(e, "this label's reprints at the other stations cannot be read now."),
        );
      if (!label) return [];
      const stored = await link
        .reprintsOf(stationId, Number(labelId))
        .catch((e: unknown) =>
          storeAway(e, "this label's reprints at the other stations cannot be read now."),
        );
      // This station's own reprints of it that its outbox has not sent yet (one made a moment
      // ago): shown at once, as the store will have them.
      const me = link.config.stationId;
      const sent = new Set(
        stored.filter((x) => x.stationId === me && x.source === 'site').map((x) => x.localId),
      );
      const pending = link.outbox
        .siteReprintsOf(stationId, Number(labelId))
        .filter((x) => !sent.has(x.id))
        .map((x) => ({
          stationId: me,
          stationName: link.config.stationName,
          stationUser: x.station_user,
          reason: x.reason,
          at: x.created_at,
        }));
      const reprints = [...stored, ...pending].sort((a, b) => a.at.localeCompare(b.at));
      return reprints.map((x, i) => ({
        id: `${x.stationId}:${i}`,
        labelId,
        trackingNumber: label.trackingNumber,
        orderNumber: label.orderNumber,
        user: x.stationUser,
        reason: x.reason,
        at: x.at,
        stationName: x.stationName,
      }));
    },
  };
}
