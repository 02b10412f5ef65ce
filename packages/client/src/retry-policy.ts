/** Retries of answers that say "try again later" (RFC 6585 §4 429, RFC 9110 §15.6.4 503). */
export interface RetryOptions {
  /** How many times one request is retried. Default 2. */
  readonly retries?: number;
  /** Statuses retried. Default `[429, 503]`. */
  readonly statuses?: readonly number[];
  /**
   * The longest wait accepted: a `Retry-After` asking for more is not waited for (the answer is
   * returned as it is). Default 30,000 ms.
   */
  readonly maxDelayMs?: number;
  /** The wait when the answer has no `Retry-After`: `baseDelayMs × 2^attempt`. Default 250 ms. */
  readonly baseDelayMs?: number;
}

export interface RetryPolicy {
  readonly retries: number;
  readonly statuses: readonly number[];
  readonly maxDelayMs: number;
  readonly baseDelayMs: number;
}

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { retries: 0, statuses: [], maxDelayMs: 0, baseDelayMs: 0 };
  const retries = options?.retries ?? 2;
  if (!Number.isInteger(retries) || retries < 0) throw new TypeError(`retry.retries must be a non-negative integer, got ${String(retries)}`);
  return {
    retries,
    statuses: options?.statuses ?? [429, 503],
    maxDelayMs: options?.maxDelayMs ?? 30_000,
    baseDelayMs: options?.baseDelayMs ?? 250,
  };
}
