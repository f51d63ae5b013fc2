import { describe, expect, it } from 'vitest';
import { topLevelItems } from '../../../src/core/orders/json-items.js';
import { runAtOnce } from '../../../src/core/orders/slices.js';

const items = (text: string) => runAtOnce(topLevelItems(text));

describe('topLevelItems: a JSON array split into its items, so it can be parsed with pauses', () => {
  it.each([
    '[]',
    ' \n[ {"a": 1} ]\n',
    '\ufeff[{"a":"x, ]}{[\\"q"},[1,2],"s",3,true,null]',
    '[{"nested": {"list": [{"b": "c"}]}}, {"quote": "he said \\"hi\\", then ]"}]',
  ])('%j: each item parses to what JSON.parse gives for the whole', (text) => {
    const split = items(text);
    expect(split).not.toBeNull();
    expect(split!.map((s) => JSON.parse(s) as unknown)).toEqual(
      JSON.parse(text.replace(/^\ufeff/, '')),
    );
  });

  it.each(['{"orders": []}', '[1,]', '[,1]', '[1] x', '[1', '[{"a": 1}', '"text"', ''])(
    '%j: not a plain, whole array (the caller parses it whole and reports the error)',
    (text) => {
      expect(items(text)).toBeNull();
    },
  );
});
