import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformClient } from '../../../src/core/platform/index.js';
import { rejection } from './support.js';

/**
 * A platform (or a proxy, a firewall page in front of it) that quotes the token request in its
 * error answer: the message, the field errors and a body all carry the client secret it was
 * sent. The station shows the platform's words to the packer and keeps them with a failed
 * purchase (Needs attention, station.db), so the secret must be gone from them before that.
 */
let server: Server;
let baseUrl = '';
let status = 400;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          message: `bad request body ${body}`,
          statusCode: status,
          errorCode: 'BAD_BODY',
          errors: [{ field: 'clientSecret', message: `not accepted: ${body}`, code: 'x' }],
          correlationId: 'cor_echo1',
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const clientWith = (secret: string) =>
  new PlatformClient({
    baseUrl,
    clientId: 'station-7',
    tenantId: 'tnt_lumen',
    environment: 'sandbox',
    getSecret: () => secret,
    proactiveTokenRefresh: false,
    retry: { attempts: 1 },
  });

describe('a token error that quotes the request', () => {
  it.each([
    ['refused (400)', 400, 'Sup3r-s3cret-value'],
    ['failing (500)', 500, 'Sup3r-s3cret-value'],
    ['refused, a secret with a quote and a backslash', 400, 'pa"ss\\word-42'],
  ])(
    '%s: the secret is in no part of the error; the platform words and reference stay',
    async (_, s, secret) => {
      status = s;
      const client = clientWith(secret);
      const error = await rejection(client.listTenants());
      client.close();
      const everything = JSON.stringify({
        message: error.message,
        platformMessage: error.platformMessage,
        fieldErrors: error.fieldErrors,
        responseBody: error.responseBody,
      });
      expect(everything).not.toContain(secret);
      expect(everything).not.toContain(JSON.stringify(secret).slice(1, -1));
      // The platform's own words are kept, the secret replaced within them.
      expect(error.platformMessage).toContain('bad request body');
      expect(error.platformMessage).toContain('"clientSecret":"[redacted]"');
      expect(error.correlationId).toBe('cor_echo1');
    },
  );
});
