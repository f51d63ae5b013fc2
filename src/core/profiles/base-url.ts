/**
 * Where a profile may send its client secret. A production or sandbox platform is reached over
 * https only; plain http is accepted for a platform on this machine (a local test platform,
 * the sandbox on 127.0.0.1). Any other scheme (file:, javascript:, ftp:) is refused, and so is
 * a URL carrying a user name or password.
 */
export function baseUrlProblem(baseUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return 'must be an https:// address such as https://api.example-platform.com';
  }
  if (url.username || url.password)
    return 'must not contain a user name or password (the client secret is stored separately)';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:')
    return isLoopbackHost(url.hostname)
      ? null
      : 'must use https:// (http:// is accepted only for a platform on this computer: 127.0.0.1, ::1 or localhost)';
  return `must be an https:// address, not ${url.protocol}`;
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * A base URL pasted from the API's documentation with its version path ("…/api/v1/"): the
 * station adds /api/v1 itself. Checked where a profile is saved or provisioned, not where stored
 * profiles are read (one saved so before this check must not keep the station from starting).
 */
export function apiPathProblem(baseUrl: string | undefined): string | null {
  if (!baseUrl || !URL.canParse(baseUrl)) return null;
  const url = new URL(baseUrl);
  const path = /\/api\/v\d+\/?$/i.exec(url.pathname);
  if (!path) return null;
  const without = `${url.origin}${url.pathname.slice(0, path.index)}`;
  return `must be the platform's address without ${path[0].replace(/\/$/, '')} (${without}): the station adds the API's path itself`;
}
