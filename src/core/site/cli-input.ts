// Standard input for `npm run site -- users add` (site/cli-users.ts): a badge scanned and a PIN
// typed. From a terminal the PIN is not shown as it is typed (a colleague behind site IT reads
// the screen too) and is asked twice; from a pipe (a script, the tests) each is one line.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

export interface CliInput {
  /** A terminal: the PIN is typed unseen and asked twice. */
  readonly terminal: boolean;
  /** One line, shown as typed (a badge scan). */
  line(prompt: string): Promise<string>;
  /** One line not shown as typed (a PIN); from a pipe, the next line. */
  secret(prompt: string): Promise<string>;
  close(): void;
}

/** Reads lines from standard input: a terminal (echo off for secrets) or a pipe. */
export function cliInput(
  input: NodeJS.ReadStream = process.stdin,
  prompts: NodeJS.WriteStream = process.stderr,
): CliInput {
  return input.isTTY ? terminalInput(input, prompts) : pipedInput(input, prompts);
}

function pipedInput(input: NodeJS.ReadStream, prompts: NodeJS.WriteStream): CliInput {
  const rl = createInterface({ input, terminal: false });
  const queue: string[] = [];
  const waiting: ((l: string) => void)[] = [];
  rl.on('line', (l) => (waiting.length ? waiting.shift()!(l) : queue.push(l)));
  rl.on('close', () => waiting.splice(0).forEach((w) => w('')));
  const line = async (prompt: string) => {
    prompts.write(prompt);
    const next = queue.shift();
    if (next !== undefined) return next;
    return new Promise<string>((resolve) => waiting.push(resolve));
  };
  return { terminal: false, line, secret: line, close: () => rl.close() };
}

function terminalInput(input: NodeJS.ReadStream, prompts: NodeJS.WriteStream): CliInput {
  // readline draws what is typed on its output: muted while a secret is typed, nothing of it
  // reaches the screen (the terminal's own echo is off while readline holds it in raw mode).
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (!muted) prompts.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input, output, terminal: true });
  // Ctrl+C while asked: leave the terminal as it was and stop, having stored nothing.
  rl.on('SIGINT', () => {
    muted = false;
    rl.close();
    prompts.write('\nStopped: nothing was saved.\n');
    process.exit(130);
  });
  const ask = (prompt: string, secret: boolean) =>
    new Promise<string>((resolve) => {
      const closed = () => resolve('');
      rl.once('close', closed);
      prompts.write(prompt);
      muted = secret;
      rl.question('', (answer) => {
        rl.off('close', closed);
        muted = false;
        // The Enter that ended a secret was not drawn either.
        if (secret) prompts.write('\n');
        resolve(answer);
      });
    });
  return {
    terminal: true,
    line: (prompt) => ask(prompt, false),
    secret: (prompt) => ask(prompt, true),
    close: () => rl.close(),
  };
}
