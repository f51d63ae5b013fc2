import type { TenantNode } from '../../../../shared/views';

/** Every tenant below these, depth first. */
export const allBelow = (nodes: readonly TenantNode[]): TenantNode[] =>
  nodes.flatMap((n) => [n, ...allBelow(n.children)]);

/**
 * "Brands this station ships for": one checkbox per tenant under a 3PL (New profile, and a
 * profile's Brands in Settings). `children` closes the group (a note under the boxes).
 */
export function BrandChecks(props: {
  options: readonly TenantNode[];
  chosen: readonly string[];
  onChange(chosen: string[]): void;
  label?: string;
  children?: React.ReactNode;
}) {
  const { chosen } = props;
  return (
    <fieldset {...(props.label ? { 'aria-label': props.label } : {})}>
      <legend>Brands this station ships for</legend>
      {allBelow(props.options).map((node) => (
        <label key={node.tenantId} className="check">
          <input
            type="checkbox"
            checked={chosen.includes(node.tenantId)}
            onChange={(e) =>
              props.onChange(
                e.target.checked
                  ? [...chosen, node.tenantId]
                  : chosen.filter((b) => b !== node.tenantId),
              )
            }
          />
          {node.name}
        </label>
      ))}
      {props.children}
    </fieldset>
  );
}
