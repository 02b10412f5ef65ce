import type { ScimStore, StoreQuery } from '../../../src/index.js';

/** The store, recording every query the core sends it. */
export function recorded(inner: ScimStore): ScimStore & { readonly queries: StoreQuery[] } {
  const queries: StoreQuery[] = [];
  return {
    queries,
    capabilities: inner.capabilities ?? {},
    create: (...args) => inner.create(...args),
    get: (...args) => inner.get(...args),
    replace: (...args) => inner.replace(...args),
    delete: (...args) => inner.delete(...args),
    query: (resourceType, query, ctx) => {
      queries.push(query);
      return inner.query(resourceType, query, ctx);
    },
  };
}

/** The store without `capabilities.cursor`: the core pages it by index under its own cursors. */
export function indexOnly(inner: ScimStore): ScimStore & { readonly queries: StoreQuery[] } {
  const store = recorded(inner);
  return { ...store, capabilities: { ...inner.capabilities, cursor: false } };
}
