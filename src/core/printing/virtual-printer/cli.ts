/**
 * npm run virtual-printer -- [--port N] [--out DIR] [--dpi 203]
 *
 * First stdout line: `virtual printer listening on tcp://127.0.0.1:PORT` (plain `npm run` prints
 * its own banner before it; `npm run --silent` or `npx tsx …/cli.ts` do not). Then one line per
 * printed label. Faults are set by typing a command on stdin (one per line):
 *   paper-out | head-open | paused | ribbon-out   set that fault (labels wait in the buffer)
 *   ok                                           clear the fault; waiting labels print
 *   slow MS                                      every answer and label takes MS ms (0: off)
 *   drop                                         drop the next job halfway through
 *   drop-after                                   print the next label, then drop the line
 *   status                                       show fault, labels printed and waiting
 *   quit                                         stop (so do Ctrl-C and SIGTERM)
 */
import { createInterface } from 'node:readline';
import { CliUsageError, intOption, parseCli } from '../../cli-args.js';
import { startVirtualPrinter } from './server.js';

const usage = 'usage: npm run virtual-printer -- [--port N] [--out DIR] [--dpi 203|300|600]';

/** `--help`: what it is, its options, and the fault commands typed on its input. */
const help = `${usage}

A TCP label printer for trying a station without a Zebra: it answers ~HS and ~HQES as a Zebra
does, prints (stores) every ^XA…^XZ it receives, and takes faults typed on its input.

  --port N     the TCP port to listen on (default 9100; 0 picks a free one)
  --out DIR    store each label as DIR/label-0001.zpl, … (the bytes as received)
  --dpi D      the resolution it reports: 203, 300 or 600 (default 203)

Type on its input, one command a line:
  paper-out | head-open | paused | ribbon-out   set that fault (labels wait in the buffer)
  ok                                           clear the fault; waiting labels print
  slow MS                                      every answer and label takes MS ms (0: off)
  drop                                         drop the next job halfway through
  drop-after                                   print the next label, then drop the line
  status                                       show fault, labels printed and waiting
  quit                                         stop (so do Ctrl-C and SIGTERM)

In a station: Settings → Printers → Add, host 127.0.0.1 and this port (docs/sandbox.md).`;

const faults = ['paper-out', 'head-open', 'paused', 'ribbon-out'] as const;

// Whoever started us may stop reading our output (a test that only wanted the first line):
// keep printing labels rather than die of EPIPE.
process.stdout.on('error', () => undefined);

async function main() {
  const { values } = parseCli(
    {
      options: {
        port: { type: 'string', default: '9100' },
        out: { type: 'string' },
        dpi: { type: 'string', default: '203' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    usage,
  );
  if (values.help) {
    console.log(help);
    return;
  }
  const port = intOption('port', values.port, { min: 0, max: 65535 }, usage)!;
  const dpi = Number(values.dpi);
  if (![203, 300, 600].includes(dpi))
    throw new CliUsageError(`--dpi must be 203, 300 or 600, got "${values.dpi}"`, usage);

  const printer = await startVirtualPrinter({
    port,
    dpi,
    ...(values.out ? { outDir: values.out } : {}),
  });
  console.log(`virtual printer listening on ${printer.url}`);
  printer.on('label', (label) => {
    const pw = /\^PW(\d+)/.exec(label.zpl)?.[1] ?? '?';
    const ll = /\^LL(\d+)/.exec(label.zpl)?.[1] ?? '?';
    console.log(
      `label ${label.seq} printed (${pw}x${ll} dots)${label.file ? ` -> ${label.file}` : ''}`,
    );
  });

  const stop = async () => {
    await printer.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    const [cmd, arg] = line.trim().split(/\s+/);
    if (!cmd) return;
    if ((faults as readonly string[]).includes(cmd)) {
      printer.setFault(cmd as (typeof faults)[number]);
      console.log(`fault: ${cmd}`);
    } else if (cmd === 'ok' || cmd === 'ready') {
      printer.setFault(null);
      console.log('fault: none');
    } else if (cmd === 'slow') {
      printer.setSlow(Number(arg ?? 0) || 0);
      console.log(`slow: ${Number(arg ?? 0) || 0} ms`);
    } else if (cmd === 'drop') {
      printer.dropNextJobMidway();
      console.log('the next job will be dropped halfway');
    } else if (cmd === 'drop-after') {
      printer.dropAfterNextLabel();
      console.log('the connection will drop right after the next label');
    } else if (cmd === 'status') {
      console.log(
        `fault: ${printer.fault ?? 'none'}, printed: ${printer.labels.length}, waiting: ${printer.heldLabels}`,
      );
    } else if (cmd === 'quit' || cmd === 'exit') {
      void stop();
    } else {
      console.log(
        'commands: paper-out | head-open | paused | ribbon-out | ok | slow MS | drop | drop-after | status | quit',
      );
    }
  });
}

main().catch((error: unknown) => {
  console.error(`virtual printer: ${(error as Error).message}`);
  process.exit(error instanceof CliUsageError ? 2 : 1);
});
