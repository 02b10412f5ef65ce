import type { ScimResource, ScimStore, StoreQuery } from '../../../src/index.js';

/**
 * A store with `capabilities.cursor` for the core's cursor tests: the memory store underneath, and
 * keyset pages over its (filtered, sorted) matches in (sort, id) order. The cursor is the last
 * resource of the page itself, so the next page starts after it whether or not it still exists.
 */
export function keysetStore(inner: ScimStore): ScimStore & { readonly queries: StoreQuery[] } {
  const queries: StoreQuery[] = [];
  return {
    ...inner,
    queries,
    capabilities: { ...inner.capabilities, cursor: true },
    create: (...args) => inner.create(...args),
    get: (...args) => inner.get(...args),
    replace: (...args) => inner.replace(...args),
    delete: (...args) => inner.delete(...args),
    async query(resourceType, query, ctx) {
      queries.push(query);
      if (query.cursor === undefined) return inner.query(resourceType, query, ctx);
      const { cursor, count = 0, startIndex: _startIndex, ...rest } = query;
      const all = [...(await inner.query(resourceType, rest, ctx)).resources];
      const order = (a: ScimResource, b: ScimResource): number => (query.semantics.compare?.(a, b) ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
      all.sort(order);
      const last = cursor === '' ? undefined : (JSON.parse(Buffer.from(cursor, 'base64url').toString()) as ScimResource);
      const start = last === undefined ? 0 : all.findIndex((resource) => order(resource, last) > 0);
      const from = start < 0 ? all.length : start;
      const page = all.slice(from, from + count);
      const tail = page[page.length - 1];
      return {
        totalResults: all.length,
        resources: page,
        ...(tail !== undefined && from + count < all.length ? { nextCursor: Buffer.from(JSON.stringify(tail)).toString('base64url') } : {}),
      };
    },
  };
}
