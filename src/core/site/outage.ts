import { neverAnsweredWords, type SiteProblem } from './errors.js';

/** What a station does in an outage under the site's offline rule "refuse", for the log. */
export const REFUSE_MEANWHILE =
  'This site buys no label while the site store is away (site IT set it so): this station buys nothing until it answers, and sends what it has when it does.';

/** How often a store that stays away is mentioned again in the log. */
export const OUTAGE_REMINDER_MS = 5 * 60_000;

/** "4 s", "3 min 12 s", "2 h 5 min": how long the store was away, for the log. */
export function outageDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/**
 * The log of one retry loop that talks to the site store (the outbox's drainer, the tracker
 * election). The loops try again every few seconds for as long as an outage lasts; the log says
 * when the store went away (once, with why, and again only when the reason changes kind),
 * reminds every `remindEveryMs` while it stays away, and says once when it answers again and
 * how long it was away. Without it a night-long outage was a line every 4 s.
 */
export class OutageLog {
  /** When the first failed attempt of this outage was made; null while the store answers. */
  private since: number | null = null;
  private kind: SiteProblem['kind'] | null = null;
  private saidAt = 0;

  constructor(
    private readonly o: {
      /** What the lines start with: "site store", "site trackers". */
      what: string;
      log?: ((line: string) => void) | undefined;
      /** Default OUTAGE_REMINDER_MS; tests shorten it rather than wait minutes. */
      remindEveryMs?: number | undefined;
      /**
       * Whether this station has reached the store at its address: one it never has is an
       * address to check, not an outage it "works on its own" through (neverAnsweredWords).
       */
      reached?: (() => boolean) | undefined;
      /**
       * The site's offline rule is "refuse" (as last read): an outage in which this station buys
       * nothing, said so instead of "works on its own".
       */
      refuses?: (() => boolean) | undefined;
      url?: string | undefined;
      now?: () => number;
    },
  ) {}

  /** The problem as the log says it. */
  private said(problem: SiteProblem): string {
    const { reached, url, refuses } = this.o;
    if (problem.kind !== 'unreachable') return problem.message;
    if (reached && url && !reached())
      return `${neverAnsweredWords(url, problem)} Until it answers, this station buys no label.`;
    return refuses?.() ? `${problem.fact ?? problem.message} ${REFUSE_MEANWHILE}` : problem.message;
  }

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }

  /** An attempt failed. */
  failed(problem: SiteProblem): void {
    const now = this.now();
    if (this.since === null || problem.kind !== this.kind) {
      this.since ??= now;
      this.kind = problem.kind;
      this.saidAt = now;
      this.o.log?.(`${this.o.what}: ${this.said(problem)}`);
      return;
    }
    if (now - this.saidAt < (this.o.remindEveryMs ?? OUTAGE_REMINDER_MS)) return;
    this.saidAt = now;
    this.o.log?.(
      `${this.o.what}: still not working after ${outageDuration(now - this.since)}: ${this.said(problem)}`,
    );
  }

  /** An attempt went through: said once after an outage, with its length. */
  answered(): void {
    if (this.since === null) return;
    this.o.log?.(
      `${this.o.what}: answering again after ${outageDuration(this.now() - this.since)} away`,
    );
    this.since = null;
    this.kind = null;
  }
}
