import { isIP } from 'node:net';

/**
 * Where an IP address leads: this machine, a private or special-purpose network, or the
 * public internet. Every spelling of an address is reduced to its numbers first, so
 * `[::ffff:127.0.0.1]`, `[::]`, `0.0.0.0` and `2130706433` are all seen for what they are.
 */
export type AddressKind = 'loopback' | 'private' | 'public';

function ipv4Kind(octets: readonly number[]): AddressKind {
  const [a, b] = octets as [number, number, number, number];
  // 0.0.0.0/8 "this host" connects to the machine itself on Linux and macOS.
  if (a === 0 || a === 127) return 'loopback';
  if (
    a === 10 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && octets[2] === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224 // multicast, reserved, broadcast
  )
    return 'private';
  return 'public';
}

function parseIpv4(text: string): number[] | null {
  if (isIP(text) !== 4) return null;
  return text.split('.').map(Number);
}

/** The eight 16-bit groups of an IPv6 address (with an embedded dotted IPv4 tail), or null. */
function parseIpv6(text: string): number[] | null {
  if (isIP(text) !== 6) return null;
  let s = text.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const v4 = parseIpv4(tail[1]!)!;
    s = `${s.slice(0, -tail[1]!.length)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const [head, rest] = s.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const missing = 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...right];
  return groups.length === 8 ? groups.map((g) => parseInt(g, 16)) : null;
}

export function addressKind(address: string): AddressKind {
  const bare = address.replace(/^\[|\]$/g, '');
  const v4 = parseIpv4(bare);
  if (v4) return ipv4Kind(v4);
  const g = parseIpv6(bare);
  if (!g) return 'private'; // not an address at all: never treat it as public
  const embedded = [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255];
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(8)) return 'loopback'; // :: (unspecified) reaches this machine
  if (zeros(7) && g[7] === 1) return 'loopback'; // ::1
  if (zeros(5) && g[5] === 0xffff) return ipv4Kind(embedded); // ::ffff:a.b.c.d (mapped)
  if (zeros(6)) return ipv4Kind(embedded) === 'public' ? 'private' : ipv4Kind(embedded); // ::a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return ipv4Kind(embedded); // NAT64
  if (g[0] === 0x2002) return ipv4Kind([g[1]! >> 8, g[1]! & 255, g[2]! >> 8, g[2]! & 255]); // 6to4
  if ((g[0]! & 0xfe00) === 0xfc00) return 'private'; // unique local
  if ((g[0]! & 0xffc0) === 0xfe80 || (g[0]! & 0xffc0) === 0xfec0) return 'private'; // link/site-local
  if ((g[0]! & 0xff00) === 0xff00) return 'private'; // multicast
  if (zeros(1) || g[0] === 0x100) return 'private'; // other reserved blocks, discard prefix
  return 'public';
}

/**
 * What a host name in a URI leads to, before any DNS lookup: an address literal is judged by
 * its numbers; `localhost` and `*.localhost`, with or without the trailing root dot, are this
 * machine. Any other name is judged again by the address it resolves to when a delivery connects.
 */
export function hostKind(hostname: string): AddressKind | 'name' {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
  if (isIP(host)) return addressKind(host);
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  return 'name';
}
