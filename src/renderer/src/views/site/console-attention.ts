/**
 * What the console's "Needs attention (site)" says when the site's own list (possible double
 * labels, purchases with an unknown outcome) is empty. A station's other items (a failed
 * rating, a print job that may not have printed) stay at that station and are only counted in
 * its row: until 2026-11-29 the panel said "Nothing needs attention anywhere on the site." right
 * under a station row counting one.
 */
export function siteAttentionNone(
  stations: readonly { stationId: string; stationName: string; needsAttention: number }[],
  thisStationId: string | null | undefined,
): string {
  const holding = stations.filter((s) => s.needsAttention > 0);
  if (holding.length === 0) return 'Nothing needs attention anywhere on the site.';
  const said = holding.map(
    (s) =>
      `${s.stationName}${s.stationId === thisStationId ? ' (this station)' : ''} has ${s.needsAttention} ${s.needsAttention === 1 ? 'item' : 'items'}`,
  );
  const list = said.length === 1 ? said[0] : `${said.slice(0, -1).join(', ')} and ${said.at(-1)}`;
  return `No possible double label and no purchase with an unknown outcome on the site. ${list} of its own (a failed rating, a print job…): see Needs attention (Alt+2) at that station.`;
}
