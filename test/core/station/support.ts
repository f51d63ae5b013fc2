import { join } from 'node:path';
import { afterEach } from 'vitest';
import {
  createStation,
  type Station,
  type StationOptions,
} from '../../../src/core/station/index.js';
import { MemorySecretVault } from '../../../src/core/profiles/secret-vault.js';
import { ConfSettingsStore } from '../../../src/core/profiles/settings-store.js';
import { startSandbox, type SandboxOptions } from '../../../src/sandbox/index.js';
import type { CallName, Input, Output } from '../../../src/shared/contract.js';
import type { Result } from '../../../src/shared/result.js';
import { tempDir } from '../../support/tmp.js';
import { badgeDigest, hashPin } from '../../../src/core/users/pin.js';

const root = join(import.meta.dirname, '../../..');
export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/**
 * A station on the demo profile; `sandbox()` is the embedded sandbox it started last (started
 * with `sandboxOptions`, e.g. a clock of its own).
 */
export function demoStation(
  dataDir: string,
  extra: Partial<StationOptions> = {},
  sandboxOptions: SandboxOptions = {},
): { station: Station; sandbox: () => Sandbox } {
  let last: Sandbox | null = null;
  const station = createStation({
    dataDir,
    host: 'web',
    ...extra,
    settings: new ConfSettingsStore(join(dataDir, 'settings.json')),
    vault: new MemorySecretVault(),
    resourcesDir: join(root, 'resources'),
    startSandbox: async () => {
      const s = await startSandbox(sandboxOptions);
      last = s;
      const c = s.fixtures.apiClients.find((x) => x.clientId === 'demo-lumen-full')!;
      return {
        baseUrl: s.url,
        clientId: c.clientId,
        clientSecret: c.clientSecret,
        tenantId: c.tenantId,
        close: () => s.close(),
      };
    },
    ...extra,
  });
  return {
    station,
    sandbox: () => {
      if (!last) throw new Error('the station has not started its sandbox');
      return last;
    },
  };
}

export function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** A call through the facade's dispatch, typed by the contract; throws on an error reply. */
export async function call<K extends CallName>(
  s: Station,
  name: K,
  input: Input<K>,
): Promise<Output<K>> {
  return value(await s.dispatch(name, input)) as Output<K>;
}

export interface StartedDemoStation {
  s: Station;
  /** The embedded sandbox the station started last. */
  sandbox: () => Sandbox;
  dataDir: string;
}

/**
 * Call once at the top of a test file: `start()` gives a started demo station in a fresh data
 * directory; after each test its stations stop, then whatever `onEnd` was handed (printers…).
 */
export function demoStationsPerTest(): {
  start(
    extra?: Partial<StationOptions>,
    sandboxOptions?: SandboxOptions,
  ): Promise<StartedDemoStation>;
  onEnd(close: () => Promise<void>): void;
} {
  const stations: Station[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const s of stations.splice(0)) await s.stop();
    for (const c of closers.splice(0)) await c();
  });
  return {
    async start(extra = {}, sandboxOptions = {}) {
      const dataDir = tempDir();
      const made = demoStation(dataDir, extra, sandboxOptions);
      stations.push(made.station);
      await made.station.start();
      return { s: made.station, sandbox: made.sandbox, dataDir };
    },
    onEnd: (close) => void closers.push(close),
  };
}

/** Polls until `check` gives something truthy and returns it; the test's timeout is the only bound. */
export async function until<T>(check: () => T | Promise<T>): Promise<NonNullable<T>> {
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The demo brand's FedEx connection is PENDING; a rule that excludes UPS and USPS refuses every
 * rate the platform offers.
 */
export async function refuseEveryRate(s: Station) {
  // A rule that leaves only the demo's PENDING FedEx. Settings refuses to save it (it says
  // why), so it is written as a provisioning file written elsewhere could have it.
  const demo = s.context.profiles.get('demo')!;
  await s.context.saveProfile({
    ...demo,
    rateRule: { ...demo.rateRule, excludedCarriers: ['UPS', 'USPS'] },
  });
}

/** Scans an order number as a scanner would; throws unless it is an order. */
export async function scanOrder(s: Station, number: string) {
  const scan = await call(s, 'pack.scan', { value: number });
  if (scan.kind !== 'order') throw new Error(`${number} is not an order: ${scan.kind}`);
  return scan;
}

/** The station's id of an order, found by scanning its number. */
export const orderIdOf = async (s: Station, number: string): Promise<string> =>
  (await scanOrder(s, number)).order.id;

/**
 * Rates an order at its file's weights (2 lb where it has none), plus `addLbs` (weighed
 * otherwise: a rating of its own, not pre-rated rates taken over); the reply as it comes.
 */
export async function rateOrder(s: Station, number: string, addLbs = 0) {
  const scan = await scanOrder(s, number);
  return s.dispatch('pack.rate', {
    orderId: scan.order.id,
    packages: scan.order.packages.map((p) => ({
      weightLbs: (p.weightLbs ?? 2) + addLbs,
      boxId: null,
    })),
  });
}

/** Scan, rate at the order file's weights, buy at the rule's choice. */
export async function packOrder(s: Station, number: string) {
  const scan = await scanOrder(s, number);
  const quote = await call(s, 'pack.rate', {
    orderId: scan.order.id,
    packages: scan.order.packages.map((p) => ({ weightLbs: p.weightLbs ?? 2, boxId: null })),
  });
  return call(s, 'pack.buy', { shipmentId: quote.shipmentId });
}

/**
 * Until every print job has printed (the Queue shows none): a reprint of a label whose job
 * still waits is refused (it would print twice), so a test reprints once the label is out.
 */
export async function allPrinted(s: Station): Promise<void> {
  await until(async () => (await call(s, 'queue.list', {})).printJobs.length === 0);
}

/**
 * Makes a network printer at 127.0.0.1:`port` the profile's only label printer (the demo's
 * virtual one is taken away); returns its id.
 */
export async function onlyLabelPrinter(s: Station, name: string, port: number): Promise<string> {
  const before = await call(s, 'station.status', {});
  const virtual = before.profile!.printers.find((p) => p.role === 'label')!;
  await call(s, 'printers.remove', { printerId: virtual.id });
  const view = await call(s, 'printers.add', {
    name,
    host: '127.0.0.1',
    port,
    dpi: 203,
    role: 'label',
  });
  return view.printers.find((p) => p.name === name)!.id;
}

/** Ana (a packer, PIN 4821, badge BADGE-0017) and Bo (a lead, PIN 7305, badge BADGE-0042). */
export async function addPackerAndLead(s: Station): Promise<void> {
  s.context.users.upsert({
    userId: 'ana',
    name: 'Ana Ruiz',
    role: 'packer',
    badgeSha256: badgeDigest('BADGE-0017'),
    pinHash: await hashPin('4821'),
    active: true,
  });
  s.context.users.upsert({
    userId: 'bo',
    name: 'Bo Lindqvist',
    role: 'lead',
    badgeSha256: badgeDigest('BADGE-0042'),
    pinHash: await hashPin('7305'),
    active: true,
  });
}

/** Scan and rate an order (confirming another label when it has one); the shipment id. */
export async function ratedShipment(
  s: Station,
  number: string,
  confirmAnother = false,
): Promise<string> {
  const scan = await scanOrder(s, number);
  const quote = await call(s, 'pack.rate', {
    orderId: scan.order.id,
    packages: scan.order.packages.map((p) => ({ weightLbs: p.weightLbs ?? 2, boxId: null })),
    confirmAnother,
  });
  return quote.shipmentId;
}

/** How many labels the platform sold for an order (its ledger's entries that name it). */
export const labelsFor = (sandbox: () => Sandbox, order: string): number =>
  sandbox()
    .ledger()
    .filter((l) => JSON.stringify(l).includes(order)).length;

/**
 * The platform sells the next label and the connection drops before its answer: the purchase's
 * outcome is unknown to the station (one time only).
 */
export const loseNextLabelAnswer = (sandbox: Sandbox) =>
  sandbox.faults.add({
    method: 'POST',
    path: '/api/v1/labels',
    kind: 'reset',
    after: true,
    times: 1,
  });

/**
 * Scans and rates an order at `weightLbs` and buys it while the platform's answer is lost: a
 * purchase of unknown outcome (a label was sold). Throws when the reply says anything else.
 */
export async function buyWithLostAnswer(
  s: Station,
  sandbox: Sandbox,
  number: string,
  weightLbs = 2,
): Promise<void> {
  const scan = await scanOrder(s, number);
  const quote = await call(s, 'pack.rate', {
    orderId: scan.order.id,
    packages: [{ weightLbs, boxId: null }],
  });
  loseNextLabelAnswer(sandbox);
  const lost = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
  if (lost.ok || lost.error.code !== 'purchase-outcome-unknown')
    throw new Error(`${number}: not an unknown purchase: ${JSON.stringify(lost)}`);
}

/** Until the header says the platform answers (online). */
export const online = (s: Station) =>
  until(async () => (await call(s, 'station.status', {})).connectivity === 'online');

/**
 * The packer weighs the order (not the file's weight, which the station may have pre-rated)
 * and presses Ctrl+Enter before rates came: pack.rate, with `queue` as Ctrl+Enter asks.
 */
export async function weighAndRate(s: Station, orderNumber: string, queue = false) {
  const scan = await scanOrder(s, orderNumber);
  return call(s, 'pack.rate', {
    orderId: scan.order.id,
    packages: scan.order.packages.map((p) => ({
      weightLbs: (p.weightLbs ?? 2) + 0.3,
      boxId: null,
    })),
    queue,
  });
}

/** An order's entry in the Queue's shipments, if it has one. */
export const queued = async (s: Station, orderNumber: string) =>
  (await call(s, 'queue.list', {})).shipments.find((q) => q.orderNumber === orderNumber);

/** The labels the platform sold for an order (its purchase references start with its number). */
export const labelsOf = (sandbox: Sandbox, orderNumber: string) =>
  sandbox.ledger().filter((e) => e.orderReference?.startsWith(orderNumber));

/**
 * New profile's form for the demo sandbox's 3PL, Harbor Fulfillment at its Edison DC, with
 * `brands` ticked; `extra` changes the rest (another name, not made active…).
 */
export function harborProfile(
  sandboxUrl: string,
  brands: string[] = [],
  extra: Partial<Input<'profiles.create'>> = {},
): Input<'profiles.create'> {
  return {
    environment: 'sandbox',
    baseUrl: sandboxUrl,
    clientId: 'demo-harbor-full',
    clientSecret: 'demo-harbor-full-secret',
    name: 'Harbor Edison',
    tenantId: 'tnt_harbor',
    shippingSiteId: 'site_harbor_edison',
    brandTenantIds: brands,
    ...extra,
  } as Input<'profiles.create'>;
}

/** A 3PL's profile (Harbor Fulfillment) that packs for two brands, Driftwood and Pinecrest. */
export async function threePl(s: Station, sandboxUrl: string): Promise<void> {
  await call(s, 'profiles.create', harborProfile(sandboxUrl, ['tnt_driftwood', 'tnt_pinecrest']));
}
