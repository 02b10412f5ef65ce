/** Marks a {@link StoreUnavailableError} across copies of `@scimkit/core` (an ESM and a CJS copy in one process). */
const UNAVAILABLE = Symbol.for('scimkit.storeUnavailable');

export interface StoreUnavailableOptions {
  /**
   * Seconds after which a retry may succeed, sent as `Retry-After` (RFC 9110 §10.2.3). Default 1;
   * rounded up to a whole number of seconds, at least 1.
   */
  readonly retryAfterSeconds?: number;
  /** The driver's own error, for the logger (never shown to the client). */
  readonly cause?: unknown;
}

/**
 * What a store throws when it cannot answer now but may in a moment: the connection to its database
 * was refused or lost, no connection came free in time, a statement or lock wait timed out, the
 * database is shutting down or failing over. The server answers it with 503 and `Retry-After`
 * (RFC 7644 §3.12, RFC 9110 §15.6.4) and reports it to its logger; any other throw is a bug and
 * stays a 500. The message is the 503's `detail`: write it for the client ("the database connection
 * was lost"), with no host names or credentials. See docs/writing-a-store.md.
 */
export class StoreUnavailableError extends Error {
  /** Whole seconds, at least 1: the `Retry-After` the server sends. */
  readonly retryAfterSeconds: number;

  constructor(message: string, options: StoreUnavailableOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StoreUnavailableError';
    const seconds = options.retryAfterSeconds;
    this.retryAfterSeconds = typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 1 ? Math.ceil(seconds) : 1;
    Object.defineProperty(this, UNAVAILABLE, { value: true });
  }

  /** True for a StoreUnavailableError, from this copy of the core or another one. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[UNAVAILABLE] === true;
  }
}

/** Whether `error` says the store is unavailable for now (a {@link StoreUnavailableError}). */
export function isStoreUnavailable(error: unknown): error is StoreUnavailableError {
  return error instanceof StoreUnavailableError;
}

/**
 * The same answer again, for a call that did not reach the store because an earlier one found it
 * unavailable (a write queued behind it, a later call of the same request): its message and
 * `Retry-After`, with it as the cause. A function, not a method: `earlier` may come from another
 * copy of the core.
 */
export function unavailableAgain(earlier: StoreUnavailableError): StoreUnavailableError {
  return new StoreUnavailableError(earlier.message, { retryAfterSeconds: earlier.retryAfterSeconds, cause: earlier });
}
