/** The brand filter of History: shown only when the profile ships for more than its own tenant. */
export function BrandSelect(props: {
  brands: readonly { tenantId: string; name: string }[];
  value: string;
  onChange(tenantId: string): void;
}) {
  if (!props.brands.length) return null;
  return (
    <select aria-label="Brand" value={props.value} onChange={(e) => props.onChange(e.target.value)}>
      <option value="">All brands</option>
      {props.brands.map((b) => (
        <option key={b.tenantId} value={b.tenantId}>
          {b.name}
        </option>
      ))}
    </select>
  );
}
