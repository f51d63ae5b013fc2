import { type SandboxClock, type ScheduledHandle } from './clock.js';
import { type Address } from './fixtures.js';
import { newId } from './state.js';

export const TRACKING_STATUSES = [
  'PRE_TRANSIT',
  'IN_TRANSIT',
  'OUT_FOR_DELIVERY',
  'DELIVERED',
  'EXCEPTION',
  'RETURNED',
] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

export interface TrackingEvent {
  status: TrackingStatus;
  description: string;
  location: string;
  occurredAt: string;
}

export interface Tracker {
  id: string;
  trackingNumber: string;
  carrier: string;
  serviceLevel: string;
  tenantId: string;
  labelId: string;
  orderReference: string | null;
  status: TrackingStatus;
  statusDetail: string;
  estimatedDeliveryDate: string;
  events: TrackingEvent[];
  createdAt: string;
  updatedAt: string;
}

interface Step {
  afterHours: number;
  status: TrackingStatus;
  description: string;
  where: 'origin' | 'destination';
}

const HOUR = 3_600_000;

interface LogEntry {
  at: string;
  id: string;
  tracker: Tracker;
}

function compareKey(a: { at: string; id: string }, b: { at: string; id: string }): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

/**
 * The plan a tracker follows, compressed so every tracker settles within 3 simulated days: the
 * delivery day is the service's transit days capped at 2. Every 10th tracker of a sandbox (the
 * 7th, 17th, 27th…) takes an EXCEPTION the day after pickup and is still delivered by day 3,
 * except one in a hundred (the 57th, 157th…), which is RETURNED on day 3. So a label almost
 * always reaches DELIVERED, and a handful of labels shows an EXCEPTION on the way.
 */
export function planFor(seq: number, transitDays: number): Step[] {
  const d = Math.min(2, Math.max(1, transitDays)) * 24;
  const pickup: Step = {
    afterHours: 8,
    status: 'IN_TRANSIT',
    description: 'Picked up by carrier',
    where: 'origin',
  };
  if (seq % 10 !== 7) {
    return [
      pickup,
      {
        afterHours: d,
        status: 'OUT_FOR_DELIVERY',
        description: 'Out for delivery',
        where: 'destination',
      },
      {
        afterHours: d + 6,
        status: 'DELIVERED',
        description: 'Delivered, front door',
        where: 'destination',
      },
    ];
  }
  const exception: Step = {
    afterHours: 24,
    status: 'EXCEPTION',
    description: 'Delivery exception: address could not be verified',
    where: 'destination',
  };
  if (seq % 100 === 57) {
    return [
      pickup,
      exception,
      { afterHours: 72, status: 'RETURNED', description: 'Returned to sender', where: 'origin' },
    ];
  }
  return [
    pickup,
    exception,
    {
      afterHours: d + 18,
      status: 'OUT_FOR_DELIVERY',
      description: 'Out for delivery',
      where: 'destination',
    },
    {
      afterHours: d + 24,
      status: 'DELIVERED',
      description: 'Delivered, front door',
      where: 'destination',
    },
  ];
}

function place(a: Address): string {
  return [a.city, a.stateProvince, a.countryCode].filter(Boolean).join(', ') || 'Unknown';
}

export interface NewTracker {
  trackingNumber: string;
  carrier: string;
  serviceLevel: string;
  tenantId: string;
  labelId: string;
  orderReference: string | null;
  transitDays: number;
  shipFrom: Address;
  shipTo: Address;
}

/** Trackers, their progress on the sandbox clock, and the change feed webhooks listen to. */
export class TrackerStore {
  private readonly byId = new Map<string, Tracker>();
  private readonly byNumber = new Map<string, Tracker>();
  /**
   * Every (updatedAt, id) a tracker has had, kept sorted, so a page is a binary search plus a
   * short walk; entries whose tracker has moved on since are skipped.
   */
  private readonly log: LogEntry[] = [];
  private readonly plans = new Map<string, ScheduledHandle[]>();
  private seq = 0;
  private readonly listeners: ((tracker: Tracker) => void)[] = [];

  constructor(private readonly clock: SandboxClock) {}

  onChange(listener: (tracker: Tracker) => void): void {
    this.listeners.push(listener);
  }

  create(input: NewTracker): Tracker {
    const seq = ++this.seq;
    const now = this.clock.nowMs();
    const iso = new Date(now).toISOString();
    const eta = new Date(now + input.transitDays * 24 * HOUR);
    eta.setUTCHours(0, 0, 0, 0);
    const tracker: Tracker = {
      id: newId('trk'),
      trackingNumber: input.trackingNumber,
      carrier: input.carrier,
      serviceLevel: input.serviceLevel,
      tenantId: input.tenantId,
      labelId: input.labelId,
      orderReference: input.orderReference,
      status: 'PRE_TRANSIT',
      statusDetail: 'Label created, shipment information sent to carrier',
      estimatedDeliveryDate: eta.toISOString(),
      events: [
        {
          status: 'PRE_TRANSIT',
          description: 'Label created, shipment information sent to carrier',
          location: place(input.shipFrom),
          occurredAt: iso,
        },
      ],
      createdAt: iso,
      updatedAt: iso,
    };
    this.byId.set(tracker.id, tracker);
    this.byNumber.set(tracker.trackingNumber, tracker);
    this.record(tracker);
    const handles = planFor(seq, input.transitDays).map((step) =>
      this.clock.schedule(now + step.afterHours * HOUR, `tracker ${tracker.trackingNumber}`, () =>
        this.apply(
          tracker,
          step.status,
          step.description,
          place(step.where === 'origin' ? input.shipFrom : input.shipTo),
        ),
      ),
    );
    this.plans.set(tracker.id, handles);
    return tracker;
  }

  get(trackingNumber: string): Tracker | undefined {
    return this.byNumber.get(trackingNumber);
  }

  /** A status set by hand (admin route): the automatic plan stops so a test stays in control. */
  setStatus(
    tracker: Tracker,
    status: TrackingStatus,
    description?: string,
    location?: string,
  ): void {
    for (const handle of this.plans.get(tracker.id) ?? []) handle.cancel();
    this.plans.delete(tracker.id);
    this.apply(tracker, status, description ?? `Status set to ${status}`, location ?? 'Sandbox');
  }

  private apply(
    tracker: Tracker,
    status: TrackingStatus,
    description: string,
    location: string,
  ): void {
    const iso = this.clock.iso();
    tracker.status = status;
    tracker.statusDetail = description;
    tracker.events.push({ status, description, location, occurredAt: iso });
    // updatedAt is strictly increasing per tracker even when two changes share a millisecond.
    tracker.updatedAt =
      iso > tracker.updatedAt ? iso : new Date(Date.parse(tracker.updatedAt) + 1).toISOString();
    this.record(tracker);
    for (const listener of this.listeners) listener(tracker);
  }

  private record(tracker: Tracker): void {
    const entry = { at: tracker.updatedAt, id: tracker.id, tracker };
    // Changes arrive almost in order: walk back from the end to the insertion point.
    let i = this.log.length;
    while (i > 0 && compareKey(this.log[i - 1]!, entry) > 0) i--;
    this.log.splice(i, 0, entry);
  }

  /** Index of the first log entry strictly after `key`. */
  private firstAfter(key: { at: string; id: string }): number {
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKey(this.log[mid]!, key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Trackers of the given tenants, ordered by (updatedAt, id), after an exclusive cursor. */
  list(query: {
    tenantIds: Set<string>;
    updatedSince?: string | undefined;
    trackingNumber?: string | undefined;
    after?: { updatedAt: string; id: string } | undefined;
    limit: number;
  }): { trackers: Tracker[]; hasMore: boolean } {
    const { updatedSince: since, after, limit } = query;
    const visible = (t: Tracker) =>
      query.tenantIds.has(t.tenantId) &&
      (since === undefined || t.updatedAt > since) &&
      (!after ||
        compareKey({ at: t.updatedAt, id: t.id }, { at: after.updatedAt, id: after.id }) > 0);
    if (query.trackingNumber !== undefined) {
      const t = this.byNumber.get(query.trackingNumber);
      return { trackers: t && visible(t) && limit > 0 ? [t] : [], hasMore: false };
    }
    // '\uffff' sorts after every id, so "after since" skips every entry stamped at `since`.
    const sinceKey = since === undefined ? undefined : { at: since, id: '\uffff' };
    const afterKey = after ? { at: after.updatedAt, id: after.id } : undefined;
    const from =
      sinceKey && afterKey
        ? compareKey(sinceKey, afterKey) > 0
          ? sinceKey
          : afterKey
        : (sinceKey ?? afterKey);
    const out: Tracker[] = [];
    for (let i = from ? this.firstAfter(from) : 0; i < this.log.length; i++) {
      const entry = this.log[i]!;
      const t = entry.tracker;
      if (t.updatedAt !== entry.at) continue; // superseded by a later change
      if (!query.tenantIds.has(t.tenantId)) continue;
      if (out.length === limit) return { trackers: out, hasMore: true };
      out.push(t);
    }
    return { trackers: out, hasMore: false };
  }
}
