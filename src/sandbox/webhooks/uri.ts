import { isIP } from 'node:net';

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\./.test(h);
}

function isPrivate(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (isLoopback(h)) return true;
  if (isIP(h) === 4) {
    const [a, b] = h.split('.').map(Number) as [number, number];
    return (
      a === 10 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254)
    );
  }
  if (isIP(h) === 6) return h.startsWith('fc') || h.startsWith('fd') || h.startsWith('fe80');
  return false;
}

/**
 * A subscription URI: HTTPS and publicly reachable. With allowHttpWebhooks, loopback receivers
 * are accepted (http or https) so tests can run a local receiver. Returns a problem or null.
 */
export function uriProblem(uri: string, allowHttpWebhooks: boolean): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials (use credentials)';
  const loopback = isLoopback(url.hostname);
  if (url.protocol === 'http:') {
    if (allowHttpWebhooks && loopback) return null;
    return allowHttpWebhooks ? 'http:// is accepted on loopback only' : 'must use https://';
  }
  if (url.protocol !== 'https:') return 'must use https://';
  if (isPrivate(url.hostname) && !(allowHttpWebhooks && loopback))
    return 'must be publicly reachable';
  return null;
}
