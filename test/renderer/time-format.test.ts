import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clock, clockOrWhen, when } from '../../src/renderer/src/lib/when';
import { whenSaid } from '../../src/core/site/when-said';

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

describe("times in the core's sentences", () => {
  it('are written as the screens write them: "14:05" today, "11/27, 14:05" before', () => {
    const now = new Date(2026, 10, 29, 20, 0);
    expect(whenSaid(new Date(2026, 10, 29, 14, 5, 59), now)).toBe('14:05');
    expect(whenSaid(new Date(2026, 10, 27, 9, 5), now)).toBe('11/27, 09:05');
    expect(whenSaid(new Date(2025, 11, 31, 23, 59), now)).toBe('12/31/2025, 23:59');
  });

  it('no sentence of the core formats a time by itself (it said "2:05:33 PM" and "Nov 27 14:05")', () => {
    const core = join(__dirname, '../../src/core');
    const own = sources(core).flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${relative(core, f)}:${i + 1}` }))
        .filter(
          ({ line }) =>
            /toLocaleTimeString\(|toLocaleDateString\(|toTimeString\(\)|toDateString\(\)\.slice/.test(
              line,
            ) || /(new Date\([^)]*\)|_at|At)\.toLocaleString\(/.test(line),
        )
        .map(({ at }) => at),
    );
    expect(own).toEqual([]);
  });
});
