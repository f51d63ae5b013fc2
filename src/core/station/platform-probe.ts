import type { OrderRepository } from '../orders/order-repository.js';
import { buildShipment } from '../packing/build-shipment.js';
import type { PlatformClient } from '../platform/index.js';
import type { RateRequest } from '../platform/types.js';
import type { Profile } from '../profiles/profile-schema.js';
import type { StationScope } from '../storage/scope.js';

export interface PlatformProbeOptions {
  client: PlatformClient;
  profile: () => Profile;
  scope: StationScope;
  orders: OrderRepository;
  /** How often a request is sent while packing's requests fail. */
  everyMs: number;
  log: (line: string) => void;
}

/**
 * While packing cannot reach the platform (its token, rates or label requests failed a few times
 * in a row), sends one light request of what failed every `everyMs`, so the station finds out by
 * itself that the platform answers again: a rate request (what a scan or the pre-rater would ask
 * for the newest order, or a one-pound parcel from the shipping site to itself; nothing is
 * stored or bought), and, when label purchases failed, an empty purchase request the platform can
 * only refuse (PlatformClient.probeLabelRoute: a refusal is an answer of the purchase route; the
 * file of a label, asked before, answered while purchases still failed). The client's
 * connectivity hears each answer or failure like any other request's; an answer turns packing
 * online, which wakes the offline queue and the pre-rater. Without it, a rates endpoint that
 * failed while nobody scanned kept the header "offline" until a packer rated an order.
 */
export class PlatformProbe {
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly o: PlatformProbeOptions) {}

  start(): void {
    this.unsubscribe = this.o.client.connectivity.onChange(() => this.follow());
    this.follow();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One probe now (one at a time): the requests of what packing needs that is offline. */
  probe(): Promise<void> {
    this.running ??= this.send().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private follow(): void {
    const offline = !this.o.client.connectivity.reachable;
    if (offline && !this.timer && this.unsubscribe) {
      this.timer = setInterval(() => void this.probe(), this.o.everyMs);
      this.timer.unref();
    } else if (!offline && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private async send(): Promise<void> {
    const { client } = this.o;
    const snap = client.connectivity.snapshot();
    if (snap.state !== 'offline') return;
    const caps = snap.capabilities;
    // Failures are the connectivity's to count; the probe itself has nothing to say.
    const quietly = (work: Promise<unknown>) =>
      work.then(
        () => undefined,
        () => undefined,
      );
    const labels = caps.labels.state === 'offline';
    if (labels) await quietly(client.probeLabelRoute({ tenantId: this.o.profile().tenantId }));
    if (caps.rates.state === 'offline' || caps.token.state === 'offline' || !labels) {
      const { tenantId, request } = this.rateRequest();
      await quietly(client.getRates(request, { tenantId }));
    }
    if (client.connectivity.reachable)
      this.o.log('platform: packing requests answered again (found by the station itself)');
  }

  /** The newest order's rate request as a scan would send it, else the site's own parcel. */
  private rateRequest(): { tenantId: string; request: RateRequest } {
    const profile = this.o.profile();
    for (const order of this.o.orders.recent(this.o.scope, 5)) {
      const built = buildShipment(
        profile,
        order,
        order.packages.map((p) => ({ weightLbs: p.weightLbs ?? 1 })),
      );
      if ('shipment' in built)
        return {
          tenantId: order.tenantId,
          request: { shipment: built.shipment as unknown as RateRequest['shipment'] },
        };
    }
    const from = { ...profile.shipFrom, siteId: profile.shippingSiteId };
    return {
      tenantId: profile.tenantId,
      request: {
        shipment: {
          shipFrom: from,
          shipTo: profile.shipFrom,
          packages: [{ weightLbs: 1, lengthIn: 6, widthIn: 6, heightIn: 6, type: 'box' }],
        },
      },
    };
  }
}
