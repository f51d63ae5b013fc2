import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodIssueWords } from '../../src/shared/zod-words.js';

/** The words for each problem of `value` against `schema`, by path. */
function words(schema: z.ZodType, value: unknown): Record<string, string> {
  const r = schema.safeParse(value);
  if (r.success) return {};
  return Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), zodIssueWords(i)]));
}

describe("zod's default messages in words for the station", () => {
  it('says what each field must be, after its name', () => {
    const schema = z.object({
      maxTransitDays: z.number().int().min(1),
      strategy: z.enum(['cheapest', 'fastest']),
      name: z.string(),
      label: z.string().min(1),
      code: z.string().min(3).max(5),
      boxes: z.array(z.string()).min(1),
      presets: z.object({}),
      share: z.number().lt(1),
    });
    expect(
      words(schema, {
        maxTransitDays: 0,
        strategy: 'slowest',
        label: '',
        code: 'ab',
        boxes: [],
        presets: 3,
        share: 2,
      }),
    ).toEqual({
      maxTransitDays: 'must be at least 1',
      strategy: 'must be one of "cheapest", "fastest"',
      name: 'is missing',
      label: 'must not be empty',
      code: 'must be at least 3 characters long',
      boxes: 'must list at least one',
      presets: 'must be an object ({ … })',
      share: 'must be less than 1',
    });
    expect(words(z.object({ n: z.number().int() }), { n: 1.5 })).toEqual({
      n: 'must be a whole number',
    });
  });

  it("keeps a schema's own message as it is", () => {
    const schema = z.object({
      day: z.string().regex(/^\d{4}-\d\d-\d\d$/, 'not a date (use YYYY-MM-DD)'),
    });
    expect(words(schema, { day: 'yesterday' })).toEqual({ day: 'not a date (use YYYY-MM-DD)' });
  });
});
