import type { Tenant } from './schemas.js';

/**
 * The tenant list as a tree. The spec says only that GET /api/v1/tenants "returns all tenants
 * together with their child tenants": the children may come nested (`children`, as the sandbox
 * answers) or as entries of the list beside their parent, known by `parentTenantId`. A list with
 * nothing nested is put together by `parentTenantId`, so a 3PL's brands are its children either
 * way; a tenant whose parent is not in the list is a root. A nested list is left as it is.
 */
export function tenantTree(list: readonly Tenant[]): Tenant[] {
  if (list.some((t) => (t.children?.length ?? 0) > 0)) return [...list];
  const byId = new Map<string, Tenant & { children: Tenant[] }>();
  for (const t of list) if (!byId.has(t.tenantId)) byId.set(t.tenantId, { ...t, children: [] });
  const roots: Tenant[] = [];
  for (const node of byId.values()) {
    const parent = node.parentTenantId ? byId.get(node.parentTenantId) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  // Parents that name each other in a ring leave no root: the list as it came, then.
  return roots.length > 0 ? roots : [...list];
}
