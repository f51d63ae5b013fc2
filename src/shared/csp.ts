/**
 * The renderer's Content-Security-Policy, one for both hosts: the Electron host sends it as a
 * response header, the web host on every page it serves (with its WebSocket as the only other
 * place to connect). The meta tag in src/renderer/index.html is a fallback of the same policy.
 */
export function contentSecurityPolicy(connectSrc: readonly string[] = []): string {
  return [
    "default-src 'self'",
    // zpl-renderer-js is a WebAssembly module: compiling it needs 'wasm-unsafe-eval' (not 'unsafe-eval').
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    // https: product pictures named by the order file (issue 15.1, scan to verify); never http:.
    // Images cannot run code; the renderer loads them without a referrer.
    "img-src 'self' data: blob: https:",
    ["connect-src 'self'", ...connectSrc].join(' '),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
