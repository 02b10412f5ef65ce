/**
 * How many generated cases a fuzz property runs. `npm test` runs `normal` (enough to matter, a few
 * seconds each); `npm run fuzz` sets FUZZ_RUNS (default 20,000) and every property runs that many,
 * scaled by its weight. FUZZ_SEED replays a failure fast-check reported.
 */
export function fuzzRuns(normal: number, weight = 1): number {
  const asked = Number(process.env['FUZZ_RUNS']);
  return Number.isSafeInteger(asked) && asked > 0 ? Math.max(1, Math.round(asked * weight)) : normal;
}

/** fast-check parameters: the runs, and the seed when FUZZ_SEED is set. */
export function fuzzParameters(normal: number, weight = 1): { numRuns: number; seed?: number } {
  const seed = Number(process.env['FUZZ_SEED']);
  return { numRuns: fuzzRuns(normal, weight), ...(Number.isSafeInteger(seed) ? { seed } : {}) };
}

/** A test timeout for `runs` cases of about `msPerCase` each, never below `floor`. */
export function fuzzTimeout(runs: number, msPerCase: number, floor = 30_000): number {
  return Math.max(floor, Math.ceil(runs * msPerCase * 4));
}
