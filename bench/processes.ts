// The platform and the printer are other machines: the benchmarks run them as their own
// processes (through the same CLIs a person uses), so their CPU is not counted as the station's.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';

interface Child {
  /** What the CLI's first stdout line announced (`http://…` or `tcp://…`). */
  address: string;
  /** Every later stdout line. */
  lines: Interface;
  close(): Promise<void>;
}

async function startCli(
  script: string,
  args: string[],
  firstLine: RegExp,
  command: string[] = [process.execPath, '--import', 'tsx'],
): Promise<Child> {
  // stdin stays open: the virtual printer reads fault commands from it and stops at its end.
  const child: ChildProcess = spawn(command[0]!, [...command.slice(1), script, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const line = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before listening`)));
    // A command that is not there (python3 for the label tap) never starts: say which.
    child.once('error', (error) =>
      reject(new Error(`${script} could not start: ${command[0]} ${error.message}`)),
    );
  });
  const address = firstLine.exec(line)?.[1];
  if (!address) throw new Error(`unexpected first line from ${script}: ${line}`);
  return {
    address,
    lines,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function sandboxProcess(
  options: { latencyMs?: number; tokenTtlSeconds?: number } = {},
): Promise<{ url: string; advance(seconds: number): Promise<void>; close(): Promise<void> }> {
  const args = ['--port', '0'];
  if (options.latencyMs) args.push('--latency-ms', String(options.latencyMs));
  if (options.tokenTtlSeconds) args.push('--token-ttl', String(options.tokenTtlSeconds));
  const child = await startCli('src/sandbox/cli.ts', args, /^sandbox listening on (http:\/\/\S+)$/);
  const url = child.address;
  return {
    url,
    async advance(seconds) {
      const res = await fetch(`${url}/sandbox/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seconds }),
      });
      if (!res.ok) throw new Error(`clock advance: ${res.status}`);
    },
    close: child.close,
  };
}

export async function virtualPrinterProcess(): Promise<{ port: number; close(): Promise<void> }> {
  const child = await startCli(
    'src/core/printing/virtual-printer/cli.ts',
    ['--port', '0'],
    /^virtual printer listening on (tcp:\/\/\S+)$/,
  );
  return { port: Number(new URL(child.address).port), close: child.close };
}

/**
 * The label tap (bench/label-tap.py) in front of the printer at `targetPort`, in its own
 * process: `onFirstByte(arrivedMs, seenMs)` hears, on the process.hrtime clock in milliseconds
 * (see `monotonicMs`), when the start of each label reached the printer's end of the connection
 * (the kernel's receive timestamp; null where the system gives none) and when the tap's process
 * read it.
 */
export async function labelTapProcess(
  targetPort: number,
  onFirstByte: (arrivedMs: number | null, seenMs: number) => void,
): Promise<{ port: number; close(): Promise<void> }> {
  const child = await startCli(
    'bench/label-tap.py',
    ['--target', String(targetPort)],
    /^tap listening on (tcp:\/\/\S+)$/,
    ['python3', '-u'],
  );
  child.lines.on('line', (line) => {
    const m = /^first-byte (\d+) (\d+|-)$/.exec(line);
    if (m)
      onFirstByte(m[2] === '-' ? null : Number(BigInt(m[2]!)) / 1e6, Number(BigInt(m[1]!)) / 1e6);
  });
  return { port: Number(new URL(child.address).port), close: child.close };
}

/** process.hrtime in milliseconds: CLOCK_MONOTONIC, the same clock in every local process. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
