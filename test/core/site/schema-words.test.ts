import { describe, expect, it } from 'vitest';
import { SITE_SCHEMA_FEATURES } from '../../../src/core/site/schema.js';
import { olderSchemaWords } from '../../../src/core/site/sync.js';

// What `npm run site -- status`, the log and Settings → Site store say of a store older than
// this version (no PostgreSQL needed: the words alone).

describe('the words for a store at an older schema', () => {
  it('a later migration that adds nothing a station does without is not said as an empty list', () => {
    // A migration with no SITE_SCHEMA_FEATURES entry (an index, a grant): schema 8 adds nothing.
    const { 8: _packages, 9: _manifests, ...withoutEight } = SITE_SCHEMA_FEATURES;
    const words = olderSchemaWords(7, withoutEight, 8);
    expect(words).toMatch(
      /^The site store is at schema 7; this version of Shipping Station knows 8\. Everything works on it as it is: the later migrations add nothing this station does without\. Site IT runs npm run site -- migrate/,
    );
    expect(words).not.toMatch(/works but \./);
  });

  it('says what a station of an older version does with a store migrated past it: it buys nothing', () => {
    const words = olderSchemaWords(7);
    expect(words).toContain("Everything works but End of day for the whole site (each label's");
    expect(words).toContain(
      'A station of schema 5 or later that cannot follow a store migrated past it stops using it and buys nothing until it is updated',
    );
    expect(words).not.toMatch(/packs on its own|as in an outage/);
  });
});
