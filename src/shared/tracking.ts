/**
 * The tracker statuses of docs/platform-choices.md, in the board's order: the one list the core's
 * board and the renderer's filters both use. Others are kept as they come.
 */
export const trackerStatuses = [
  'PRE_TRANSIT',
  'IN_TRANSIT',
  'OUT_FOR_DELIVERY',
  'DELIVERED',
  'EXCEPTION',
  'RETURNED',
] as const;
export type KnownTrackerStatus = (typeof trackerStatuses)[number];
