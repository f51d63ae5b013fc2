import { createServer, type Socket } from 'node:net';
import {
  hostStatusAnswer,
  type VirtualFault,
} from '../../src/core/printing/virtual-printer/responses.js';

/**
 * A label printer that is not the project's virtual printer: a bare TCP listener on port 0 that
 * keeps every byte, answers `~HS` as older Zebra firmware does, and never answers `~HQES` or
 * SGD `getvar` (so a driver that waits for those learns it the slow way).
 */
export interface PlainZebra {
  port: number;
  /** Everything received, as latin1 text. */
  received(): string;
  connections(): number;
  /** How many times it was asked `~HQES`. */
  hqesAsked(): number;
  setFault(fault: VirtualFault | null): void;
  /** Each `~HS` is answered this long after it arrives (a printer behind a weak Wi-Fi bridge). */
  setAnswerDelay(ms: number): void;
  close(): Promise<void>;
}

export async function startPlainZebra(): Promise<PlainZebra> {
  let data = '';
  let connections = 0;
  let fault: VirtualFault | null = null;
  let delayMs = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    let pending = '';
    socket.on('data', (chunk) => {
      const text = chunk.toString('latin1');
      data += text;
      pending += text;
      let at: number;
      while ((at = pending.indexOf('~HS')) >= 0) {
        pending = pending.slice(at + 3);
        const answer = hostStatusAnswer({ fault, formatsInBuffer: 0, dpi: 203 });
        if (delayMs === 0) socket.write(answer, 'latin1');
        else setTimeout(() => !socket.destroyed && socket.write(answer, 'latin1'), delayMs);
      }
      pending = pending.slice(-2);
    });
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    port: (server.address() as { port: number }).port,
    received: () => data,
    connections: () => connections,
    hqesAsked: () => data.split('~HQES').length - 1,
    setFault: (f) => (fault = f),
    setAnswerDelay: (ms) => (delayMs = ms),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((ok) => server.close(ok));
    },
  };
}
