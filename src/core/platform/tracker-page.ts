import { isObject, optionalString } from './answer-readers.js';
import type { Page, Tracker } from './schemas.js';

/**
 * The tracker list's happy path without zod: a poll of 10,000 trackers spent more time in
 * the schema (TrackerSchema, a loose object per tracker and per event) than in SQLite, and
 * most of it compiling on the first pages. This reads exactly what `pageOf('trackers',
 * TrackerSchema)` accepts and returns what it would (items as they came, unknown keys kept);
 * for anything else it returns undefined and the schema decides (and names the problem).
 */
export function readTrackerPage(body: unknown): Page<Tracker> | undefined {
  if (Array.isArray(body))
    return allTrackers(body)
      ? { items: body as Tracker[], nextCursor: null, hasMore: false }
      : undefined;
  if (body === null || typeof body !== 'object') return undefined;
  const o = body as Record<string, unknown>;
  for (const key of ['trackers', 'items', 'data'] as const) {
    const list = o[key];
    if (list !== undefined && !(Array.isArray(list) && allTrackers(list))) return undefined;
  }
  const items = o.trackers ?? o.items ?? o.data;
  if (!Array.isArray(items)) return undefined;
  const cursor = o.nextCursor;
  if (cursor != null && typeof cursor !== 'string' && typeof cursor !== 'number') return undefined;
  if (o.hasMore != null && typeof o.hasMore !== 'boolean') return undefined;
  const nextCursor = cursor == null ? null : String(cursor);
  const hasMore = typeof o.hasMore === 'boolean' ? o.hasMore : nextCursor !== null;
  return { items: items as Tracker[], nextCursor, hasMore };
}

const OPTIONAL_STRINGS = [
  'id',
  'carrier',
  'serviceLevel',
  'tenantId',
  'labelId',
  'orderReference',
  'status',
  'statusDetail',
  'estimatedDeliveryDate',
  'createdAt',
] as const;
const EVENT_STRINGS = ['status', 'description', 'location', 'occurredAt'] as const;

function allTrackers(list: unknown[]): boolean {
  for (const t of list) if (!isTracker(t)) return false;
  return true;
}

function isTracker(t: unknown): boolean {
  if (!isObject(t)) return false;
  if (typeof t.trackingNumber !== 'string' || t.trackingNumber.length === 0) return false;
  if (typeof t.updatedAt !== 'string' || Number.isNaN(Date.parse(t.updatedAt))) return false;
  for (const key of OPTIONAL_STRINGS) if (!optionalString(t[key])) return false;
  const events = t.events;
  if (events === undefined || events === null) return true;
  if (!Array.isArray(events)) return false;
  for (const e of events) {
    if (!isObject(e)) return false;
    for (const key of EVENT_STRINGS) if (!optionalString(e[key])) return false;
  }
  return true;
}
