import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { contentSecurityPolicy as sharedPolicy } from '../shared/csp.js';

/** A per-run token: 32 random bytes, URL-safe. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** Constant-time comparison; hashing first makes the lengths equal without leaking them. */
export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

/** The only origins (and Host headers) the web host answers: itself on loopback. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function originAllowed(origin: string | undefined, port: number): boolean {
  if (!origin) return false;
  return allowedHosts(port).some((h) => origin === `http://${h}`);
}

export function contentSecurityPolicy(port: number): string {
  return sharedPolicy([`ws://127.0.0.1:${port}`, `ws://localhost:${port}`]);
}
