import { type IncomingHttpHeaders, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface Received {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

export interface Behaviour {
  status?: number;
  delayMs?: number;
  headers?: Record<string, string>;
}

/** A real local webhook receiver; each path answers by a programmable plan. */
export async function startReceiver() {
  const received: Received[] = [];
  const plans = new Map<string, Behaviour[]>();
  const defaults = new Map<string, Behaviour>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({
        path,
        method: req.method ?? '',
        headers: req.headers,
        raw: Buffer.concat(chunks).toString('utf8'),
      });
      const behaviour = plans.get(path)?.shift() ?? defaults.get(path) ?? { status: 200 };
      const answer = () => {
        res.writeHead(behaviour.status ?? 200, behaviour.headers ?? {});
        res.end('ok');
      };
      if (behaviour.delayMs) setTimeout(answer, behaviour.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    /** Answers the next requests on `path` in this order, then the default. */
    plan(path: string, ...behaviours: Behaviour[]) {
      plans.set(path, behaviours);
    },
    setDefault(path: string, behaviour: Behaviour) {
      defaults.set(path, behaviour);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
