/** The environments a profile can talk to; each has its own identifiers and its own data. */
export const environments = ['embedded-sandbox', 'sandbox', 'production'] as const;
export type Environment = (typeof environments)[number];

/**
 * Which station data a query may see: one profile in one environment. Rows also carry the
 * tenant (brand) they belong to, so a 3PL profile can filter by brand.
 */
export interface StationScope {
  profileId: string;
  environment: Environment;
}

/** Injected so tests and the sandbox clock can control time; ISO 8601 UTC. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export function toCents(amount: number): number {
  return Math.round(amount * 100);
}
