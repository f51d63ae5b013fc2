import { spawn } from 'node:child_process';
import type { SecretVault } from './secret-vault.js';

/**
 * Client secrets in the OS keychain for hosts without Electron's safeStorage (the web host):
 * the Secret Service on Linux through `secret-tool` (libsecret-tools), the login keychain on
 * macOS through `security`. A secret never travels on a command line (where `ps` would show
 * it): it goes through the tool's standard input. Where there is no keychain, detection says
 * why and the host keeps secrets in memory; there is no home-made encryption fallback.
 */

const SERVICE = 'shipping-station';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export type RunTool = (command: string, args: string[], input?: string) => Promise<Run>;

const runTool: RunTool = (command, args, input) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', (error) => resolve({ code: null, stdout, stderr: error.message }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });

export class KeychainError extends Error {
  readonly code = 'keychain-unavailable';
  constructor(message: string) {
    super(message);
    this.name = 'KeychainError';
  }
}

interface Backend {
  name: string;
  store(key: string, secret: string): Promise<Run>;
  lookup(key: string): Promise<Run>;
  clear(key: string): Promise<Run>;
}

function secretService(run: RunTool): Backend {
  const attrs = (key: string) => ['application', SERVICE, 'key', key];
  return {
    name: 'the Secret Service (secret-tool)',
    store: (key, secret) =>
      run('secret-tool', ['store', '--label', `Shipping Station ${key}`, ...attrs(key)], secret),
    lookup: (key) => run('secret-tool', ['lookup', ...attrs(key)]),
    clear: (key) => run('secret-tool', ['clear', ...attrs(key)]),
  };
}

/** `security -i` reads its commands from stdin, so the secret stays off the command line. */
function macKeychain(run: RunTool): Backend {
  const quote = (s: string) => `"${s.replace(/(["\\])/g, '\\$1')}"`;
  return {
    name: 'the macOS keychain (security)',
    store: (key, secret) =>
      run(
        'security',
        ['-i'],
        `add-generic-password -U -s ${SERVICE} -a ${quote(key)} -w ${quote(secret)}\n`,
      ),
    lookup: (key) => run('security', ['find-generic-password', '-s', SERVICE, '-a', key, '-w']),
    clear: (key) => run('security', ['delete-generic-password', '-s', SERVICE, '-a', key]),
  };
}

export class OsKeychainVault implements SecretVault {
  /** Read once per process: a token request then does not start a tool each time. */
  private readonly cache = new Map<string, string>();

  constructor(private readonly backend: Backend) {}

  /** Where the secrets are, in words for site IT. */
  get description(): string {
    return this.backend.name;
  }

  async set(key: string, secret: string): Promise<void> {
    const r = await this.backend.store(key, secret);
    if (r.code !== 0)
      throw new KeychainError(
        `The secret could not be stored in ${this.backend.name}: ${firstLine(r.stderr) || `exit ${r.code}`}.`,
      );
    this.cache.set(key, secret);
  }

  async get(key: string): Promise<string | undefined> {
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const r = await this.backend.lookup(key);
    // Both tools exit non-zero for "no such item"; only a printed secret counts.
    const secret = r.code === 0 ? r.stdout.replace(/\r?\n$/, '') : '';
    if (!secret) return undefined;
    this.cache.set(key, secret);
    return secret;
  }

  async has(key: string): Promise<boolean> {
    return (await this.get(key)) !== undefined;
  }

  async delete(key: string): Promise<void> {
    this.cache.delete(key);
    await this.backend.clear(key);
  }
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

/**
 * The OS keychain of this machine, or why there is none. A probe looks up a key that does not
 * exist: a working keychain answers "not found" quietly; a missing tool or an unreachable
 * Secret Service (no desktop session, no D-Bus) answers with an error.
 */
export async function detectOsKeychain(
  options: { platform?: NodeJS.Platform; run?: RunTool } = {},
): Promise<{ vault: OsKeychainVault } | { vault: null; reason: string }> {
  const platform = options.platform ?? process.platform;
  const run = options.run ?? runTool;
  let backend: Backend;
  if (platform === 'linux') backend = secretService(run);
  else if (platform === 'darwin') backend = macKeychain(run);
  else
    return {
      vault: null,
      reason: `no OS keychain is supported for the web host on ${platform}; use the Electron app (Windows credential store through safeStorage) or a provisioned clientSecretEnv`,
    };
  const probe = await backend.lookup('probe:not-a-real-key');
  if (probe.code === null)
    return {
      vault: null,
      reason:
        platform === 'linux'
          ? 'secret-tool is not installed (Debian/Ubuntu: apt-get install libsecret-tools, with a keyring such as gnome-keyring running)'
          : 'the security tool is not available',
    };
  if (probe.stderr.trim())
    return {
      vault: null,
      reason: `${backend.name} is not reachable: ${firstLine(probe.stderr)}`,
    };
  return { vault: new OsKeychainVault(backend) };
}
