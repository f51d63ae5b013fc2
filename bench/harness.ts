// Benchmark plumbing: figures are printed as one JSON line each (for machines) and a short
// human summary at the end (for people). Benchmarks measure; tests assert behaviour.

export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** The target from issue 6 this figure is held against, when there is one. */
  target?: { op: '<=' | '>='; value: number };
  [extra: string]: unknown;
}

const figures: Figure[] = [];

export function report(figure: Figure): void {
  figures.push(figure);
  console.log(JSON.stringify(figure));
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function summarize(samples: readonly number[]): {
  p50: number;
  p95: number;
  max: number;
  n: number;
} {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted[sorted.length - 1] ?? Number.NaN),
    n: sorted.length,
  };
}

export function round(n: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function meets(f: Figure): boolean | undefined {
  if (!f.target) return undefined;
  return f.target.op === '<=' ? f.value <= f.target.value : f.value >= f.target.value;
}

export function humanSummary(): string {
  const lines = ['', 'summary'];
  for (const f of figures) {
    const ok = meets(f);
    const mark = ok === undefined ? '  ' : ok ? 'ok' : '!!';
    const target = f.target ? `  (target ${f.target.op} ${f.target.value} ${f.unit})` : '';
    lines.push(`  ${mark} ${f.name.padEnd(44)} ${String(f.value).padStart(12)} ${f.unit}${target}`);
  }
  return lines.join('\n');
}

export function allFigures(): readonly Figure[] {
  return figures;
}
