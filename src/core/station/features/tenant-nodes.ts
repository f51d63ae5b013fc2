import type { Tenant } from '../../platform/index.js';
import type { TenantNode } from '../../../shared/views.js';

/** A tenant of the platform's tree as the renderer lists it (names and types tolerated absent). */
export function tenantNode(t: Tenant): TenantNode {
  const raw = t as unknown as {
    tenantId: string;
    name?: string | null;
    type?: string | null;
    children?: Tenant[] | null;
  };
  return {
    tenantId: raw.tenantId,
    name: raw.name ?? raw.tenantId,
    type: raw.type ?? '',
    children: (raw.children ?? []).map(tenantNode),
  };
}

export function findTenant(nodes: TenantNode[], id: string): TenantNode | undefined {
  for (const n of nodes) {
    if (n.tenantId === id) return n;
    const inner = findTenant(n.children, id);
    if (inner) return inner;
  }
  return undefined;
}

/** Every tenant below these, depth first. */
export function allBelow(nodes: readonly TenantNode[]): TenantNode[] {
  return nodes.flatMap((n) => [n, ...allBelow(n.children)]);
}
