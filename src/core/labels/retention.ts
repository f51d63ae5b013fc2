import type { StationScope } from '../storage/scope.js';
import type { LabelRepository } from './label-repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The profile's retention setting: labels created more than `days` days ago lose their ZPL
 * (the record stays: tracking number, cost, order, times). Returns how many were trimmed.
 * Without a setting nothing is dropped.
 */
export function applyLabelRetention(
  labels: LabelRepository,
  scope: StationScope,
  days: number | undefined,
  now: Date = new Date(),
): number {
  if (days === undefined || !(days > 0)) return 0;
  return labels.dropZplBefore(scope, new Date(now.getTime() - days * DAY_MS).toISOString());
}
