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

/**
 * The plan a tracker follows. Every 10th tracker of a sandbox (the 7th, 17th, 27th…) takes an
 * EXCEPTION the day after pickup; of those, every other one (17th, 37th…) is RETURNED, the rest
 * are delivered a day late.
 */
export function planFor(seq: number, transitDays: number): Step[] {
  const d = Math.max(1, transitDays) * 24;
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
  if (seq % 20 === 17) {
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
      afterHours: d + 24,
      status: 'OUT_FOR_DELIVERY',
      description: 'Out for delivery',
      where: 'destination',
    },
    {
      afterHours: d + 30,
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
    for (const listener of this.listeners) listener(tracker);
  }

  /** Trackers of the given tenants, ordered by (updatedAt, id), after an exclusive cursor. */
  list(query: {
    tenantIds: Set<string>;
    updatedSince?: string | undefined;
    trackingNumber?: string | undefined;
    after?: { updatedAt: string; id: string } | undefined;
    limit: number;
  }): { trackers: Tracker[]; hasMore: boolean } {
    const since = query.updatedSince;
    const after = query.after;
    const matches: Tracker[] = [];
    const source = query.trackingNumber
      ? [this.byNumber.get(query.trackingNumber)].filter((t): t is Tracker => Boolean(t))
      : this.byId.values();
    for (const t of source) {
      if (!query.tenantIds.has(t.tenantId)) continue;
      if (since !== undefined && !(t.updatedAt > since)) continue;
      if (
        after &&
        (t.updatedAt < after.updatedAt || (t.updatedAt === after.updatedAt && t.id <= after.id))
      )
        continue;
      matches.push(t);
    }
    matches.sort((a, b) =>
      a.updatedAt < b.updatedAt
        ? -1
        : a.updatedAt > b.updatedAt
          ? 1
          : a.id < b.id
            ? -1
            : a.id > b.id
              ? 1
              : 0,
    );
    return { trackers: matches.slice(0, query.limit), hasMore: matches.length > query.limit };
  }
}
