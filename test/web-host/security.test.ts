import { describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  newToken,
  originAllowed,
  tokenMatches,
} from '../../src/web-host/security.js';
import { parseArgs } from '../../src/web-host/args.js';

describe('web host security', () => {
  it('accepts only the exact per-run token', () => {
    const token = newToken();
    expect(token.length).toBeGreaterThanOrEqual(40);
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(token, token.slice(0, -1))).toBe(false);
    expect(tokenMatches(token, '')).toBe(false);
    expect(tokenMatches(token, null)).toBe(false);
    expect(newToken()).not.toBe(token);
  });

  it('accepts only its own loopback origin', () => {
    expect(originAllowed('http://127.0.0.1:5000', 5000)).toBe(true);
    expect(originAllowed('http://localhost:5000', 5000)).toBe(true);
    expect(originAllowed('http://127.0.0.1:5001', 5000)).toBe(false);
    expect(originAllowed('https://evil.example', 5000)).toBe(false);
    expect(originAllowed(undefined, 5000)).toBe(false);
  });

  it('sends a CSP that allows the WASM label renderer but no eval, no plugins, no framing', () => {
    const csp = contentSecurityPolicy(5000);
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain('ws://127.0.0.1:5000');
    // Product pictures of an order (issue 15.1): https only.
    expect(csp).toContain("img-src 'self' data: blob: https:;");
    expect(csp).not.toMatch(/img-src[^;]*http:/);
  });
});

describe('npm run web arguments', () => {
  it('reads --port, --data-dir and --provision, in both spellings', () => {
    expect(
      parseArgs(['--port', '8080', '--data-dir', '/tmp/x', '--provision=/tmp/p.json']),
    ).toEqual({
      port: 8080,
      portGiven: true,
      dataDir: '/tmp/x',
      provision: '/tmp/p.json',
      hotFolderRoots: [],
      console: false,
      help: false,
    });
    expect(parseArgs(['--console'])).toMatchObject({ console: true });
  });
  it('listens on the documented fixed port 7410 unless --port is given', () => {
    expect(parseArgs([])).toMatchObject({ port: 7410, portGiven: false });
    expect(parseArgs(['--port', '0'])).toMatchObject({ port: 0, portGiven: true });
  });
  it('reads each --hot-folder-root', () => {
    expect(
      parseArgs(['--hot-folder-root', '/srv/a', '--hot-folder-root=/srv/b']).hotFolderRoots,
    ).toEqual(['/srv/a', '/srv/b']);
  });
  it('refuses unknown options and bad ports with the usage', () => {
    expect(() => parseArgs(['--bogus'])).toThrow(/usage: npm run web/);
    expect(() => parseArgs(['--port', '70000'])).toThrow(/0\.\.65535/);
    expect(() => parseArgs(['--data-dir'])).toThrow(/needs a value/);
  });
});
