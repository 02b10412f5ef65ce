import { charge, createWorkBudget, exhausted } from '../../../budget/work-budget.js';
import { scimError } from '../../../errors/scim-error.js';
import { compileFilter } from '../../../filter/compile-filter.js';
import { compileSort } from '../../../filter/compile-sort.js';
import type { ScimResource } from '../../../schema/scim-resource.js';
import { budgetedQuery, filterCost, presentWithinBudget, workLimitError } from '../../../budget/index.js';
import type { Exchange } from '../../request/exchange.js';
import { mentionsLocation, overServedForm } from '../../query/location-query.js';
import { locateResource, presentResource } from '../../response/present-resource.js';
import { queryType, withComputedAttributes } from '../../membership/index.js';
import type { TypeQuery } from '../../query/query-resources.js';
import { readJsonBody } from '../../request/read-json-body.js';
import { searchFromBody } from '../../query/search-parameters.js';
import { bindingOf } from '../../query/paging/cursor-page.js';
import { readIndexCursor } from '../../query/paging/index-cursor.js';
import { cursorListBody, errorResponse, jsonResponse, listBody } from '../../response/serialize.js';
import type { ScimResponse } from '../../request/scim-request.js';
import type { ServedType } from '../../config/server-context.js';

/**
 * `POST /.search` (RFC 7644 §3.4.3) over every type with `rootSearch`: the matches of each type in
 * configuration order (users, then groups), then sorted when `sortBy` is given, then paged as one
 * list. An attribute known to only one type is false on the others. More matches than
 * `limits.rootSearchMaxResults` is 400 tooMany (RFC 7644 §3.4.2.1).
 */
export async function rootSearch(exchange: Exchange): Promise<ScimResponse> {
  const { context } = exchange;
  const body = readJsonBody(context, exchange.request, undefined, exchange.recording);
  if (!body.ok) return errorResponse(body.error);
  const parameters = searchFromBody(context, body.value);
  if (!parameters.ok) return errorResponse(parameters.error);
  const { filter, sortBy, sortOrder, count, selection, cursor } = parameters.value;
  // RFC 9865 §3 (through RFC 7644 §3.4.3): cursors here carry an index, the list being merged in memory.
  const pagination = context.pagination;
  const walk =
    cursor === undefined || pagination === undefined
      ? undefined
      : await readIndexCursor(pagination, bindingOf('/.search', { ...(filter === undefined ? {} : { filter }), ...(sortBy === undefined ? {} : { sortBy }), sortOrder }, exchange.storeContext.tenant), cursor);
  if (walk !== undefined && !walk.ok) return errorResponse(walk.error);
  const startIndex = walk?.value.startIndex ?? parameters.value.startIndex;

  const types = context.types.filter((type) => type.rootSearch);
  const models = types.map((type) => type.model);
  const matches = filter === undefined ? undefined : compileFilter(filter, models);
  if (matches !== undefined && !matches.ok) return errorResponse(matches.error);
  const compare = sortBy === undefined ? undefined : compileSort(sortBy, sortOrder, models);
  if (compare !== undefined && !compare.ok) return errorResponse(compare.error);
  const query: TypeQuery = { ...(filter === undefined ? {} : { filter }), matches: matches?.value ?? (() => true) };
  // A query on `meta.location` reads each type's resources as served (with their location).
  const inMemory = mentionsLocation(filter, sortBy);
  const served = (type: ServedType): ((resource: ScimResource) => ScimResource) => (resource) =>
    inMemory ? locateResource(type, resource, exchange.baseUrl) : resource;
  // limits.maxRequestWork: filter, sort and presentation over every type share one budget.
  const budget = createWorkBudget(context.limits.maxRequestWork);
  const cost = filter === undefined ? undefined : filterCost(filter, models);
  const queryOf = (type: ServedType): TypeQuery => budgetedQuery(inMemory ? overServedForm(query, served(type)) : query, budget, cost);

  // One query per type, asking for at most one more match than the limit: `totalResults` counts
  // them all, so a huge result is refused having read at most max + 1 resources of a type.
  const max = context.limits.rootSearchMaxResults;
  const found: { type: ServedType; resource: ScimResource }[] = [];
  let total = 0;
  for (const type of types) {
    const result = await queryType(exchange, type, { ...queryOf(type), page: { startIndex: 1, count: max + 1 } });
    if (exhausted(budget)) return errorResponse(workLimitError(budget));
    total += result.totalResults;
    if (total > max) return errorResponse(scimError('tooMany', `The search matches at least ${total} resources; the limit is ${max}. Narrow the filter.`));
    for (const resource of result.resources) found.push({ type, resource: served(type)(resource) });
  }
  if (compare !== undefined) found.sort((a, b) => (charge(budget, 1) ? compare.value(a.resource, b.resource) : 0));
  if (exhausted(budget)) return errorResponse(workLimitError(budget));
  const page = found.slice(startIndex - 1, startIndex - 1 + count);
  // Computed attributes per type, for the page's resources of that type at once.
  const computed = page.map((item) => ({ ...item }));
  for (const type of types) {
    const of = computed.filter((item) => item.type === type);
    if (of.length === 0) continue;
    const shown = await withComputedAttributes(exchange, type, of.map((item) => item.resource), selection);
    of.forEach((item, index) => (item.resource = shown[index] ?? item.resource));
  }
  const resources = presentWithinBudget(computed, ({ type, resource }) => presentResource(type, resource, exchange.baseUrl, selection), budget);
  if (!resources.ok) return errorResponse(resources.error);
  if (walk !== undefined) return jsonResponse(200, cursorListBody(found.length, resources.value, await walk.value.around(resources.value.length, found.length, count)));
  return jsonResponse(200, listBody(found.length, startIndex, resources.value));
}
