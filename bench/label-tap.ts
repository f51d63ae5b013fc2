// A TCP tap in front of the printer, run as its own process (like the printer and the
// platform, so its forwarding is not counted as the station's work): prints
// `tap listening on tcp://127.0.0.1:PORT`, then `first-byte NS` each time the start of a label
// (`^XA`) arrives, NS being process.hrtime (CLOCK_MONOTONIC, the same clock in every process on
// the machine, so the benchmark can compare it with its own).
// Usage: tsx bench/label-tap.ts --target PORT
import { createServer, connect, type Socket } from 'node:net';

const targetPort = Number(process.argv[process.argv.indexOf('--target') + 1]);
if (!Number.isInteger(targetPort) || targetPort <= 0) throw new Error('usage: --target PORT');
process.stdout.on('error', () => undefined);

const sockets = new Set<Socket>();
const server = createServer((client) => {
  client.setNoDelay(true);
  const printer = connect(targetPort, '127.0.0.1');
  printer.setNoDelay(true);
  sockets.add(client).add(printer);
  client.on('data', (chunk) => {
    if (chunk.includes('^XA')) process.stdout.write(`first-byte ${process.hrtime.bigint()}\n`);
    printer.write(chunk);
  });
  printer.on('data', (chunk) => client.write(chunk));
  const end = () => {
    client.destroy();
    printer.destroy();
    sockets.delete(client);
    sockets.delete(printer);
  };
  client.on('close', end).on('error', end);
  printer.on('close', end).on('error', end);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no tap address');
  console.log(`tap listening on tcp://127.0.0.1:${address.port}`);
});
const stop = () => {
  sockets.forEach((s) => s.destroy());
  server.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop).resume();
