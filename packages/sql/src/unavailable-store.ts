import type { ScimStore } from '@scimkit/core';
import { classifySqlError, isRetryableConflict } from './classify-sql-error.js';

export interface UnavailableOptions {
  /** Runs of a store call that fails with a serialization failure or deadlock before it is answered 503. Default 3. */
  readonly attempts?: number;
}

/**
 * The store with every driver failure sorted out (docs/stores/own-tables.md, "Timeouts and
 * failures"): a transient one (connection refused or lost, no connection in time, statement or lock
 * timeout, shutdown, too many connections, SQLite busy) rejects as a `StoreUnavailableError`, which
 * the server answers 503 with `Retry-After`; a serialization failure or deadlock first runs the
 * whole call again (its transaction was rolled back), up to `attempts` runs; anything else (a bug,
 * an unexpected constraint) passes through unchanged and stays a 500.
 */
export function withUnavailable<S extends ScimStore>(store: S, options: UnavailableOptions = {}): S {
  const attempts = Math.max(1, Math.floor(options.attempts ?? 3));
  const guarded = async <T>(call: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (attempt < attempts && isRetryableConflict(error)) {
          // Run the whole transaction again after a short random pause (PostgreSQL manual, "Serialization Failure Handling").
          await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
          continue;
        }
        throw classifySqlError(error) ?? error;
      }
    }
  };
  const referrers = store.referrers;
  const assign = store.assign;
  return {
    ...store,
    create: (type, resource, ctx) => guarded(() => store.create(type, resource, ctx)),
    get: (type, id, ctx) => guarded(() => store.get(type, id, ctx)),
    replace: (type, id, resource, expected, ctx) => guarded(() => store.replace(type, id, resource, expected, ctx)),
    ...(assign === undefined ? {} : { assign: (type: string, id: string, assignment: Parameters<typeof assign>[2], ctx: Parameters<typeof assign>[3]) => guarded(() => assign.call(store, type, id, assignment, ctx)) }),
    delete: (type, id, expected, ctx) => guarded(() => store.delete(type, id, expected, ctx)),
    query: (type, query, ctx) => guarded(() => store.query(type, query, ctx)),
    ...(referrers === undefined ? {} : { referrers: (lookup: Parameters<typeof referrers>[0], resources: Parameters<typeof referrers>[1], ctx?: Parameters<typeof referrers>[2]) => guarded(() => referrers.call(store, lookup, resources, ctx)) }),
  };
}
