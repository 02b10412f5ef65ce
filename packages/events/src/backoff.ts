/** Retry timing: exponential backoff with full jitter. */
export interface BackoffOptions {
  /** First wait, in milliseconds. Default 500. */
  readonly baseMs?: number;
  /** Longest wait, in milliseconds. Default 60,000. */
  readonly maxMs?: number;
}

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1): a random time up to
 * `base · 2^(attempt-1)`, capped at `max`, and at least half of it, so retries spread out (full
 * jitter would allow ~0 waits) while the bound still doubles.
 */
export function retryDelay(attempt: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? 500;
  const max = options.maxMs ?? 60_000;
  const bound = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
  return bound / 2 + Math.random() * (bound / 2);
}
