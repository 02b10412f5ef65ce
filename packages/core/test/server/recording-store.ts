import { createMemoryStore, type ScimStore, type StoreContext } from '../../src/index.js';

/** One store call as the store saw it. */
export interface StoreCall {
  readonly method: string;
  readonly resourceType: string;
  readonly ctx: StoreContext | undefined;
}

/**
 * A store that records the context of every call and keeps each tenant's resources in its own
 * memory store (the partitioning every store does; here independent of the memory store's own).
 */
export function recordingStore(): { store: ScimStore; calls: StoreCall[] } {
  const calls: StoreCall[] = [];
  const partitions = new Map<string, ScimStore>();
  const of = (ctx: StoreContext | undefined): ScimStore => {
    const key = ctx?.tenant ?? '';
    let store = partitions.get(key);
    if (store === undefined) partitions.set(key, (store = createMemoryStore()));
    return store;
  };
  const record = (method: string, resourceType: string, ctx: StoreContext | undefined): ScimStore => {
    calls.push({ method, resourceType, ctx });
    return of(ctx);
  };
  const store: ScimStore = {
    create: (type, resource, ctx) => record('create', type, ctx).create(type, resource, ctx),
    get: (type, id, ctx) => record('get', type, ctx).get(type, id, ctx),
    replace: (type, id, resource, expected, ctx) => record('replace', type, ctx).replace(type, id, resource, expected, ctx),
    delete: (type, id, expected, ctx) => record('delete', type, ctx).delete(type, id, expected, ctx),
    query: (type, query, ctx) => record('query', type, ctx).query(type, query, ctx),
  };
  return { store, calls };
}
