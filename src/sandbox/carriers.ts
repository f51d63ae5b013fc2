import { type CarrierAccount, type Connection, type SandboxState } from './state.js';

/** Carriers whose connections authorize through an OAuth page (start PENDING) by default. */
export const OAUTH_CARRIERS = new Set(['UPS', 'FEDEX']);

/**
 * How a new connection of `carrier` authorizes: as the fixtures' connections of that carrier do
 * (OAUTH2 when any of them does), else OAUTH2 for the OAuth carriers above, else APIKEY. A test
 * world can so bring its own OAuth carrier.
 */
export function authorizationTypeFor(state: SandboxState, carrier: string): 'OAUTH2' | 'APIKEY' {
  const known = state.carrierAuthorization.get(carrier);
  if (known) return known;
  return OAUTH_CARRIERS.has(carrier) ? 'OAUTH2' : 'APIKEY';
}
/** Carriers whose connectionDetails must carry contactInfo and billingAddress. */
export const CONTACT_CARRIERS = new Set(['FEDEX', 'DHL']);

export interface ConnectionView {
  id: string;
  name: string;
  ownershipType: string;
  carrier: string;
  authorizationStatus: string;
  authorizationDetails: { type: string; status: string; oauth_url?: string };
  createdAt: string;
  updatedAt: string;
}

export function oauthUrl(baseUrl: string, connectionId: string): string {
  return `${baseUrl}/sandbox/oauth/${encodeURIComponent(connectionId)}`;
}

export function connectionView(conn: Connection, baseUrl: string): ConnectionView {
  const details: ConnectionView['authorizationDetails'] = {
    type: conn.authorizationType,
    status: conn.authorizationStatus,
  };
  // The owner needs the link for a first authorization and to renew a lapsed one.
  if (conn.authorizationType === 'OAUTH2' && conn.authorizationStatus !== 'AUTHORIZED') {
    details.oauth_url = oauthUrl(baseUrl, conn.id);
  }
  return {
    id: conn.id,
    name: conn.name,
    ownershipType: conn.ownershipType,
    carrier: conn.carrier,
    authorizationStatus: conn.authorizationStatus,
    authorizationDetails: details,
    createdAt: conn.createdAt,
    updatedAt: conn.updatedAt,
  };
}

export function accountView(state: SandboxState, account: CarrierAccount, baseUrl: string) {
  const conn = state.connections.get(account.carrierAccountConnectionId)!;
  return {
    id: account.id,
    name: account.name,
    tenantId: account.tenantId,
    carrier: conn.carrier,
    ownershipType: conn.ownershipType,
    carrierAccountConnectionId: conn.id,
    carrierAccountConnection: connectionView(conn, baseUrl),
    serviceLevels: [...account.serviceLevels],
    isActive: account.isActive,
    locationIds: [...account.locationIds],
    allowedLocationIds: [...account.allowedLocationIds],
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
  };
}

/** Whether an account may rate and buy from a site: any, unless its allowedLocationIds name some. */
export function mayShipFrom(account: CarrierAccount, siteId: string | undefined): boolean {
  return (
    !siteId ||
    account.allowedLocationIds.length === 0 ||
    account.allowedLocationIds.includes(siteId)
  );
}
