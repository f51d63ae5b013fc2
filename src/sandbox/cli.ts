import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FixtureError, startSandbox } from './index.js';
import { watchLauncher } from './launcher.js';

const usage = `usage: npm run sandbox -- [--port N] [--host H] [--fixtures FILE] [--latency-ms N] [--token-ttl S] [--allow-http-webhooks]

A local Shipping Platform (docs/sandbox.md): point a profile's base URL at the address it prints.
  --port N               port to listen on (default 0: any free port, printed at start)
  --host H               interface to listen on (default 127.0.0.1)
  --fixtures FILE        the world to start with: tenants, sites, API keys, carrier accounts
                         (default resources/fixtures/demo-world.json; its API keys, e.g.
                         demo-lumen-full / demo-lumen-full-secret, are what a profile uses)
  --latency-ms N         wait N ms before each answer (default 0), as a distant platform would
  --token-ttl S          lifetime of the tokens it issues, in seconds (default 3600)
  --allow-http-webhooks  accept webhook URLs on loopback (http:// too), for local receivers`;

function intOption(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    process.stderr.write(`--${name} must be an integer >= ${min}, got "${value}"\n${usage}\n`);
    process.exit(2);
  }
  return n;
}

/**
 * `npm run` starts the script in the package root; a relative --fixtures path is meant from where
 * the command was typed (npm keeps that in INIT_CWD).
 */
function fixturesPath(path: string | undefined): string | undefined {
  if (path === undefined || isAbsolute(path)) return path;
  return resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        fixtures: { type: 'string' },
        'latency-ms': { type: 'string' },
        'token-ttl': { type: 'string' },
        'allow-http-webhooks': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  let sandbox;
  try {
    sandbox = await startSandbox({
      port: intOption('port', values.port, 0),
      host: values.host,
      fixtures: fixturesPath(values.fixtures),
      latencyMs: intOption('latency-ms', values['latency-ms'], 0),
      tokenTtlSeconds: intOption('token-ttl', values['token-ttl'], 1),
      allowHttpWebhooks: values['allow-http-webhooks'] ?? false,
    });
  } catch (error) {
    process.stderr.write(
      error instanceof FixtureError
        ? `${error.message}\n`
        : `sandbox failed to start: ${(error as Error).message}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`sandbox listening on ${sandbox.url}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    sandbox
      .close()
      .then(() => {
        process.stderr.write(`sandbox stopped (${signal})\n`);
        process.exit(0);
      })
      .catch((error: unknown) => {
        process.stderr.write(`sandbox failed to stop cleanly: ${String(error)}\n`);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  watchLauncher(() => stop('launcher gone'));
}

void main();
