/**
 * Answers to a read the page asks again and again (its session on each status event): an answer
 * is taken unless a read asked after it has already been taken, so an older answer arriving last
 * never puts back what a newer one replaced, and reads asked in a stream still each land in turn.
 */
export function readsInOrder() {
  let asked = 0;
  let taken = 0;
  return {
    /** A new read: its number. */
    ask: (): number => ++asked,
    /** Whether the answer to read `n` is to be taken (and, if so, it is). */
    take(n: number): boolean {
      if (n <= taken) return false;
      taken = n;
      return true;
    },
    /** What the page set itself (a sign-in's answer) is newer than every read asked before it. */
    supersede(): void {
      taken = ++asked;
    },
  };
}
