import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a port (a PostgreSQL cluster's), that a test cuts and heals: a
 * network partition between one station and its site store, while other stations still reach
 * it. Cut, every relayed connection is dropped and new ones are refused (connection refused);
 * healed, it listens again on the same port.
 */
export interface TcpProxy {
  readonly port: number;
  /** The address now leads to another port (a store moved to another server under one name). */
  moveTo(targetPort: number): void;
  cut(): Promise<void>;
  heal(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, host = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let target = targetPort;
  let server: Server | null = null;
  let port = 0;
  const listen = async () => {
    const s = createServer((client) => {
      const upstream = connect(target, host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => s.listen(port, host, resolve));
    port = (s.address() as { port: number }).port;
    server = s;
  };
  const cut = async () => {
    const s = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await listen();
  return {
    get port() {
      return port;
    },
    moveTo(next: number) {
      target = next;
      // The old server's connections are gone with it.
      for (const socket of sockets) socket.destroy();
    },
    cut,
    heal: async () => {
      if (!server) await listen();
    },
    close: cut,
  };
}
