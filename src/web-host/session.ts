import { randomBytes } from 'node:crypto';
import { tokenMatches } from './security.js';

export const SESSION_COOKIE = 'station_session';

/**
 * The session cookie's name for a host on `port`. A browser keeps cookies per host name, not per
 * port: two stations' pages open in one browser on one computer (127.0.0.1:7410 and :7411, a
 * lead's console beside a station) would each replace the other's cookie under one name, and the
 * page opened first could no longer upload an orders file, reconnect or reload.
 */
export const sessionCookieName = (port: number): string => `${SESSION_COOKIE}_${port}`;

/**
 * The per-run token is printed once (`station ui at …?token=…`) and can be used once: the first
 * page load trades it for a session cookie (`HttpOnly; SameSite=Strict`), so what stays in the
 * browser's history, a screenshot or a shoulder-surfed address bar opens nothing. Every later
 * request, the contract's WebSocket included, is authorised by the cookie.
 */
export class WebSessions {
  private tokenUsed = false;
  private readonly sessions: string[] = [];
  /** The cookie's name: set to the port's (sessionCookieName) once the host listens. */
  cookieName = SESSION_COOKIE;

  constructor(private readonly token: string) {}

  /** A new session for the one-time token, or null (wrong token, or already used). */
  exchange(given: string | null): string | null {
    if (this.tokenUsed || !tokenMatches(this.token, given)) return null;
    this.tokenUsed = true;
    const session = randomBytes(32).toString('base64url');
    this.sessions.push(session);
    return session;
  }

  valid(cookieHeader: string | undefined): boolean {
    const given = readCookie(cookieHeader, this.cookieName);
    return given !== null && this.sessions.some((s) => tokenMatches(s, given));
  }

  /** Why a request without a valid session has none: a cookie of an earlier run, or none. */
  whyNot(cookieHeader: string | undefined): 'earlier-run' | 'missing' {
    return readCookie(cookieHeader, this.cookieName) === null ? 'missing' : 'earlier-run';
  }
}

/**
 * Kept by the browser for a shift (12 h), not only while it stays open: a browser that crashed
 * or was restarted at a packing station comes back to the running station, instead of a page
 * that says to restart it (losing the sign-in and a password typed in Settings). It opens the
 * station only while this run of the host lasts (its sessions are in its memory).
 */
export const SESSION_MAX_AGE_S = 12 * 60 * 60;

export function sessionCookie(session: string, name = SESSION_COOKIE): string {
  return `${name}=${session}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_MAX_AGE_S}`;
}

function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The page a browser gets without a valid session: how to open the station, not an empty one. */
export function openHowPage(reason: 'used' | 'missing' | 'earlier-run'): string {
  const why =
    reason === 'used'
      ? 'This address was already used, or belongs to an earlier run of the station. Each address printed by <code>npm run web</code> opens the station once, in one browser.'
      : reason === 'earlier-run'
        ? 'This browser was let in to an earlier run of the station, which has since stopped or been restarted. Its new run printed a new address when it started: open that one.'
        : 'This browser has not been let in to the station yet.';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shipping Station: open it from its address</title>
<style>body{font:16px system-ui,sans-serif;background:#0f1419;color:#e6e6e6;max-width:40em;margin:4em auto;padding:0 1em}code{background:#222a33;padding:.1em .3em;border-radius:3px}</style>
</head><body>
<h1>Open Shipping Station from the address it printed</h1>
<p>${why}</p>
<p>On the computer running the station, look at the window where <code>npm run web</code> was started: its first line reads <code>station ui at http://127.0.0.1:PORT/?token=…</code>. Open that exact address in this browser.</p>
<p>If that address was already used, or the station was restarted, stop it (Ctrl+C) and start <code>npm run web</code> again: it prints a new address.</p>
</body></html>
`;
}
