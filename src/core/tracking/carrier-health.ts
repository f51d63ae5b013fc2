import type Database from 'better-sqlite3';
import type { PlatformClient } from '../platform/client.js';
import type { CarrierAccount, RateError } from '../platform/schemas.js';
import type { TrackingScope } from './types.js';

/** Why a carrier account cannot rate or buy right now. */
export type CarrierAccountProblem =
  'pending' | 'expired' | 'error' | 'unauthorized' | 'inactive' | 'unknown-status';

export interface CarrierAccountHealth {
  carrierAccountId: string;
  /** The tenant the accounts were listed for (x-tenant-id). */
  tenantId: string;
  name: string | null;
  carrier: string | null;
  ownershipType: string | null;
  isActive: boolean;
  connectionId: string | null;
  authorizationStatus: string;
  authorizationType: string | null;
  /** Where the account owner completes the carrier's sign-in, while PENDING. */
  oauthUrl: string | null;
  serviceLevels: string[];
  usable: boolean;
  problem: CarrierAccountProblem | null;
  /** For the shift lead; null when the account is fine. */
  message: string | null;
  checkedAt: string;
}

export interface RateProblem {
  carrierAccountId: string | null;
  name: string | null;
  carrier: string | null;
  errorCode: string | null;
  authorizationStatus: string | null;
  oauthUrl: string | null;
  problem: CarrierAccountProblem | null;
  message: string;
}

function problemOf(status: string, isActive: boolean): CarrierAccountProblem | null {
  if (!isActive) return 'inactive';
  switch (status) {
    case 'AUTHORIZED':
      return null;
    case 'PENDING':
      return 'pending';
    case 'EXPIRED':
      return 'expired';
    case 'ERROR':
      return 'error';
    case 'UNAUTHORIZED':
      return 'unauthorized';
    default:
      return 'unknown-status';
  }
}

function label(name: string | null, carrier: string | null, id: string | null): string {
  const who = name ?? id ?? 'a carrier account';
  return carrier ? `${carrier} account "${who}"` : `carrier account "${who}"`;
}

/** The sentence a shift lead reads next to an account that cannot rate or buy. */
export function describeProblem(
  problem: CarrierAccountProblem,
  account: { name: string | null; carrier: string | null; id: string | null },
  status: string | null,
  oauthUrl: string | null,
): string {
  const who = label(account.name, account.carrier, account.id);
  switch (problem) {
    case 'pending':
      return `${who} is waiting for authorization: the account owner must finish the carrier's sign-in${oauthUrl ? ` at ${oauthUrl}` : ''}`;
    case 'expired':
      return `${who}: the carrier authorization has expired, so it returns no rates until the owner re-authorizes it`;
    case 'error':
      return `${who}: the carrier connection is in error (check its credentials with the account owner)`;
    case 'unauthorized':
      return `${who} is not authorized with the carrier yet`;
    case 'inactive':
      return `${who} is switched off (inactive) on the platform`;
    case 'unknown-status':
      return `${who} cannot be used: its connection status is ${status ?? 'unknown'}`;
    default: {
      const never: never = problem;
      return String(never);
    }
  }
}

interface HealthRow {
  carrier_account_id: string;
  tenant_id: string;
  name: string | null;
  carrier: string | null;
  ownership_type: string | null;
  is_active: number;
  connection_id: string | null;
  authorization_status: string;
  authorization_type: string | null;
  oauth_url: string | null;
  service_levels_json: string;
  checked_at: string;
}

/**
 * The tenant's carrier accounts and whether each can rate and buy, cached in SQLite so the
 * shift lead's screen opens without a round trip and still says something when offline.
 */
export class CarrierHealth {
  private readonly deleteScope;
  private readonly insert;
  private readonly select;
  private readonly replace;
  private readonly one;

  constructor(
    private readonly client: Pick<
      PlatformClient,
      'listCarrierAccounts' | 'getCarrierAccount' | 'environment'
    >,
    db: Database.Database,
    private readonly scope: TrackingScope,
    private readonly now: () => Date = () => new Date(),
  ) {
    if (client.environment !== scope.environment) {
      throw new Error(
        `Carrier health for ${scope.environment} was given a ${client.environment} client; identifiers never cross environments`,
      );
    }
    const where =
      'profile_id = @profile_id AND environment = @environment AND tenant_id = @tenant_id';
    this.deleteScope = db.prepare(`DELETE FROM carrier_account_health WHERE ${where}`);
    this.one = db.prepare<
      Record<string, unknown>,
      Pick<HealthRow, 'authorization_status' | 'is_active'>
    >(
      `SELECT authorization_status, is_active FROM carrier_account_health
        WHERE ${where} AND carrier_account_id = @carrier_account_id`,
    );
    this.insert = db.prepare(`
      INSERT INTO carrier_account_health (profile_id, environment, tenant_id, carrier_account_id,
        name, carrier, ownership_type, is_active, connection_id, authorization_status,
        authorization_type, oauth_url, service_levels_json, raw_json, checked_at)
      VALUES (@profile_id, @environment, @tenant_id, @carrier_account_id, @name, @carrier,
        @ownership_type, @is_active, @connection_id, @authorization_status, @authorization_type,
        @oauth_url, @service_levels_json, @raw_json, @checked_at)`);
    this.select = db.prepare<Record<string, unknown>, HealthRow>(
      `SELECT * FROM carrier_account_health WHERE ${where}
       ORDER BY carrier, name, carrier_account_id`,
    );
    this.replace = db.transaction((tenantId: string, accounts: CarrierAccount[], at: string) => {
      const keys = this.keys(tenantId);
      this.deleteScope.run(keys);
      for (const a of accounts) {
        const conn = a.carrierAccountConnection;
        this.insert.run({
          ...keys,
          carrier_account_id: a.id,
          name: a.name ?? null,
          carrier: a.carrier ?? conn?.carrier ?? null,
          ownership_type: a.ownershipType ?? null,
          is_active: a.isActive === false ? 0 : 1,
          connection_id: a.carrierAccountConnectionId ?? conn?.id ?? null,
          authorization_status:
            conn?.authorizationStatus ?? conn?.authorizationDetails?.status ?? 'UNKNOWN',
          authorization_type: conn?.authorizationDetails?.type ?? null,
          oauth_url: conn?.authorizationDetails?.oauth_url ?? null,
          service_levels_json: JSON.stringify(a.serviceLevels ?? []),
          raw_json: JSON.stringify(a),
          checked_at: at,
        });
      }
    });
  }

  private keys(tenantId: string) {
    return {
      profile_id: this.scope.profileId,
      environment: this.scope.environment,
      tenant_id: tenantId,
    };
  }

  /**
   * Reads the accounts from the platform and replaces the cache. An account whose list entry
   * shows no connection status, or a PENDING one without its oauth_url, is read on its own: the
   * spec promises the list only the connection's id (rule 3), and the status and the URL from
   * GET /api/v1/carrierAccounts/{id} (rule 4).
   */
  async refresh(
    options: { tenantId?: string; signal?: AbortSignal } = {},
  ): Promise<CarrierAccountHealth[]> {
    const tenantId = options.tenantId ?? this.scope.tenantId;
    const call = { tenantId, ...(options.signal ? { signal: options.signal } : {}) };
    const listed = await this.client.listCarrierAccounts(call);
    const accounts = await Promise.all(
      listed.map(async (a) => {
        const conn = a.carrierAccountConnection;
        const status = conn?.authorizationStatus ?? conn?.authorizationDetails?.status;
        if (status && (status !== 'PENDING' || conn?.authorizationDetails?.oauth_url)) return a;
        return this.client.getCarrierAccount(a.id, call);
      }),
    );
    this.replace(tenantId, accounts, this.now().toISOString());
    return this.cached(tenantId);
  }

  /**
   * How the last refresh saw this account when it is unusable: "inactive", or its connection's
   * status ("EXPIRED"); null when usable or never read. Rates it gave earlier are then not
   * bought or shown as they were.
   */
  lapsed(tenantId: string, carrierAccountId: string): string | null {
    const row = this.one.get({ ...this.keys(tenantId), carrier_account_id: carrierAccountId });
    if (!row || problemOf(row.authorization_status, row.is_active === 1) === null) return null;
    return row.is_active === 1 ? row.authorization_status : 'inactive';
  }

  /** What the last refresh saw, without a round trip. */
  cached(tenantId: string = this.scope.tenantId): CarrierAccountHealth[] {
    return this.select.all(this.keys(tenantId)).map((r) => {
      const problem = problemOf(r.authorization_status, r.is_active === 1);
      return {
        carrierAccountId: r.carrier_account_id,
        tenantId: r.tenant_id,
        name: r.name,
        carrier: r.carrier,
        ownershipType: r.ownership_type,
        isActive: r.is_active === 1,
        connectionId: r.connection_id,
        authorizationStatus: r.authorization_status,
        authorizationType: r.authorization_type,
        oauthUrl: r.oauth_url,
        serviceLevels: JSON.parse(r.service_levels_json) as string[],
        usable: problem === null,
        problem,
        message: problem
          ? describeProblem(
              problem,
              { name: r.name, carrier: r.carrier, id: r.carrier_account_id },
              r.authorization_status,
              r.oauth_url,
            )
          : null,
        checkedAt: r.checked_at,
      };
    });
  }
}

/**
 * Explains the `rateErrors` of a rate response for the packer: which carrier account did not
 * rate and why, with the oauth_url when the connection waits for authorization (from the
 * health cache when the rate error itself does not carry it).
 */
export function explainRateErrors(
  rateErrors: readonly RateError[],
  health: readonly CarrierAccountHealth[] = [],
): RateProblem[] {
  const byId = new Map(health.map((h) => [h.carrierAccountId, h]));
  return rateErrors.map((e) => {
    const id = e.carrierAccount?.id ?? null;
    const known = id ? byId.get(id) : undefined;
    const name = e.carrierAccount?.name ?? known?.name ?? null;
    const carrier = e.carrierAccount?.carrier ?? known?.carrier ?? null;
    const status = e.authorizationStatus ?? known?.authorizationStatus ?? null;
    const errorOauth = (e as { oauth_url?: unknown }).oauth_url;
    const oauthUrl = typeof errorOauth === 'string' ? errorOauth : (known?.oauthUrl ?? null);
    const problem =
      e.errorCode === 'CARRIER_ACCOUNT_INACTIVE'
        ? 'inactive'
        : status
          ? problemOf(status, true)
          : (known?.problem ?? null);
    const message = problem
      ? describeProblem(problem, { name, carrier, id }, status, oauthUrl)
      : `${label(name, carrier, id)} returned no rates${e.message ? `: ${e.message}` : ''}`;
    return {
      carrierAccountId: id,
      name,
      carrier,
      errorCode: e.errorCode ?? null,
      authorizationStatus: status,
      oauthUrl: problem === 'pending' ? oauthUrl : null,
      problem,
      message,
    };
  });
}

/**
 * The service levels a brand's active carrier accounts offer, as last listed; null when none of
 * its accounts is known yet (the station has not listed them: nothing can be said).
 */
export function offeredServiceLevels(
  accounts: readonly CarrierAccountHealth[],
  tenantId: string,
): ReadonlySet<string> | null {
  const mine = accounts.filter((a) => a.tenantId === tenantId && a.isActive);
  return mine.length === 0 ? null : new Set(mine.flatMap((a) => a.serviceLevels));
}
