import { calls, isCallName, type Handlers } from '../../shared/contract.js';
import { fail, ok, type Result } from '../../shared/result.js';
import { toStationError } from './errors.js';
import { zodIssueWords } from '../../shared/zod-words.js';

export type { Handlers } from '../../shared/contract.js';

/** Calls asked often that are refused as a matter of course (a scan of something unknown). */
const QUIET = new Set<string>(['pack.scan', 'station.status']);
/** Set-up calls whose refusals are logged even as `validation` (a secret or site refused). */
const SITE_IT = /^(profiles|printers|site|siteSettings)\./;

/**
 * The one entry point both hosts use: look the call up in the contract, validate the input
 * with its schema (the renderer is untrusted), run the handler, and turn whatever happens into
 * a Result. Hosts iterate over nothing else, so a new call never touches a host.
 */
export async function dispatch(
  handlers: Handlers,
  name: unknown,
  input: unknown,
  log: (line: string) => void = () => {},
): Promise<Result<unknown>> {
  if (!isCallName(name)) return fail('not-found', `Unknown station call ${JSON.stringify(name)}.`);
  const parsed = calls[name].input.safeParse(input ?? {});
  if (!parsed.success) {
    return fail(
      'validation',
      parsed.error.issues
        // A sentence written for the person at the station stands alone; zod's own words are
        // said with the field they are about.
        .map((i) =>
          i.path.length && !i.message.endsWith('.')
            ? `${i.path.join('.')}: ${zodIssueWords(i)}`
            : i.message,
        )
        .join('; '),
      parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: zodIssueWords(i) })),
    );
  }
  try {
    const handler = handlers[name] as (i: unknown) => Promise<unknown>;
    return ok(await handler(parsed.data));
  } catch (error) {
    const e = toStationError(error);
    if (e.code === 'internal') log(`${name} failed: ${(error as Error)?.stack ?? String(error)}`);
    // What the station refused, and why, is what site IT looks for in a diagnostics folder
    // (a test print to a dead printer, a purchase not confirmed, a secret the platform
    // refused): one line each. A packer's typo in a form (validation) is theirs, not the log's;
    // site IT's set-up refusals are logged.
    else if ((e.code !== 'validation' || SITE_IT.test(name)) && !QUIET.has(name))
      log(`${name} refused (${e.code}): ${e.message}`);
    return { ok: false, error: e };
  }
}
