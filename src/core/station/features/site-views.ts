import type { SiteSyncStatus } from '../../site/sync.js';
import { neverAnsweredWords, type SiteProblem } from '../../site/errors.js';
import type { SiteLabel } from '../../site/types.js';
import type * as V from '../../../shared/views.js';
import { labelFacts, type LabelFacts } from '../map.js';

export function formatAge(ms: number): string {
  if (ms < 60_000) return `${Math.max(1, Math.round(ms / 1000))} s`;
  const min = Math.floor(ms / 60_000);
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

/**
 * The header's word for a store the station cannot use: "not reachable" only when it does not
 * answer; one that answers and refuses says so, so nobody chases the network for a password.
 */
function awayWords(problem: SiteProblem | null, neverReached: boolean): string {
  switch (problem?.kind) {
    case 'unreachable':
      return neverReached ? 'never reached (check its address)' : 'not reachable';
    case 'auth':
      return 'login refused';
    case 'no-database':
      return 'no such database';
    case 'newer-schema':
      return 'store is newer than this station';
    case 'permission':
      return 'not permitted';
    case 'duplicate-station':
      return 'station id in use elsewhere';
    case 'busy':
      return 'store busy';
    case 'other':
      return 'cannot be used';
    default:
      return 'not reachable';
  }
}

export function siteHeader(
  status: SiteSyncStatus,
  now = Date.now(),
  /** The site's rule for buying while the store is away: with `refuse` the station cannot. */
  offlinePurchase: 'allow' | 'refuse' = 'allow',
  /** Where the store is, when this station has never reached it there (SiteLink.hasReachedStore). */
  neverReachedAt: string | null = null,
): V.SiteHeaderView {
  const lagMs = status.oldestAt === null ? 0 : Math.max(0, now - status.oldestAt);
  const waiting = `${status.depth} change${status.depth === 1 ? '' : 's'} waiting, ${formatAge(lagMs)}`;
  const text =
    status.state === 'synced'
      ? 'Site: synced'
      : status.state === 'waiting'
        ? status.connecting && status.depth === 0
          ? 'Site: connecting to the store…'
          : `Site: ${waiting}`
        : `Site: ${awayWords(status.problem, neverReachedAt !== null)}${status.depth > 0 ? ` (${waiting})` : ''}`;
  return {
    state: status.state,
    text,
    depth: status.depth,
    lagMs,
    problem:
      status.problem?.kind === 'unreachable' && neverReachedAt !== null
        ? `${neverAnsweredWords(neverReachedAt, status.problem)} Until it answers, this station buys no label: it cannot check with the site whether another station has labelled an order.`
        : status.problem?.kind === 'unreachable' && offlinePurchase === 'refuse'
          ? `${status.problem.fact ?? status.problem.message} This site buys no label while the site store is away (site IT set it so): nothing can be bought here until it answers.`
          : (status.problem?.message ?? null),
  };
}

/** A label row of site-wide History; `at` says which station bought it and what is known there. */
export function siteLabelView(
  l: LabelFacts & Pick<SiteLabel, 'tenantId'>,
  at: Pick<
    V.SiteLabelView,
    'stationId' | 'stationName' | 'labelId' | 'brandName' | 'packer' | 'reprints' | 'here'
  >,
  voided?: V.SiteLabelView['voided'] | null,
): V.SiteLabelView {
  return { ...at, ...labelFacts(l), tenantId: l.tenantId, ...(voided ? { voided } : {}) };
}
