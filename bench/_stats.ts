/**
 * Timing and printing shared by the per-endpoint benchmarks: run a step sequentially (warm-up
 * first, untimed), then summarise the samples by percentile. Figures only; nothing asserts.
 */

/** The value at fraction `p` (0…1) of an ascending-sorted, non-empty list. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** The median of `xs` (any order, non-empty), as `percentile` reads it. */
export function median(xs: readonly number[]): number {
  return percentile([...xs].sort((a, b) => a - b), 0.5);
}

/** Runs `run(i)` `warmup` times untimed, then `iterations` times; returns each run's ms. */
export async function measure(
  run: (i: number) => Promise<void> | void,
  { warmup, iterations }: { warmup: number; iterations: number },
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await run(i);
    samples.push(performance.now() - start);
  }
  return samples;
}

/**
 * Prints one line: `label` padded to `width`, the sample count, p50/p90/p99, mean and max in
 * ms with three decimals.
 */
export function report(label: string, samples: readonly number[], width: number): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => percentile(sorted, p).toFixed(3);
  const mean = sorted.reduce((s, v) => s + v, 0) / sorted.length;
  console.log(
    `  ${label.padEnd(width)} n=${String(sorted.length).padEnd(6)} p50 ${at(0.5)} ms` +
      `  p90 ${at(0.9)} ms  p99 ${at(0.99)} ms  mean ${mean.toFixed(3)} ms` +
      `  max ${sorted.at(-1)!.toFixed(3)} ms`,
  );
}
