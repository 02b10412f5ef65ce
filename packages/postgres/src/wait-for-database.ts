import { classifyError } from './classify-error.js';

export interface StartupOptions {
  /** How long to keep retrying while the database is unavailable, in milliseconds. Default 60,000; 0 tries once. */
  readonly timeoutMs?: number;
  /** The first pause between attempts, doubled after each failure. Default 250. */
  readonly initialDelayMs?: number;
  /** The longest pause between attempts. Default 5,000. */
  readonly maxDelayMs?: number;
  /** Told of every failed attempt before the pause (to log "waiting for the database"). */
  readonly onRetry?: (info: { readonly attempt: number; readonly delayMs: number; readonly error: Error }) => void;
}

/**
 * Runs `attempt` until it succeeds, retrying with capped exponential backoff and jitter while it
 * fails with a transient database error (refused, lost, shutting down, timed out), for at most
 * `timeoutMs`. A failure that is not transient (a wrong password, a missing database), or a
 * transient one past the deadline, rejects with that error: start-up then fails loudly instead of
 * retrying something that cannot succeed.
 */
export async function waitForDatabase<T>(attempt: () => Promise<T>, options: StartupOptions = {}): Promise<T> {
  const deadline = Date.now() + Math.max(0, options.timeoutMs ?? 60_000);
  const maxDelay = Math.max(1, options.maxDelayMs ?? 5_000);
  let delay = Math.min(maxDelay, Math.max(1, options.initialDelayMs ?? 250));
  for (let count = 1; ; count++) {
    try {
      return await attempt();
    } catch (error) {
      const transient = classifyError(error);
      const remaining = deadline - Date.now();
      if (transient === undefined || remaining <= 0) throw error;
      // Jitter (half the delay, plus up to the other half at random) keeps instances that started together from retrying in step.
      const pause = Math.min(remaining, delay / 2 + Math.random() * (delay / 2));
      options.onRetry?.({ attempt: count, delayMs: Math.round(pause), error: transient });
      await new Promise((resolve) => setTimeout(resolve, pause));
      delay = Math.min(maxDelay, delay * 2);
    }
  }
}
