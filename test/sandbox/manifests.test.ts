import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { call, expectEnvelope, labelBody } from './helpers.js';

const sbx = useSandbox();

describe('manifests (POST /api/v1/manifests: named in the spec, not shown; see docs/sandbox.md)', () => {
  it('closes out the site’s labels not yet on a manifest, per carrier; never one label twice', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const buy = async (account: string, level: string, service: string) => {
      const res = await call(sbx.url, 'POST', '/api/v1/labels', {
        headers,
        body: labelBody(account, level, { service }, { batchId: 'b_test' }),
      });
      expect(res.status).toBe(201);
      return res.body as { id: string; trackingNumber: string };
    };
    const ups = await buy('ca_lumen_ups', 'UPS_GROUND', 'UPS');
    const usps = await buy('ca_lumen_usps', 'USPS_PRIORITY', 'USPS');

    const bad = await call(sbx.url, 'POST', '/api/v1/manifests', {
      headers,
      body: { shippingSiteId: 'site_nowhere', labelIds: ['lbl_nope'] },
    });
    expectEnvelope(bad, 400, 'VALIDATION_ERROR');
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'shippingSiteId' })]);

    const made = await call(sbx.url, 'POST', '/api/v1/manifests', {
      headers,
      body: { shippingSiteId: 'site_lumen_chicago', carrier: 'UPS', labelIds: [ups.id, usps.id] },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      id: expect.stringMatching(/^mf_/),
      shippingSiteId: 'site_lumen_chicago',
      carrier: 'UPS',
      labelIds: [ups.id],
      trackingNumbers: [ups.trackingNumber],
      labelCount: 1,
      alreadyManifested: [],
    });
    const again = await call(sbx.url, 'POST', '/api/v1/manifests', {
      headers,
      body: { shippingSiteId: 'site_lumen_chicago', labelIds: [ups.id, usps.id] },
    });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({
      labelIds: [usps.id],
      alreadyManifested: [{ labelId: ups.id, manifestId: made.body.id }],
    });
    const empty = await call(sbx.url, 'POST', '/api/v1/manifests', {
      headers,
      body: { shippingSiteId: 'site_lumen_chicago', labelIds: [ups.id, usps.id] },
    });
    expectEnvelope(empty, 400, 'VALIDATION_ERROR');
    const unknownLabel = await call(sbx.url, 'POST', '/api/v1/manifests', {
      headers,
      body: { shippingSiteId: 'site_lumen_chicago', labelIds: ['lbl_nope'] },
    });
    expectEnvelope(unknownLabel, 400, 'VALIDATION_ERROR');
    expect(unknownLabel.body.errors[0].field).toBe('labelIds[0]');

    const got = await call(sbx.url, 'GET', `/api/v1/manifests/${made.body.id}`, { headers });
    expect(got.body).toMatchObject({ id: made.body.id, labelCount: 1 });
    const ledger = (await (await fetch(`${sbx.url}/sandbox/ledger/labels`)).json()) as {
      labels: { batchId: string | null }[];
    };
    expect(ledger.labels.map((l) => l.batchId)).toContain('b_test');
  });
});
