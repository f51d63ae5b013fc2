import { z } from 'zod';
import { PlatformCaller } from './caller.js';
import { PlatformError } from './errors.js';
import {
  CarrierAccountSchema,
  LabelSchema,
  pageOf,
  RatesResponseSchema,
  ShippingSiteSchema,
  TenantSchema,
  TrackerSchema,
  WebhookEventSchema,
  WebhookSchema,
  type CarrierAccount,
  type Label,
  type Page,
  type RatesResponse,
  type ShippingSite,
  type Tenant,
  type Tracker,
  type Webhook,
  type WebhookEvent,
  ManifestSchema,
  type Manifest,
} from './schemas.js';
import { tenantTree } from './tenant-tree.js';
import { readTrackerPage } from './tracker-page.js';
import { readLabel, readRates } from './answer-readers.js';
import { type Endpoint } from './transport.js';
import {
  type CallOptions,
  type CarrierAccountInput,
  type CarrierAccountUpdate,
  type LabelRequest,
  type RateRequest,
  type ShippingSiteInput,
  type TrackerQuery,
  type WebhookEventQuery,
  type WebhookInput,
  type WebhookUpdate,
} from './types.js';

const list = <T extends z.ZodType>(key: string, item: T) =>
  pageOf(key, item).transform((p) => p.items);
const TenantList = list('tenants', TenantSchema);
const SiteList = list('shippingSites', ShippingSiteSchema);
const AccountList = list('carrierAccounts', CarrierAccountSchema);
const WebhookList = list('webhooks', WebhookSchema);
const TrackerPage = pageOf('trackers', TrackerSchema);
const EventPage = pageOf('webhookEvents', WebhookEventSchema);
const seg = encodeURIComponent;

/**
 * A typed method for every endpoint of the Shipping Platform API, bound to one profile:
 * one base URL (so one environment), one API client, one tenant. Every method takes
 * CallOptions: `tenantId` acts for a brand below the profile's tenant, `signal` cancels.
 * Methods throw PlatformError (see errors.ts) and nothing else, except an AbortError when
 * the caller cancels a request that is safe to cancel. How a call is made (token, transport,
 * observers, retries where safe) is PlatformCaller's, in caller.ts.
 */
export class PlatformClient extends PlatformCaller {
  // Tenants

  /** The tenant tree visible to the caller (a 3PL sees its brands as children). */
  listTenants(opts?: CallOptions): Promise<Tenant[]> {
    return this.get('listTenants', 'the tenant list', 'api/v1/tenants', TenantList, opts).then(
      tenantTree,
    );
  }

  getTenant(tenantId: string, opts?: CallOptions): Promise<Tenant> {
    const path = `api/v1/tenants/${seg(tenantId)}`;
    return this.get('getTenant', `tenant ${tenantId}`, path, TenantSchema, opts);
  }

  // Shipping sites

  createShippingSite(input: ShippingSiteInput, opts?: CallOptions): Promise<ShippingSite> {
    const path = 'api/v1/shippingSites';
    return this.change(
      'POST',
      'createShippingSite',
      'the new shipping site',
      path,
      input,
      ShippingSiteSchema,
      opts,
    );
  }

  listShippingSites(opts?: CallOptions): Promise<ShippingSite[]> {
    const path = 'api/v1/shippingSites';
    return this.get('listShippingSites', 'the shipping site list', path, SiteList, opts);
  }

  // Manifests

  /**
   * Closes out labels for the carrier: `POST /api/v1/manifests`, which the spec names (a manifest
   * needs a shippingSiteId) without showing. Sent once; a platform without it answers 404.
   */
  createManifest(
    input: { shippingSiteId: string; carrier?: string; labelIds?: string[] },
    opts?: CallOptions,
  ): Promise<Manifest> {
    const path = 'api/v1/manifests';
    return this.change('POST', 'createManifest', 'the manifest', path, input, ManifestSchema, opts);
  }

  // Rates and labels

  /** Rating changes nothing on the platform, so it is retried like a read. */
  getRates(request: RateRequest, opts?: CallOptions): Promise<RatesResponse> {
    return this.call(
      {
        operation: 'getRates',
        what: 'the rate request',
        method: 'POST',
        path: 'api/v1/rates',
        body: request,
        schema: RatesResponseSchema,
        read: readRates,
        idempotent: true,
      },
      opts,
    );
  }

  /**
   * Buys a label. Sent exactly once: never retried. A timeout, reset, cancellation, 5xx or
   * unreadable 2xx throws kind `unknown-outcome` (the label may exist); a 4xx means nothing
   * was bought; a connection refused before sending throws `network` (nothing was sent).
   */
  purchaseLabel(request: LabelRequest, opts?: CallOptions): Promise<Label> {
    return this.call(
      {
        operation: 'purchaseLabel',
        what: 'the label',
        method: 'POST',
        path: 'api/v1/labels',
        body: request,
        schema: LabelSchema,
        read: readLabel,
        idempotent: false,
        purchase: true,
      },
      opts,
    );
  }

  /**
   * Asks the purchase route whether it answers, while purchases fail, without buying anything:
   * a `POST /api/v1/labels` with an empty body, which names no shipment, service or carrier
   * account and so can only be refused (a 4xx: the route answers; a 5xx, reset or timeout: it
   * still fails). Resolves either way; the connectivity hears the outcome as it hears every
   * request's. Never sent while purchases go through.
   */
  async probeLabelRoute(opts?: CallOptions): Promise<void> {
    await this.call(
      {
        operation: 'probeLabelRoute',
        what: 'the purchase route',
        method: 'POST',
        path: 'api/v1/labels',
        body: {},
        schema: z.unknown(),
        idempotent: false,
      },
      opts,
    ).catch(() => undefined);
  }

  /**
   * The ZPL of a label, by id or by the label's `labelUrl`. A URL must be on this profile's
   * platform: the station never sends its token to another host or environment.
   */
  getLabelZpl(labelIdOrUrl: string, opts?: CallOptions): Promise<string> {
    let path = `api/v1/labels/${seg(labelIdOrUrl)}/zpl`;
    if (/^https?:\/\//i.test(labelIdOrUrl)) {
      const url = new URL(labelIdOrUrl);
      if (url.origin !== this.origin) {
        return Promise.reject(
          new PlatformError({
            kind: 'validation',
            message: `The label's address ${url.origin} is not this profile's platform (${this.origin}); the station does not send its credentials there`,
            operation: 'getLabelZpl',
            method: 'GET',
            path: url.pathname,
            tenantId: opts?.tenantId ?? this.tenantId,
          }),
        );
      }
      // Absolute path: resolves against the origin, keeping any prefix the base URL has.
      path = `${url.pathname}${url.search}`;
    }
    const ep: Endpoint<string> = {
      operation: 'getLabelZpl',
      what: 'the label ZPL',
      method: 'GET',
      path,
      text: true,
      idempotent: true,
    };
    return this.call(ep, opts);
  }

  // Carrier accounts

  listCarrierAccounts(opts?: CallOptions): Promise<CarrierAccount[]> {
    const what = 'the carrier account list';
    return this.get('listCarrierAccounts', what, 'api/v1/carrierAccounts', AccountList, opts);
  }

  getCarrierAccount(id: string, opts?: CallOptions): Promise<CarrierAccount> {
    const path = `api/v1/carrierAccounts/${seg(id)}`;
    return this.get('getCarrierAccount', `carrier account ${id}`, path, CarrierAccountSchema, opts);
  }

  createCarrierAccount(input: CarrierAccountInput, opts?: CallOptions): Promise<CarrierAccount> {
    const [path, what] = ['api/v1/carrierAccounts', 'the new carrier account'];
    return this.change(
      'POST',
      'createCarrierAccount',
      what,
      path,
      input,
      CarrierAccountSchema,
      opts,
    );
  }

  updateCarrierAccount(
    id: string,
    input: CarrierAccountUpdate,
    opts?: CallOptions,
  ): Promise<CarrierAccount> {
    const [path, what] = [`api/v1/carrierAccounts/${seg(id)}`, `carrier account ${id}`];
    return this.change(
      'PUT',
      'updateCarrierAccount',
      what,
      path,
      input,
      CarrierAccountSchema,
      opts,
    );
  }

  deleteCarrierAccount(id: string, opts?: CallOptions): Promise<void> {
    const [path, what] = [`api/v1/carrierAccounts/${seg(id)}`, `carrier account ${id}`];
    return this.change('DELETE', 'deleteCarrierAccount', what, path, undefined, undefined, opts);
  }

  // Webhooks (kept for completeness: the station itself polls trackers)

  listWebhooks(opts?: CallOptions): Promise<Webhook[]> {
    return this.get('listWebhooks', 'the webhook list', 'api/v1/webhooks', WebhookList, opts);
  }

  getWebhook(webhookId: string, opts?: CallOptions): Promise<Webhook> {
    const path = `api/v1/webhooks/${seg(webhookId)}`;
    return this.get('getWebhook', `webhook ${webhookId}`, path, WebhookSchema, opts);
  }

  createWebhook(input: WebhookInput, opts?: CallOptions): Promise<Webhook> {
    const [path, what] = ['api/v1/webhooks', 'the new webhook subscription'];
    return this.change('POST', 'createWebhook', what, path, input, WebhookSchema, opts);
  }

  updateWebhook(webhookId: string, input: WebhookUpdate, opts?: CallOptions): Promise<Webhook> {
    const [path, what] = [`api/v1/webhooks/${seg(webhookId)}`, `webhook ${webhookId}`];
    return this.change('PATCH', 'updateWebhook', what, path, input, WebhookSchema, opts);
  }

  deleteWebhook(webhookId: string, opts?: CallOptions): Promise<void> {
    const [path, what] = [`api/v1/webhooks/${seg(webhookId)}`, `webhook ${webhookId}`];
    return this.change('DELETE', 'deleteWebhook', what, path, undefined, undefined, opts);
  }

  /**
   * Whether this API key may change anything, without changing anything. The spec's one word on
   * keys' access: "A key must have full access to manage webhooks; read-only keys cannot." So a
   * webhook subscription no platform can take (an empty one: no uri, no events, no secret) is
   * asked for, without x-tenant-id (the webhook requests need only the token, so a 403 here is
   * about the key, not the tenant): a read-only key is refused for what it is (403), a key with
   * full access for the empty body (400 or 422). `unknown` when the answer tells neither (the
   * platform not reached, the key refused outright, another status). Should a platform ever
   * accept the empty subscription, it is deleted at once.
   */
  async keyAccess(opts?: CallOptions): Promise<'full' | 'read-only' | 'unknown'> {
    const ep = {
      operation: 'keyAccess',
      what: "the check of the API key's access",
      method: 'POST',
      path: 'api/v1/webhooks',
      body: {},
      schema: WebhookSchema,
      idempotent: false,
      tokenTenant: true,
    } as const;
    try {
      const made = await this.call(ep, opts);
      await this.deleteWebhook(made.id, opts).catch(() => {});
      return 'full';
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      if (error.status === 403) return 'read-only';
      if (error.status === 400 || error.status === 422) return 'full';
      return 'unknown';
    }
  }

  // Trackers and webhook events

  /** One page of trackers (a server that does not page answers one page with hasMore false). */
  listTrackers(query: TrackerQuery = {}, opts?: CallOptions): Promise<Page<Tracker>> {
    const what = 'the tracker list';
    return this.call(
      {
        operation: 'listTrackers',
        what,
        method: 'GET',
        path: 'api/v1/trackers',
        schema: TrackerPage,
        read: readTrackerPage,
        idempotent: true,
        bulk: true,
        query: { ...query },
      },
      opts,
    );
  }

  listWebhookEvents(
    query: WebhookEventQuery = {},
    opts?: CallOptions,
  ): Promise<Page<WebhookEvent>> {
    const [path, what] = ['api/v1/webhookEvents', 'the webhook event list'];
    return this.get('listWebhookEvents', what, path, EventPage, opts, { ...query });
  }
}

/** The ZPL of a label that came back with `labelOptions.inline: true`, or null. */
export function inlineZpl(label: Pick<Label, 'labelData'>): string | null {
  return label.labelData ? Buffer.from(label.labelData, 'base64').toString('utf8') : null;
}
