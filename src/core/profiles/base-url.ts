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
  // Pasted from the API's documentation with its version path: the station adds /api/v1 itself.
  if (/\/api\/v\d+\/?$/i.test(url.pathname))
    return `must be the platform's address without ${url.pathname.replace(/^.*(\/api\/v\d+)\/?$/i, '$1')} (${url.origin}${url.pathname.replace(/\/api\/v\d+\/?$/i, '')}): the station adds the API's path itself`;
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
