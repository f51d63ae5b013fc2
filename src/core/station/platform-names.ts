import type { PlatformClient } from '../platform/client.js';

/**
 * The names the platform gives a profile's shipping site and tenant: the header names the site
 * packing (not the ship-from company on the label), Settings the tenant by its name. Read once
 * each when the platform answers; until then the screens show the ids.
 */
export class PlatformNames {
  siteName: string | null = null;
  tenantName: string | null = null;
  private siteRead: boolean;
  private tenantRead = false;

  constructor(
    private readonly o: {
      client: Pick<PlatformClient, 'listShippingSites' | 'getTenant'>;
      tenantId: string;
      shippingSiteId?: string | undefined;
      /** A name was read: the header gets a new status. */
      onChange: () => void;
    },
  ) {
    this.siteRead = !o.shippingSiteId;
  }

  /** Both were read (a platform that did not answer is asked again at the next read()). */
  get complete(): boolean {
    return this.siteRead && this.tenantRead;
  }

  async read(): Promise<void> {
    const { client, shippingSiteId, tenantId } = this.o;
    const [askSite, askTenant] = [!this.siteRead, !this.tenantRead];
    const [site, tenant] = await Promise.allSettled([
      askSite ? client.listShippingSites() : null,
      askTenant ? client.getTenant(tenantId) : null,
    ]);
    let changed = false;
    if (askSite && site.status === 'fulfilled') {
      this.siteRead = true;
      this.siteName = site.value?.find((s) => s.id === shippingSiteId)?.name?.trim() || null;
      changed = this.siteName !== null;
    }
    if (askTenant && tenant.status === 'fulfilled') {
      this.tenantRead = true;
      this.tenantName = tenant.value?.name?.trim() || null;
      changed ||= this.tenantName !== null;
    }
    if (changed) this.o.onChange();
  }
}
