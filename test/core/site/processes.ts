// A child process driven by lines on stdin that answers JSON lines on stdout (the site tests'
// station processes). next(key) waits for the next line that has `key`.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export type Line = Record<string, unknown>;

export interface ChildStation {
  send(command: string): void;
  next(key: string, match?: (line: Line) => boolean): Promise<Line>;
  kill(): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  pid: number;
}

const repo = join(import.meta.dirname, '../../..');

export function startChild(script: string, env: Record<string, string>): ChildStation {
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: repo,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: Line[] = [];
  const waiting: { key: string; match: (l: Line) => boolean; resolve: (l: Line) => void }[] = [];
  let stderr = '';
  let buffer = '';
  const deliver = () => {
    for (const w of [...waiting]) {
      const i = lines.findIndex((l) => w.key in l && w.match(l));
      if (i >= 0) {
        const [line] = lines.splice(i, 1);
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(line!);
      }
    }
  };
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const p of parts) if (p.startsWith('{')) lines.push(JSON.parse(p) as Line);
    deliver();
  });
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  return {
    pid: proc.pid!,
    send: (command) => proc.stdin!.write(`${command}\n`),
    next: (key, match = () => true) =>
      Promise.race([
        new Promise<Line>((resolve) => {
          waiting.push({ key, match, resolve });
          deliver();
        }),
        exited.then((e) => {
          throw new Error(`station exited (${e.code ?? e.signal}) before "${key}": ${e.stderr}`);
        }),
      ]),
    kill: async () => {
      proc.kill('SIGKILL');
      await exited;
    },
    exited,
  };
}
