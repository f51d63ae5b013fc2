/** This station or the whole site: the scope of History and Orders when a site store is set. */
export function ScopeSelect(props: {
  label: string;
  value: 'station' | 'site';
  onChange(scope: 'station' | 'site'): void;
}) {
  return (
    <select
      aria-label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value === 'site' ? 'site' : 'station')}
    >
      <option value="station">This station</option>
      <option value="site">Whole site</option>
    </select>
  );
}
