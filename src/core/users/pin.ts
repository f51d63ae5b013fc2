import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * How PINs are kept: scrypt (node:crypto) with a random 16-byte salt per user, N = 2^15,
 * r = 8, p = 1, 32-byte key (about 32 MiB and some tens of milliseconds per check on a
 * station; OWASP's floor for scrypt is N = 2^17 with p = 1 or N = 2^15 with higher p, and a
 * 4–8 digit PIN is only ever tried at a station, never offline at scale, unless the site
 * store leaks; see docs/site.md "Users and roles"). Stored as
 * `scrypt$N$r$p$<salt base64>$<key base64>`, so the parameters can grow later and old hashes
 * still verify. Compared with timingSafeEqual.
 */
export const PIN_KDF = { N: 2 ** 15, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;

function derive(pin: string, salt: Buffer, N: number, r: number, p: number, keyLength: number) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(pin.normalize('NFKC'), salt, keyLength, { N, r, p, maxmem: 128 * N * r * 2 }, (e, k) =>
      e ? reject(e) : resolve(k),
    ),
  );
}

/** A PIN is 4 to 12 digits; anything else is said in words. */
export function pinProblem(pin: string): string | null {
  return /^\d{4,12}$/.test(pin) ? null : 'A PIN is 4 to 12 digits.';
}

export async function hashPin(pin: string): Promise<string> {
  const problem = pinProblem(pin);
  if (problem) throw new Error(problem);
  const { N, r, p, keyLength, saltLength } = PIN_KDF;
  const salt = randomBytes(saltLength);
  const key = await derive(pin, salt, N, r, p, keyLength);
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** True when `pin` is the one `stored` was made from (constant time over the key). */
export async function verifyPin(pin: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (!N || !r || !p || expected.length === 0) return false;
  const key = await derive(pin, salt, N, r, p, expected.length);
  return timingSafeEqual(key, expected);
}

/**
 * A badge barcode is looked up by its SHA-256 (unsalted: it must be found by the scan alone);
 * the store never keeps the code itself.
 */
export function badgeDigest(code: string): string {
  return createHash('sha256').update(code.trim()).digest('hex');
}
