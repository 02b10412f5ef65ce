import { scimError } from '../../../errors/scim-error.js';
import { createWorkBudget, exhausted } from '../../../budget/work-budget.js';
import { compileFilter } from '../../../filter/compile-filter.js';
import { compileSort } from '../../../filter/compile-sort.js';
import { budgetedQuery, filterCost, presentWithinBudget, workLimitError } from '../../../budget/index.js';
import { withEntry } from '../../../json/with-entry.js';
import { writeKey, type Exchange } from '../../request/exchange.js';
import { mentionsLocation, overServedForm } from '../../query/location-query.js';
import { locateResource, presentResource } from '../../response/present-resource.js';
import { queryType, readContext, withComputedAttributes } from '../../membership/index.js';
import type { TypeQuery } from '../../query/query-resources.js';
import { readJsonBody } from '../../request/read-json-body.js';
import { searchFromBody, searchFromQuery, type SearchParameters } from '../../query/search-parameters.js';
import { cursorPage } from '../../query/paging/cursor-page.js';
import { cursorListBody, errorResponse, jsonResponse, listBody } from '../../response/serialize.js';
import type { ScimResponse } from '../../request/scim-request.js';
import type { ServedType } from '../../config/server-context.js';

/** `GET {endpoint}` (RFC 7644 §3.4.2): a ListResponse of the type, filtered, sorted and paged. */
export async function listResources(exchange: Exchange, type: ServedType): Promise<ScimResponse> {
  const parameters = searchFromQuery(exchange.context, exchange.request);
  if (!parameters.ok) return errorResponse(parameters.error);
  return search(exchange, type, parameters.value);
}

/** `POST {endpoint}/.search` (RFC 7644 §3.4.3): the same query, carried by a SearchRequest body. */
export async function searchResources(exchange: Exchange, type: ServedType): Promise<ScimResponse> {
  const body = readJsonBody(exchange.context, exchange.request, undefined, exchange.recording);
  if (!body.ok) return errorResponse(body.error);
  const parameters = searchFromBody(exchange.context, body.value);
  if (!parameters.ok) return errorResponse(parameters.error);
  return search(exchange, type, parameters.value);
}

async function search(exchange: Exchange, type: ServedType, parameters: SearchParameters): Promise<ScimResponse> {
  const { filter, sortBy, sortOrder, startIndex, count, selection, cursor } = parameters;
  const matches = filter === undefined ? undefined : compileFilter(filter, type.model);
  if (matches !== undefined && !matches.ok) return errorResponse(matches.error);
  const compare = sortBy === undefined ? undefined : compileSort(sortBy, sortOrder, type.model);
  if (compare !== undefined && !compare.ok) return errorResponse(compare.error);

  // Built key by key (no conditional spreads, no per-request named closures: this runs on every list request).
  const query: Mutable<TypeQuery> = { matches: matches === undefined ? ALL : matches.value, page: { startIndex, count } };
  if (filter !== undefined) query.filter = filter;
  if (sortBy !== undefined && compare !== undefined) {
    query.sort = { path: sortBy, order: sortOrder };
    query.compare = compare.value;
  }
  const located = mentionsLocation(filter, sortBy) ? overServedForm(query, (resource) => locateResource(type, resource, exchange.baseUrl)) : query;
  // limits.maxRequestWork: filter, sort and presentation share one budget.
  const budget = createWorkBudget(exchange.context.limits.maxRequestWork);
  const budgeted = budgetedQuery(located, budget, filter === undefined ? undefined : filterCost(filter, [type.model]));
  const pagination = exchange.context.pagination;
  // The store may read the page's groups along with the page (StoreContext.referrers).
  const reading: Exchange = withEntry(exchange, 'storeContext', readContext(exchange, type, selection));
  if (cursor !== undefined && pagination !== undefined) {
    const page = await cursorPage(reading, pagination, type, budgeted, { ...(filter === undefined ? {} : { filter }), ...(sortBy === undefined ? {} : { sortBy }), sortOrder }, cursor, count);
    if (exhausted(budget)) return errorResponse(workLimitError(budget));
    if (!page.ok) return errorResponse(page.error);
    const shown = await withComputedAttributes(exchange, type, page.value.resources, selection);
    const resources = presentWithinBudget(shown, (resource) => presentResource(type, resource, exchange.baseUrl, selection), budget);
    if (!resources.ok) return errorResponse(resources.error);
    return jsonResponse(200, cursorListBody(page.value.totalResults, resources.value, page.value));
  }
  const result = await queryType(reading, type, budgeted);
  if (exhausted(budget)) return errorResponse(workLimitError(budget));
  // The store accepted the filter but will not finish it within its bounds (docs/writing-a-store.md).
  if (result.declined !== undefined) return errorResponse(scimError('invalidFilter', result.declined));
  // A lookup that found one resource (`userName eq`, before a client's PATCH): the base that write may start from.
  const [only] = result.resources;
  const recent = exchange.context.caches.recent;
  if (recent.enabled && only !== undefined && result.resources.length === 1 && located === query) recent.remember(writeKey(exchange, type.model.definition.name, only.id), only);
  const shown = await withComputedAttributes(exchange, type, result.resources, selection);
  const resources = presentWithinBudget(shown, (resource) => presentResource(type, resource, exchange.baseUrl, selection), budget);
  if (!resources.ok) return errorResponse(resources.error);
  return jsonResponse(200, listBody(result.totalResults, startIndex, resources.value));
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The predicate of a query without a filter. */
const ALL = (): boolean => true;
