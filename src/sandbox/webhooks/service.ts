import { createHmac } from 'node:crypto';
import { type SandboxClock, type ScheduledHandle } from '../clock.js';
import { type SandboxState, newId } from '../state.js';
import { type Tracker } from '../trackers.js';
import { type WorldOptions } from '../world.js';
import { WebhookPoster } from './http.js';

/** Retries after the first attempt, in seconds of sandbox time: 5 attempts in total. */
export const RETRY_DELAYS_S = [30, 60, 120, 240] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_S.length + 1;
export const DISABLE_AFTER_FAILED_EVENTS = 10;
export const SUBSCRIPTION_LIFETIME_DAYS = 120;

export type SubscriptionStatus = 'ACTIVE' | 'DISABLED' | 'EXPIRED';

export interface Subscription {
  id: string;
  tenantId: string;
  uri: string;
  email: string;
  registeredEvents: string[];
  secret: string | null;
  credentials: { username: string; password: string } | null;
  customHeader: { key: string; value: string } | null;
  status: SubscriptionStatus;
  consecutiveFailedEvents: number;
  createdAt: string;
  updatedAt: string;
  expirationDate: string;
  expiry: ScheduledHandle;
}

export type NewSubscription = Pick<
  Subscription,
  'tenantId' | 'uri' | 'email' | 'registeredEvents' | 'secret' | 'credentials' | 'customHeader'
>;

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED' | 'ABANDONED';

export interface EventEnvelope {
  id: string;
  eventType: 'tracking.updated';
  tenantId: string;
  payloadType: 'TrackerV1';
  createdDate: string;
  payload: Tracker;
}

export interface EventRecord {
  envelope: EventEnvelope;
  body: string;
  webhookId: string;
  subscriberTenantId: string;
  deliveryStatus: DeliveryStatus;
  attempts: number;
}

export interface DeliveryAttempt {
  id: string;
  webhookId: string;
  eventId: string;
  attempt: number;
  uri: string;
  attemptedAt: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  outcome: 'delivered' | 'failed';
}

export interface OutboxEmail {
  id: string;
  to: string;
  subject: string;
  body: string;
  webhookId: string;
  sentAt: string;
}

function failureText(statusCode: number | null, error: string | null): string {
  if (error) return error;
  if (statusCode !== null && statusCode >= 300 && statusCode < 400)
    return `redirect ${statusCode} not followed`;
  return `answered ${statusCode}`;
}

/** Subscriptions, tracking.updated events, their deliveries with retries, and the outbox. */
export class WebhookService {
  readonly subscriptions = new Map<string, Subscription>();
  readonly events: EventRecord[] = [];
  private readonly attemptsLog: DeliveryAttempt[] = [];
  private readonly emails: OutboxEmail[] = [];
  private readonly poster: WebhookPoster;

  constructor(
    private readonly state: SandboxState,
    private readonly clock: SandboxClock,
    readonly options: WorldOptions,
  ) {
    this.poster = new WebhookPoster({ allowLoopback: options.allowHttpWebhooks });
  }

  add(input: NewSubscription): Subscription {
    const now = this.clock.nowMs();
    const iso = new Date(now).toISOString();
    const expiresAt = now + SUBSCRIPTION_LIFETIME_DAYS * 86_400_000;
    const sub: Subscription = {
      ...input,
      id: newId('wh'),
      status: 'ACTIVE',
      consecutiveFailedEvents: 0,
      createdAt: iso,
      updatedAt: iso,
      expirationDate: new Date(expiresAt).toISOString(),
      expiry: { cancel: () => undefined },
    };
    // Expiry stops events without an e-mail (spec part 3).
    sub.expiry = this.clock.schedule(expiresAt, `webhook ${sub.id} expiry`, () => {
      if (!this.subscriptions.has(sub.id)) return;
      sub.status = 'EXPIRED';
      sub.updatedAt = this.clock.iso();
    });
    this.subscriptions.set(sub.id, sub);
    return sub;
  }

  remove(sub: Subscription): void {
    sub.expiry.cancel();
    this.subscriptions.delete(sub.id);
  }

  /** A tracker changed: one event per active subscription of its tenant or an ancestor. */
  trackingUpdated(tracker: Tracker): void {
    if (this.subscriptions.size === 0) return;
    const lineage = new Set(this.state.lineage(tracker.tenantId));
    for (const sub of this.subscriptions.values()) {
      if (!lineage.has(sub.tenantId) || sub.status !== 'ACTIVE') continue;
      if (!sub.registeredEvents.includes('tracking.updated')) continue;
      const envelope: EventEnvelope = {
        id: newId('evt'),
        eventType: 'tracking.updated',
        tenantId: tracker.tenantId,
        payloadType: 'TrackerV1',
        // The change's own timestamp, so createdDate and payload.updatedAt agree.
        createdDate: tracker.updatedAt,
        payload: structuredClone(tracker),
      };
      const record: EventRecord = {
        envelope,
        body: JSON.stringify(envelope),
        webhookId: sub.id,
        subscriberTenantId: sub.tenantId,
        deliveryStatus: 'PENDING',
        attempts: 0,
      };
      this.events.push(record);
      this.clock.schedule(this.clock.nowMs(), `deliver ${envelope.id}`, () => this.attempt(record));
    }
  }

  private headersFor(sub: Subscription, record: EventRecord): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'shipping-platform-sandbox-webhooks/1',
      'x-service-event-id': record.envelope.id,
    };
    if (sub.customHeader) headers[sub.customHeader.key.toLowerCase()] = sub.customHeader.value;
    if (sub.secret) {
      headers['x-hmac-sha256'] = createHmac('sha256', sub.secret)
        .update(record.body)
        .digest('base64');
    }
    if (sub.credentials) {
      const { username, password } = sub.credentials;
      headers.authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    }
    return headers;
  }

  /**
   * One delivery attempt. The POST runs in the background (clock.track), so attempts close
   * together in sandbox time overlap in real time; its outcome is stamped with, and its retry
   * scheduled from, the sandbox moment the attempt started.
   */
  private attempt(record: EventRecord): void {
    const sub = this.subscriptions.get(record.webhookId);
    if (!sub || sub.status !== 'ACTIVE') {
      record.deliveryStatus = 'ABANDONED';
      return;
    }
    record.attempts++;
    const attemptedAtMs = this.clock.nowMs();
    const work = this.poster
      .post(sub.uri, record.body, this.headersFor(sub, record))
      .then((result) => this.settle(record, sub, attemptedAtMs, result));
    // Nothing can follow from this attempt before its first possible retry.
    this.clock.track(attemptedAtMs + RETRY_DELAYS_S[0] * 1000, work);
  }

  private settle(
    record: EventRecord,
    sub: Subscription,
    attemptedAtMs: number,
    result: { statusCode: number | null; error: string | null; durationMs: number },
  ): void {
    const attemptedAt = new Date(attemptedAtMs).toISOString();
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    this.attemptsLog.push({
      id: newId('dlv'),
      webhookId: sub.id,
      eventId: record.envelope.id,
      attempt: record.attempts,
      uri: sub.uri,
      attemptedAt,
      statusCode: result.statusCode,
      error: ok ? null : failureText(result.statusCode, result.error),
      durationMs: result.durationMs,
      outcome: ok ? 'delivered' : 'failed',
    });
    if (ok) {
      record.deliveryStatus = 'DELIVERED';
      sub.consecutiveFailedEvents = 0;
      return;
    }
    if (record.attempts < MAX_ATTEMPTS) {
      const delay = RETRY_DELAYS_S[record.attempts - 1]!;
      this.clock.schedule(attemptedAtMs + delay * 1000, `retry ${record.envelope.id}`, () =>
        this.attempt(record),
      );
      return;
    }
    record.deliveryStatus = 'FAILED';
    sub.consecutiveFailedEvents++;
    if (sub.consecutiveFailedEvents >= DISABLE_AFTER_FAILED_EVENTS && sub.status === 'ACTIVE') {
      sub.status = 'DISABLED';
      sub.updatedAt = attemptedAt;
      this.emails.push({
        id: newId('mail'),
        to: sub.email,
        subject: `Webhook subscription ${sub.id} was disabled`,
        body:
          `Your webhook subscription ${sub.id} for ${sub.uri} was disabled after ` +
          `${DISABLE_AFTER_FAILED_EVENTS} events in a row failed every delivery attempt. ` +
          `Fix the endpoint, then re-enable it with PATCH /api/v1/webhooks/${sub.id} {"isActive": true}.`,
        webhookId: sub.id,
        sentAt: attemptedAt,
      });
    }
  }

  deliveries(): DeliveryAttempt[] {
    return this.attemptsLog.map((d) => ({ ...d }));
  }

  outbox(): OutboxEmail[] {
    return this.emails.map((e) => ({ ...e }));
  }

  close(): void {
    this.poster.close();
  }
}
