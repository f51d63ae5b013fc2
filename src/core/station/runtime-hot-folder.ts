import { offeredServiceLevels } from '../tracking/carrier-health.js';
import { basename } from 'node:path';
import { OrderHotFolder } from '../orders/hot-folder.js';
import { cancelClosedOrder } from '../packing/order-cancel.js';
import { tenantsOf } from '../profiles/profile-schema.js';
import type { ProfileRuntime, RuntimeDeps } from './runtime.js';
import { brandName } from './map.js';

/**
 * The profile's hot folder, watched (null: none set, or refused where it points, which is
 * logged): each file's orders are pre-rated, and a file with problems goes under Needs attention
 * (ImportAlerts) until a shift lead dismisses it. With a site store, a file is claimed for the
 * site before it is imported (imported once for every station).
 */
export async function watchHotFolder(
  rt: Pick<
    ProfileRuntime,
    'profile' | 'orders' | 'scope' | 'preRater' | 'importAlerts' | 'carriers' | 'workflow'
  >,
  deps: RuntimeDeps,
): Promise<OrderHotFolder | null> {
  const folder = rt.profile.hotFolder;
  if (!folder) return null;
  const refused = deps.hotFolderProblem?.(folder) ?? null;
  if (refused) {
    deps.log(`hot folder not watched: ${refused}`);
    return null;
  }
  const { claimOrderFile, releaseOrderFile } = deps;
  const watcher = new OrderHotFolder({
    folder,
    orders: rt.orders,
    scope: rt.scope,
    tenants: {
      defaultTenantId: rt.profile.tenantId,
      allowedTenantIds: tenantsOf(rt.profile),
      shipFromCountry: rt.profile.shipFrom.countryCode,
      offeredServiceLevels: (tenantId) => offeredServiceLevels(rt.carriers(), tenantId),
      brandName: (tenantId) => brandName(rt.profile, tenantId),
    },
    onFile: ({ file, movedTo, report, format }) => {
      rt.preRater.wake();
      if (report.problemCount > 0) {
        rt.importAlerts.add(rt.scope, { fileName: basename(file), movedTo, report, format });
        deps.onAttention?.();
      }
      deps.onOrders(basename(file), report.imported.length + report.updated.length);
    },
    log: deps.log,
    // An open order a file says the store cancelled or shipped: cancelled here, as a lead would.
    cancelClosed: cancelClosedOrder(rt.workflow, deps.log),
    mappings: rt.profile.orderColumnMappings ?? [],
    ...(claimOrderFile
      ? { claimFile: (text: string, name: string) => claimOrderFile(rt.scope, text, name) }
      : {}),
    ...(releaseOrderFile
      ? { releaseFile: (text: string) => releaseOrderFile(rt.scope, text) }
      : {}),
  });
  await watcher.start().catch((e: unknown) => deps.log(`hot folder: ${(e as Error).message}`));
  return watcher;
}
