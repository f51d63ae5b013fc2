import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';

/**
 * Where a hot folder may be. The hot folder moves every .csv/.json it sees into processed/ or
 * failed/, so pointed at the station's data directory (or a folder that contains it) it would
 * carry settings.json away. That is refused everywhere. Where the folder is typed in a page
 * (the web host), it must also lie under a root site IT gave on the command line
 * (--hot-folder-root) or in a provisioning file: a page never picks an arbitrary directory.
 */
export function hotFolderProblem(
  folder: string,
  rules: { dataDir: string; roots?: readonly string[] | undefined },
): string | null {
  if (!isAbsolute(folder)) return `"${folder}" is not a full path (such as /srv/orders/inbox).`;
  const real = realPath(folder);
  const data = realPath(rules.dataDir);
  if (same(real, data) || inside(data, real))
    return `${folder} is the station's data directory or contains it; the hot folder would move the station's own files. Choose a folder outside ${rules.dataDir}.`;
  if (inside(real, data))
    return `${folder} is inside the station's data directory (${rules.dataDir}); choose a folder outside it.`;
  if (rules.roots === undefined) return null;
  if (rules.roots.length === 0)
    return 'In the browser, a hot folder can only be set under a folder named when the station starts: npm run web -- --hot-folder-root DIR (or hotFolderRoots in a provisioning file).';
  if (!rules.roots.some((root) => same(real, realPath(root)) || inside(real, realPath(root))))
    return `${folder} is not under a hot-folder root of this station (${rules.roots.join(', ')}).`;
  return null;
}

/** The real path of a folder that may not exist yet: its nearest existing parent, resolved. */
function realPath(path: string): string {
  let head = resolve(path);
  const rest: string[] = [];
  while (!existsSync(head) && dirname(head) !== head) {
    rest.unshift(basename(head));
    head = dirname(head);
  }
  try {
    head = realpathSync(head);
  } catch {
    // unreadable: compare the resolved text
  }
  return join(head, ...rest);
}

const fold = (p: string) => (process.platform === 'win32' ? p.toLowerCase() : p);
const same = (a: string, b: string) => fold(a) === fold(b);
/** Whether `child` lies strictly inside `parent`. */
function inside(child: string, parent: string): boolean {
  const p = fold(parent.endsWith(sep) ? parent : parent + sep);
  return fold(child).startsWith(p);
}
