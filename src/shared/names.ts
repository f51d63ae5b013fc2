/**
 * The names of the contract's calls and events, with no schema library attached, so the
 * sandboxed Electron preload can iterate over them without bundling zod. contract.ts proves
 * at compile time that these lists match its declarations exactly.
 */
export const callNames = [
  'station.status',
  'profiles.list',
  'profiles.tenants',
  'profiles.sites',
  'profiles.create',
  'profiles.update',
  'profiles.setSecret',
  'profiles.activate',
  'profiles.chooseHotFolder',
  'profiles.export',
  'profiles.provision',
  'orders.import',
  'orders.list',
  'pack.scan',
  'pack.rate',
  'pack.buy',
  'pack.readScale',
  'devices.discoverScales',
  'attention.list',
  'attention.resolve',
  'queue.list',
  'queue.retry',
  'queue.cancel',
  'queue.move',
  'labels.search',
  'labels.get',
  'labels.reprint',
  'labels.audit',
  'tracking.board',
  'carriers.list',
  'printers.discover',
  'printers.add',
  'printers.remove',
  'printers.testPrint',
  'printers.status',
  'settings.get',
  'settings.update',
  'site.status',
  'site.configure',
  'site.labels',
  'site.reprint',
  'site.attention',
  'site.resolveAttention',
  'orders.page',
  'verify.scan',
  'verify.override',
  'verify.reset',
  'batch.start',
  'batch.control',
  'batch.list',
  'endOfDay.summary',
  'endOfDay.print',
  'endOfDay.csv',
] as const;

export type CallName = (typeof callNames)[number];

export const eventNames = [
  'status',
  'print-job',
  'orders-changed',
  'queue-changed',
  'attention-changed',
  'tracking-changed',
  'carriers-changed',
  'import-progress',
  'site-changed',
  'batch-progress',
] as const;

export type EventName = (typeof eventNames)[number];

/** The one IPC channel for calls and the one for events (Electron host). */
export const CALL_CHANNEL = 'station:call';
export const EVENT_CHANNEL = 'station:event';

export function isCallName(value: unknown): value is CallName {
  return typeof value === 'string' && (callNames as readonly string[]).includes(value);
}
