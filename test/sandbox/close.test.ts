import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;

describe('close()', () => {
  it('leaves nothing running: the process exits at once with work in flight', async () => {
    const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['test/sandbox/close-child.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let closedAt = 0;
    let resources: string[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('closed ')) return;
      closedAt = performance.now();
      resources = JSON.parse(line.slice('closed '.length)) as string[];
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(closedAt).toBeGreaterThan(0);
    // No timer (tracker plan, delivery time-out, delay fault) and no socket is left.
    expect(resources.filter((r) => !['PipeWrap', 'TTYWrap', 'Immediate'].includes(r))).toEqual([]);
  }, 30_000);
});
