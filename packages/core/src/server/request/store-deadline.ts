import type { ScimStore } from '../../store/scim-store.js';
import { StoreUnavailableError, unavailableAgain } from '../../store/store-unavailable.js';

/** What the store calls of one request (every operation of a Bulk request) share. */
export interface StoreDeadlineState {
  /** The first `StoreUnavailableError` a call of the request met: later calls fail with it at once. */
  unavailable?: StoreUnavailableError;
}

/**
 * The store as one request (or one Bulk operation) sees it: its calls together end within
 * `budgetMs` from now (ScimServerConfig.storeDeadlineMs). A call still running at the deadline is
 * answered `StoreUnavailableError` (the store's own timeouts end it soon after; a write it was making
 * commits whole or not at all, like one whose connection was lost before its answer arrived); a call
 * after the deadline, or after any call of the request found the store unavailable, fails at once
 * without reaching the store (docs/operations/database-failures.md, "Bounds").
 */
export function deadlineStore(store: ScimStore, budgetMs: number, state: StoreDeadlineState): ScimStore {
  const deadline = performance.now() + budgetMs;
  const expired = (): StoreUnavailableError =>
    new StoreUnavailableError(`the database did not answer within the request's deadline (${Math.round(budgetMs)} ms)`, { retryAfterSeconds: 2 });
  const call = <T>(run: () => Promise<T>): Promise<T> => {
    const earlier = state.unavailable;
    if (earlier !== undefined) return Promise.reject(unavailableAgain(earlier));
    const remaining = deadline - performance.now();
    if (remaining <= 0) return Promise.reject((state.unavailable = expired()));
    return new Promise<T>((resolve, reject) => {
      const running = run();
      const timer = setTimeout(() => reject((state.unavailable ??= expired())), remaining);
      running.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (error instanceof StoreUnavailableError) state.unavailable ??= error;
          reject(error);
        },
      );
    });
  };
  const referrers = store.referrers;
  const assign = store.assign;
  return {
    ...(store.capabilities === undefined ? {} : { capabilities: store.capabilities }),
    ...(store.outbox === undefined ? {} : { outbox: store.outbox }),
    create: (type, resource, ctx) => call(() => store.create(type, resource, ctx)),
    get: (type, id, ctx) => call(() => store.get(type, id, ctx)),
    replace: (type, id, resource, expected, ctx) => call(() => store.replace(type, id, resource, expected, ctx)),
    delete: (type, id, expected, ctx) => call(() => store.delete(type, id, expected, ctx)),
    query: (type, query, ctx) => call(() => store.query(type, query, ctx)),
    ...(referrers === undefined ? {} : { referrers: (lookup, resources, ctx) => call(() => referrers.call(store, lookup, resources, ctx)) }),
    ...(assign === undefined ? {} : { assign: (type, id, assignment, ctx) => call(() => assign.call(store, type, id, assignment, ctx)) }),
  };
}
