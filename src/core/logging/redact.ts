import type { SecretVault } from '../profiles/secret-vault.js';

/** What a secret is replaced with in logs and diagnostics. */
export const REDACTED = '[redacted]';

/** Keys whose values are secret wherever they appear (objects, JSON text, forms, headers). */
const SECRET_KEY =
  /^(?:client_?secret|secret|password|passwd|pgpassword|pass|token|access_?token|refresh_?token|id_?token|api_?key|authorization|cookie|set-cookie|private_?key)$/i;
const SECRET_KEY_SOURCE =
  '(?:client_?secret|secret|password|passwd|pgpassword|token|access_?token|refresh_?token|id_?token|api_?key)';

const TEXT_PATTERNS: [RegExp, string][] = [
  // Authorization: Bearer eyJ…, Basic dXNlcjpwYXNz (a header line or an error quoting it)
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  // "clientSecret": "…", 'password': '…', client_secret=…, password: … (JSON, forms, logs)
  [
    new RegExp(
      `(["']?\\b${SECRET_KEY_SOURCE}["']?\\s*[:=]\\s*)("[^"]*"|'[^']*'|[^\\s,&;}\\]]+)`,
      'gi',
    ),
    `$1${REDACTED}`,
  ],
  // A JSON Web Token wherever it appears (access tokens quoted in an error, a log line)
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
  // postgres://user:password@host, https://user:password@host
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi, `$1${REDACTED}@`],
];

/** Environment variables whose values are secrets (a provisioned profile's, the site store's). */
const SECRET_ENV = /^(?:STATION_SECRET_.+|PGPASSWORD)$/;

/**
 * The one redaction step between the station and its log file (and the diagnostics export).
 * Removes secrets three ways: by the key they are stored under (an object's `clientSecret`,
 * `password`, `authorization`…), by their shape in text (a bearer token, `client_secret=…`, a
 * password in a URL), and by value: every secret the vault hands out or takes, and the values of
 * STATION_SECRET_* / PGPASSWORD, is remembered and replaced wherever it appears.
 */
export class Redactor {
  private readonly known = new Set<string>();

  constructor(env: NodeJS.ProcessEnv = process.env) {
    for (const [name, value] of Object.entries(env))
      if (SECRET_ENV.test(name) && value) this.remember(value);
  }

  /** A secret value to replace wherever it appears (too short to be one: ignored). */
  remember(secret: string | undefined | null): void {
    if (typeof secret !== 'string') return;
    // Also as used: a variable's value is trimmed of the space or line break it came with.
    for (const value of new Set([secret, secret.trim()]))
      if (value.length >= 4) this.known.add(value);
  }

  text(input: string): string {
    let out = input;
    // Longest first, so a secret containing another is replaced whole.
    for (const secret of [...this.known].sort((a, b) => b.length - a.length))
      out = out.split(secret).join(REDACTED);
    for (const [pattern, replacement] of TEXT_PATTERNS) out = out.replace(pattern, replacement);
    return out;
  }

  /** A copy of any JSON-like value with secret keys blanked and every string redacted. */
  value(input: unknown, depth = 0): unknown {
    if (typeof input === 'string') return this.text(input);
    if (input === null || typeof input !== 'object' || depth > 8) return input;
    if (input instanceof Error)
      return {
        type: input.name,
        message: this.text(input.message),
        ...(input.stack ? { stack: this.text(input.stack) } : {}),
        ...('code' in input ? { code: (input as { code: unknown }).code } : {}),
      };
    if (Array.isArray(input)) return input.map((v) => this.value(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(input as Record<string, unknown>))
      out[key] =
        SECRET_KEY.test(key) && v !== null && v !== undefined ? REDACTED : this.value(v, depth + 1);
    return out;
  }
}

/**
 * The host's vault, unchanged, except that every secret going in or coming out is remembered by
 * the redactor: a client secret or site store password the station uses can then never reach
 * the log file, even inside an error message that quotes it.
 */
export function rememberingVault(vault: SecretVault, redactor: Redactor): SecretVault {
  const seen = <T>(value: T): T => {
    if (typeof value === 'string') redactor.remember(value);
    return value;
  };
  return {
    ...(vault.description !== undefined ? { description: vault.description } : {}),
    set: (key, secret) => {
      redactor.remember(secret);
      return vault.set(key, secret);
    },
    get: (key) => {
      const got = vault.get(key);
      return got instanceof Promise ? got.then(seen) : seen(got);
    },
    has: (key) => vault.has(key),
    delete: (key) => vault.delete(key),
  };
}
