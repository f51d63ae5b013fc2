import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll } from 'vitest';

/**
 * A relay in front of a sandbox that passes every request through over real HTTP and lets a test
 * rewrite one kind of answer: a platform that answers in a shape the spec allows but the sandbox
 * does not use (a field the spec does not show left out). Only JSON bodies of 2xx answers are
 * handed to `rewrite`; everything else passes unchanged.
 */
export interface AnswerRelay {
  /** `http://127.0.0.1:PORT`: the base URL to give the station. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startAnswerRelay(
  target: () => string,
  rewrite: (method: string, path: string, body: unknown) => unknown,
): Promise<AnswerRelay> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (e): e is [string, string] => typeof e[1] === 'string' && e[0] !== 'host',
        ),
      );
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const url = req.url ?? '';
      void fetch(`${target()}${url}`, { method: req.method, headers, body })
        .then(async (answer) => {
          let text = await answer.text();
          const type = answer.headers.get('content-type') ?? 'application/json';
          if (answer.ok && type.includes('json') && text)
            text = JSON.stringify(
              rewrite(req.method ?? 'GET', url.split('?')[0]!, JSON.parse(text) as unknown),
            );
          const correlation = answer.headers.get('x-correlation-id');
          res.writeHead(answer.status, {
            'content-type': type,
            ...(correlation ? { 'x-correlation-id': correlation } : {}),
          });
          res.end(text);
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A relay for the whole file (started before its tests, closed after): its base URL. */
export function useAnswerRelay(
  target: () => string,
  rewrite: (method: string, path: string, body: unknown) => unknown,
): () => string {
  let relay: AnswerRelay | undefined;
  beforeAll(async () => {
    relay = await startAnswerRelay(target, rewrite);
  });
  afterAll(() => relay?.close());
  return () => {
    if (!relay) throw new Error('the answer relay has not started');
    return relay.url;
  };
}
