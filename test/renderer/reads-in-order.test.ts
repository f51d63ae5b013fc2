import { describe, expect, it } from 'vitest';
import { readsInOrder } from '../../src/renderer/src/lib/reads-in-order';

/** A read whose answer comes when the test says, as the station's answers do on a busy machine. */
function reader() {
  const reads = readsInOrder();
  const shown: string[] = [];
  const read = () => {
    const n = reads.ask();
    return (answer: string) => {
      if (reads.take(n)) shown.push(answer);
    };
  };
  return { reads, shown, read };
}

describe("the page's repeated reads (its session)", () => {
  it('an older answer arriving after a newer one is dropped', () => {
    const { shown, read } = reader();
    const before = read(); // asked while Ana was still signed in
    const after = read(); // asked once the station signed her out
    after('signed out');
    before('Ana Ruiz');
    expect(shown).toEqual(['signed out']);
  });

  it('reads asked one after another, each answered before the next is asked back, all land', () => {
    // Status events faster than the station answers: each asks again before the last answered.
    const { shown, read } = reader();
    const first = read();
    const second = read();
    first('signed out');
    const third = read();
    second('signed out');
    third('signed out');
    expect(shown).toEqual(['signed out', 'signed out', 'signed out']);
  });

  it("a sign-in's own answer outranks every read asked before it", () => {
    const { reads, shown, read } = reader();
    const earlier = read();
    reads.supersede();
    shown.push('Bo Lindqvist (signed in)');
    earlier('nobody');
    expect(shown).toEqual(['Bo Lindqvist (signed in)']);
  });
});
