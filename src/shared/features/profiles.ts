/** Site profiles: set-up from the platform, edit, secrets, export. Handlers: src/core/station/features/profiles.ts. */
import { z } from 'zod';
import type * as V from '../views.js';
import { printerSchema } from '../printers.js';
import { def, id, none, text } from './define.js';

const environment = z.enum(['embedded-sandbox', 'sandbox', 'production']);
const rateRule = z.object({
  strategy: z.enum(['cheapest', 'fastest']),
  preferredServiceLevels: z.array(text(100)).max(50),
  maxTransitDays: z.number().int().min(1).max(60).nullable(),
  excludedCarriers: z.array(text(100)).max(50),
});
const credentials = z.object({
  environment,
  baseUrl: z.url().max(500),
  clientId: text(200).min(1),
  /** Typed once in the form; stored in the keychain by the host, never sent back. */
  clientSecret: text(500).min(1),
  tenantId: text(200).optional(),
});

export const profileCalls = {
  'profiles.list': def<V.ProfileView[]>()(none),
  'profiles.tenants': def<V.TenantNode[]>()(credentials),
  'profiles.sites': def<V.ShippingSiteView[]>()(credentials.extend({ tenantId: text(200).min(1) })),
  'profiles.create': def<V.ProfileView>()(
    credentials.extend({
      name: text(100).min(2),
      tenantId: text(200).min(1),
      shippingSiteId: text(200).min(1),
      brandTenantIds: z.array(text(200)).max(200).default([]),
      activate: z.boolean().default(true),
    }),
  ),
  'profiles.update': def<V.ProfileView>()(
    z.object({
      id,
      name: text(100).min(2).optional(),
      shippingSiteId: text(200).min(1).optional(),
      rateRule: rateRule.optional(),
      printers: z.array(printerSchema).max(20).optional(),
      defaultPrinterId: id.nullable().optional(),
      hotFolder: text(1000).nullable().optional(),
    }),
  ),
  'profiles.setSecret': def<{ stored: true }>()(z.object({ id, clientSecret: text(500).min(1) })),
  'profiles.activate': def<V.ProfileView>()(z.object({ id })),
  /** Electron: the main process shows a native folder dialog; the choice becomes the hot folder. */
  'profiles.chooseHotFolder': def<V.ProfileView>()(z.object({ id })),
  'profiles.export': def<{ fileName: string; json: string }>()(z.object({ id })),
  'profiles.provision': def<V.ProfileView>()(
    z.object({ json: text(200_000).min(2), clientSecret: text(500).optional() }),
  ),
};
