import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clock, clockOrWhen, when } from '../../src/renderer/src/lib/when';

const renderer = join(__dirname, '../../src/renderer/src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('one time format throughout the station', () => {
  it('writes a time of day as "18:39" (24-hour, no seconds), another day with its date', () => {
    const evening = new Date(2026, 10, 29, 18, 39, 23);
    expect(clock(evening)).toMatch(/^18[:.]39$/);
    expect(clock(new Date(2026, 10, 29, 6, 5, 0))).toMatch(/^06[:.]05$/);
    expect(clockOrWhen(evening, new Date(2026, 10, 29, 20, 0))).toBe(clock(evening));
    const yesterday = new Date(2026, 10, 28, 15, 22, 0);
    expect(clockOrWhen(yesterday, new Date(2026, 10, 29, 20, 0))).toBe(
      when(yesterday.toISOString(), new Date(2026, 10, 29, 20, 0)),
    );
    expect(clockOrWhen(yesterday, new Date(2026, 10, 29, 20, 0))).toMatch(/15[:.]22$/);
  });

  it('no view formats a time by itself (Settings → Site store showed "6:39:23 PM" beside "18:39")', () => {
    const own = sources(renderer)
      .filter((f) => !f.endsWith(join('lib', 'when.ts')))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${relative(renderer, f)}:${i + 1}` }))
          .filter(
            ({ line }) =>
              /toLocaleTimeString\(/.test(line) ||
              /(new Date\([^)]*\)|\bat|\bdate|\bd)\.toLocaleString\(/.test(line),
          )
          .map(({ at }) => at),
      );
    expect(own).toEqual([]);
  });
});
