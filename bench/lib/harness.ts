/**
 * What every benchmark part shares: timing (median of runs, with spread), the machine, printing
 * tables, and writing `bench/results/<part>.json`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * Time is the process's CPU time (user + system, `process.cpuUsage`), not the wall clock: on a
 * shared machine another process's load then does not count against whichever contender happened
 * to run during it. BENCH_CLOCK=wall measures the wall clock instead.
 */
const WALL = process.env.BENCH_CLOCK === 'wall';
export function now(): number {
  if (WALL) return performance.now();
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Runs of every measure (the issue asks for the median of at least 5). */
export const RUNS = Number(process.env.BENCH_RUNS ?? 5);

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** A measure over runs: median, min and max, and the spread ((max − min) / median). */
export interface Measure {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly spread: number;
  readonly runs: readonly number[];
}

export function measure(values: readonly number[]): Measure {
  const m = median(values);
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { median: m, min, max, spread: m === 0 ? 0 : (max - min) / m, runs: values };
}

/**
 * Operations per second of each contender, measured interleaved (one run of each in turn, `RUNS`
 * times) so none gets a quieter machine; each run calls the function for about `ms` milliseconds
 * after a warm-up.
 */
export function opsPerSecond(contenders: Record<string, () => unknown>, ms = 200): Record<string, Measure> {
  const names = Object.keys(contenders);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const batch: Record<string, number> = {};
  for (const name of names) {
    const run = contenders[name] as () => unknown;
    // Warm up and size a batch of ~ms/10.
    let n = 1;
    for (;;) {
      const started = now();
      for (let i = 0; i < n; i++) run();
      const elapsed = now() - started;
      if (elapsed > ms / 10 || n > 1e7) break;
      n *= 2;
    }
    batch[name] = n;
  }
  for (let r = 0; r < RUNS; r++) {
    for (const name of names) {
      const run = contenders[name] as () => unknown;
      const n = batch[name] as number;
      let calls = 0;
      const started = now();
      let elapsed = 0;
      do {
        for (let i = 0; i < n; i++) run();
        calls += n;
        elapsed = now() - started;
      } while (elapsed < ms);
      (samples[name] as number[]).push((calls / elapsed) * 1000);
    }
  }
  return Object.fromEntries(names.map((n) => [n, measure(samples[n] as number[])]));
}

/** Median milliseconds of `RUNS` calls of each contender, interleaved, after one warm-up call each. */
export function milliseconds(contenders: Record<string, () => unknown>, runs = RUNS): Record<string, Measure> {
  const names = Object.keys(contenders);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const name of names) (contenders[name] as () => unknown)();
  for (let r = 0; r < runs; r++) {
    for (const name of names) {
      const started = now();
      (contenders[name] as () => unknown)();
      (samples[name] as number[]).push(now() - started);
    }
  }
  return Object.fromEntries(names.map((n) => [n, measure(samples[n] as number[])]));
}

export function machine(): Record<string, unknown> {
  const list = cpus();
  return {
    cpu: list[0]?.model ?? 'unknown',
    cores: list.length,
    memoryGB: +(totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: loadavg().map((l) => +l.toFixed(2)),
    clock: WALL ? 'wall' : 'process CPU time',
  };
}

/** Rounds for tables: 3 significant digits. */
export function round(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(value))));
  return +value.toFixed(Math.min(digits, 6));
}

export function table(title: string, rows: readonly Record<string, unknown>[]): void {
  console.log(`\n${title}`);
  console.table(rows);
}

const RESULTS = fileURLToPath(new URL('../results/', import.meta.url));

/** Writes `bench/results/<part>.json`: the machine, Node, runs, and the part's measures. */
export function writeResult(part: string, data: Record<string, unknown>): void {
  mkdirSync(RESULTS, { recursive: true });
  const file = `${RESULTS}${part}.json`;
  writeFileSync(file, JSON.stringify({ part, date: new Date().toISOString(), machine: machine(), runs: RUNS, ...data }, null, 2) + '\n');
  console.log(`\n→ ${file.replace(process.cwd() + '/', '')}`);
}

/** Throws when a contender disagrees with the reference: a benchmark of a wrong answer is worthless. */
export function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`check failed: ${message}`);
}
