import { hostKind } from './address.js';

/**
 * A subscription URI: HTTPS and publicly reachable. With allowHttpWebhooks, loopback receivers
 * are accepted (http or https) so tests can run a local receiver. Returns a problem or null.
 * The text is only the first check: each delivery checks the address it actually connects to
 * (see WebhookPoster), so a name that resolves to a private address is refused there.
 */
export function uriProblem(uri: string, allowHttpWebhooks: boolean): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials (use credentials)';
  const kind = hostKind(url.hostname);
  const loopback = kind === 'loopback';
  if (url.protocol === 'http:') {
    if (allowHttpWebhooks && loopback) return null;
    return allowHttpWebhooks ? 'http:// is accepted on loopback only' : 'must use https://';
  }
  if (url.protocol !== 'https:') return 'must use https://';
  if (kind === 'private' || (loopback && !allowHttpWebhooks)) return 'must be publicly reachable';
  return null;
}

/**
 * A subscription URI as the URL it names, for "one subscription per URL": host names are
 * case-insensitive (and a trailing root dot names the same host), a default port is no port,
 * and a fragment is never sent. The path and query are kept as written.
 */
export function urlKey(uri: string): string {
  try {
    const url = new URL(uri);
    url.hash = '';
    url.hostname = url.hostname.replace(/\.+$/, '');
    return url.href;
  } catch {
    return uri;
  }
}
