import type { AttrPath, Filter } from '../filter/ast.js';
import { compileFilter } from '../filter/compile-filter.js';
import { compileSort } from '../filter/compile-sort.js';
import { parseAttrPath } from '../filter/parse-attr-path.js';
import { parseFilter } from '../filter/parse-filter.js';
import type { ResourceModel } from '../schema/resource-model.js';
import type { ScimResource } from '../schema/scim-resource.js';
import type { ScimStore, StoreContext, StoreQuery, StoreQueryResult } from '../store/scim-store.js';

export interface KitQuery {
  readonly filter?: string;
  readonly sortBy?: string;
  readonly sortOrder?: 'ascending' | 'descending';
  readonly startIndex?: number;
  readonly count?: number;
}

/**
 * Query a store the way the server does: parse and compile with the real filter language, push
 * down only what the store's capabilities accept, and finish the rest in memory. What the kit
 * checks is therefore what a server using this store answers.
 */
export async function runQuery(store: ScimStore, model: ResourceModel, query: KitQuery = {}, ctx: StoreContext = {}): Promise<StoreQueryResult> {
  const filter = query.filter === undefined ? undefined : must(parseFilter(query.filter));
  const sortBy = query.sortBy === undefined ? undefined : must(parseAttrPath(query.sortBy));
  const order = query.sortOrder ?? 'ascending';
  const matches = filter === undefined ? () => true : must(compileFilter(filter, model));
  const compare = sortBy === undefined ? undefined : must(compileSort(sortBy, order, model));
  const capabilities = store.capabilities ?? {};
  const paged = query.startIndex !== undefined || query.count !== undefined;
  const pushFilter = filter === undefined || capabilities.filter?.(filter, { resourceType: model.definition.name, attribute: (path: AttrPath) => model.facts(path) }) === true;
  const pushSort = pushFilter && (sortBy === undefined || capabilities.sort === true);
  const pushPage = pushSort && paged && capabilities.paging === true;
  const startIndex = Math.max(1, query.startIndex ?? 1);
  const count = Math.max(0, query.count ?? Number.MAX_SAFE_INTEGER);

  const storeQuery: StoreQuery = {
    semantics: { matches, ...(compare === undefined ? {} : { compare }), attribute: model.facts },
    ...(pushFilter && filter !== undefined ? { filter: filter as Filter } : {}),
    ...(pushSort && sortBy !== undefined ? { sort: { path: sortBy, order } } : {}),
    ...(pushPage ? { startIndex, count } : {}),
  };
  const result = await store.query(model.definition.name, storeQuery, ctx);
  if (pushPage) return result;
  let resources: ScimResource[] = pushFilter ? [...result.resources] : result.resources.filter(matches);
  if (!pushSort && compare !== undefined) resources = resources.sort(compare);
  return { totalResults: resources.length, resources: paged ? resources.slice(startIndex - 1, startIndex - 1 + count) : resources };
}

export interface KitCursorQuery {
  readonly filter?: string;
  readonly sortBy?: string;
  readonly sortOrder?: 'ascending' | 'descending';
  /** `''` for the first page, then a `nextCursor`/`previousCursor` the store returned. */
  readonly cursor: string;
  readonly count: number;
}

/**
 * A keyset page (RFC 9865), asked the way the server asks a store that declared
 * `capabilities.cursor`: filter, sort, cursor and count all pushed down.
 */
export async function runCursorQuery(store: ScimStore, model: ResourceModel, query: KitCursorQuery, ctx: StoreContext = {}): Promise<StoreQueryResult> {
  const filter = query.filter === undefined ? undefined : must(parseFilter(query.filter));
  const sortBy = query.sortBy === undefined ? undefined : must(parseAttrPath(query.sortBy));
  const order = query.sortOrder ?? 'ascending';
  const matches = filter === undefined ? () => true : must(compileFilter(filter, model));
  const compare = sortBy === undefined ? undefined : must(compileSort(sortBy, order, model));
  return store.query(
    model.definition.name,
    {
      semantics: { matches, ...(compare === undefined ? {} : { compare }), attribute: model.facts },
      ...(filter === undefined ? {} : { filter }),
      ...(sortBy === undefined ? {} : { sort: { path: sortBy, order } }),
      cursor: query.cursor,
      count: query.count,
    },
    ctx,
  );
}

function must<T>(result: { ok: true; value: T } | { ok: false; error: { detail: string } }): T {
  if (!result.ok) throw new Error(`conformance kit: ${result.error.detail}`);
  return result.value;
}
