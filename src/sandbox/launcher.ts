import { readFileSync } from 'node:fs';

/** The parent of `pid`, from /proc (Linux); undefined where /proc is not available. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces; the ppid follows it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** True when the process runs npm (titled `npm …`, or `node …/npm-cli.js …`). */
function isNpm(pid: number): boolean {
  try {
    // npm sets its process title, so its command line reads "npm run sandbox …".
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, 2);
    return (
      /^npm(\s|$)/.test(argv[0] ?? '') || argv.some((arg) => /(^|[/\\])npm(-cli\.js)?$/.test(arg))
    );
  } catch {
    return false;
  }
}

/**
 * The [pid, parent] links between this process and the npm that ran it, or just [this process,
 * its parent] when /proc cannot tell.
 */
function launcherLinks(): [number, number][] {
  const links: [number, number][] = [[process.pid, process.ppid]];
  let pid = process.ppid;
  for (let depth = 0; depth < 8 && pid > 1 && !isNpm(pid); depth++) {
    const parent = parentOf(pid);
    if (parent === undefined) return links.slice(0, 1);
    links.push([pid, parent]);
    pid = parent;
  }
  return isNpm(pid) ? links : links.slice(0, 1);
}

/**
 * Calls `onGone` once the command that launched the sandbox has gone away. `npm run sandbox`
 * starts npm → sh → tsx → this process; a test that stops npm with a plain `child.kill()` kills
 * npm alone, and the rest (tsx relays signals, but gets none) would keep the sandbox running and
 * its stdout open for ever. So the sandbox watches the processes between itself and that npm:
 * when one of them has been re-parented (its parent died), it shuts down. What runs npm is not
 * watched (`nohup npm run sandbox &` outlives its shell). Without /proc it watches its own
 * parent only; started without npm it watches nothing. Returns a stop function; the timer never
 * keeps the process alive.
 */
export function watchLauncher(onGone: () => void, intervalMs = 250): () => void {
  // Only under `npm run sandbox` (npm names the script); started any other way, the sandbox
  // runs until it is told to stop, as any server does.
  if (process.env.npm_lifecycle_event !== 'sandbox') return () => undefined;
  const links = launcherLinks();
  const timer = setInterval(() => {
    const gone = links.some(([pid, parent], i) =>
      i === 0 ? process.ppid !== parent : parentOf(pid) !== parent,
    );
    if (gone) {
      clearInterval(timer);
      onGone();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
