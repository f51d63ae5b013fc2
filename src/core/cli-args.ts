import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command line that cannot be used: the message says what is wrong, then the usage. */
export class CliUsageError extends Error {
  readonly code = 'usage';
  constructor(message: string, usage: string) {
    super(`${message}\n\n${usage}`);
    this.name = 'CliUsageError';
  }
}

/** node:util's messages, shortened to what a person at a terminal needs. */
function plain(message: string): string {
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  // "-1" reads as an option: a negative number is no value any command takes.
  if (unknown && /^-\d/.test(unknown[1]!))
    return `${unknown[1]} is not a value here: numbers below 0 are not accepted`;
  if (unknown) return `unknown option ${unknown[1]}`;
  const missing = /^Option '(-\w, )?(--[\w-]+)[^']*' argument (missing|is ambiguous)/.exec(message);
  if (missing) return `${missing[2]} needs a value`;
  const positional = /^Unexpected argument '([^']+)'/.exec(message);
  if (positional) return `unexpected argument ${positional[1]}`;
  return message.split('. ')[0]!;
}

/**
 * `node:util` parseArgs (strict: unknown options and stray arguments are refused) for every
 * command line of the project, with one kind of error: `CliUsageError`, whose message names the
 * problem and then shows the usage. An option given as `--flag=` (empty) is refused too.
 */
export function parseCli<const T extends ParseArgsConfig>(
  config: T,
  usage: string,
): ReturnType<typeof parseArgs<T>> {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    throw new CliUsageError(plain((error as Error).message), usage);
  }
  for (const [name, value] of Object.entries(parsed.values as Record<string, unknown>)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => v === '')) throw new CliUsageError(`--${name} needs a value`, usage);
  }
  return parsed;
}

/** An integer option within bounds, or a CliUsageError naming it. */
export function intOption(
  name: string,
  value: string | undefined,
  bounds: { min: number; max?: number },
  usage: string,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < bounds.min || (bounds.max !== undefined && n > bounds.max))
    throw new CliUsageError(
      `--${name} must be ${bounds.max !== undefined ? `${bounds.min}..${bounds.max}` : `an integer >= ${bounds.min}`}, got "${value}"`,
      usage,
    );
  return n;
}
