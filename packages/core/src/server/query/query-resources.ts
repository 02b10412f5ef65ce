import type { Filter } from '../../filter/ast.js';
import { sortResources } from '../../filter/compile-sort.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { FilterSemantics, SortSpec, StoreContext, StoreQuery, StoreQueryResult } from '../../store/scim-store.js';
import type { ServedType, ServerContext } from '../config/server-context.js';

/** A query over one resource type, with the filter and sort already compiled against the schema. */
export interface TypeQuery {
  readonly filter?: Filter;
  /** RFC 7644 §3.4.2.2 predicate of `filter`. */
  readonly matches: (resource: ScimResource) => boolean;
  readonly sort?: SortSpec;
  /** RFC 7644 §3.4.2.3 comparator of `sort`. */
  readonly compare?: (a: ScimResource, b: ScimResource) => number;
  /**
   * Filter and sort here, never in the store: they read what only the served form has
   * (`meta.location`, see location-query.ts), so `matches` and `compare` add it themselves.
   */
  readonly inMemory?: boolean;
  /** With `inMemory`: the form `matches` and `compare` read (the resource as served), computed once per resource. */
  readonly served?: (resource: ScimResource) => ScimResource;
  /** True once the request's work budget is spent (see budgetedQuery); handed to the store as `semantics.exhausted`. */
  readonly exhausted?: () => boolean;
  /** The page to return; absent: every match. */
  readonly page?: { readonly startIndex: number; readonly count: number };
  /**
   * An RFC 9865 store cursor (`''`: the first page) to use instead of `page.startIndex` when the
   * store pages by keyset (see `storeCursorApplies`); ignored otherwise.
   */
  readonly cursor?: string;
}

/** Whether the store evaluates this query's filter, sort and page itself, and pages it by keyset cursor. */
export function storeCursorApplies(context: ServerContext, query: TypeQuery, type: ServedType): boolean {
  return pushDown(context, type, query).pushPage && context.store.capabilities?.cursor === true;
}

function pushDown(context: ServerContext, type: ServedType, query: TypeQuery): { pushFilter: boolean; pushSort: boolean; pushPage: boolean } {
  const capabilities = context.store.capabilities ?? {};
  const pushFilter =
    query.inMemory !== true && (query.filter === undefined || capabilities.filter?.(query.filter, { resourceType: type.model.definition.name, attribute: type.model.facts }) === true);
  const pushSort = pushFilter && (query.sort === undefined || capabilities.sort === true);
  const pushPage = pushSort && query.page !== undefined && (capabilities.paging === true || (query.cursor !== undefined && capabilities.cursor === true));
  return { pushFilter, pushSort, pushPage };
}

/**
 * Run a query on the store, pushing down what it declares it can do (`capabilities`) and doing
 * the rest in memory: filter, then sort (stable), then page. `totalResults` counts every match.
 */
export async function queryResources(context: ServerContext, type: ServedType, query: TypeQuery, ctx: StoreContext): Promise<StoreQueryResult> {
  const model = type.model;
  const { pushFilter, pushSort, pushPage } = pushDown(context, type, query);
  const byCursor = pushPage && query.cursor !== undefined && context.store.capabilities?.cursor === true;
  const semantics: FilterSemantics = {
    matches: query.matches,
    ...(query.compare === undefined ? {} : { compare: query.compare }),
    // The model's own function: the same for every query of the type (a store may key what it derives from the facts by it).
    attribute: model.facts,
    ...(query.exhausted === undefined ? {} : { exhausted: query.exhausted }),
  };
  const storeQuery: StoreQuery = {
    semantics,
    ...(pushFilter && query.filter !== undefined ? { filter: query.filter } : {}),
    ...(pushSort && query.sort !== undefined ? { sort: query.sort } : {}),
    ...(pushPage && query.page !== undefined && !byCursor ? { startIndex: query.page.startIndex, count: query.page.count } : {}),
    ...(byCursor && query.page !== undefined ? { cursor: query.cursor, count: query.page.count } : {}),
  };
  const result = await context.store.query(model.definition.name, storeQuery, ctx);
  if (pushPage || result.declined !== undefined) return result;

  // Not paged by the store: it returned every match (or every resource, when it did not filter).
  const forms = query.served === undefined ? result.resources : result.resources.map(query.served);
  let resources = pushFilter ? [...forms] : forms.filter(query.matches);
  if (!pushSort && query.compare !== undefined) resources = sortResources(resources, query.compare);
  if (query.page === undefined) return { totalResults: resources.length, resources };
  const start = query.page.startIndex - 1;
  return { totalResults: resources.length, resources: resources.slice(start, start + query.page.count) };
}
