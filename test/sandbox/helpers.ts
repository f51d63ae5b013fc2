/* eslint-disable @typescript-eslint/no-explicit-any -- test responses are checked field by field */
import { expect } from 'vitest';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** One HTTP call; the body is parsed as JSON when it is JSON. */
export async function call<T = any>(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; raw?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('application/json') && text) {
    parsed = JSON.parse(text);
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** Asserts the error envelope of the spec, part 7, and returns it. */
export function expectEnvelope(
  res: ApiResponse,
  status: number,
  errorCode: string,
): {
  message: string;
  statusCode: number;
  errorCode: string;
  errors: { field: string; message: string; code: string }[];
  correlationId: string;
} {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, errorCode });
  expect(Object.keys(res.body).sort()).toEqual(
    ['correlationId', 'errorCode', 'errors', 'message', 'statusCode'].sort(),
  );
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
  expect(res.body.message).not.toMatch(/\n\s+at /);
  expect(Array.isArray(res.body.errors)).toBe(true);
  expect(res.body.correlationId).toMatch(/^cor_/);
  expect(res.headers.get('x-correlation-id')).toBe(res.body.correlationId);
  return res.body;
}

export const austin = {
  name: 'Ann Rivera',
  addressLine1: '401 Congress Ave',
  city: 'Austin',
  stateProvince: 'TX',
  postalCode: '78701',
  countryCode: 'US',
  isResidential: true,
};

export const seattle = {
  name: 'Sam Okafor',
  company: 'Okafor Design',
  addressLine1: '1201 3rd Ave',
  city: 'Seattle',
  stateProvince: 'WA',
  postalCode: '98101',
  countryCode: 'US',
  isResidential: false,
};

export function rateBody(
  overrides: Record<string, unknown> = {},
  options?: Record<string, unknown>,
) {
  return {
    shipment: {
      shipTo: austin,
      shipFrom: {},
      packages: [{ weightLbs: 2.5, lengthIn: 10, widthIn: 8, heightIn: 4 }],
      orderReference: 'ORD-1001',
      ...overrides,
    },
    ...(options ? { options } : {}),
  };
}

export function labelBody(
  carrierAccountId: string,
  serviceLevel: string,
  extra: Record<string, unknown> = {},
  shipment: Record<string, unknown> = {},
) {
  return {
    carrierAccountId,
    serviceLevel,
    orderReference: 'ORD-1001',
    labelOptions: { type: 'ZPL', size: '4x6', inline: true },
    mode: 'TEST',
    shipment: {
      shipTo: austin,
      shipFrom: {},
      packages: [{ weightLbs: 2.5, lengthIn: 10, widthIn: 8, heightIn: 4 }],
      ...shipment,
    },
    ...extra,
  };
}
