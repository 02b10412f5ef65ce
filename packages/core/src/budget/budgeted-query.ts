import { charge, exhausted, type WorkBudget } from './work-budget.js';
import { compareWhile } from '../filter/compile-sort.js';
import type { TypeQuery } from '../server/query/query-resources.js';
import type { ResourceCost } from './filter-cost.js';
import { withEntry } from '../json/with-entry.js';
import type { ScimResource } from '../schema/scim-resource.js';

/**
 * `query` with its filter and sort charged to `budget`: each resource tested costs what `cost`
 * says (see filterCost), each comparison one unit. Once the budget is exceeded the predicate
 * answers false and the comparator 0 without evaluating anything, so the store's scan or sort ends
 * cheaply (nothing is thrown through the store); the caller then refuses the request.
 */
export function budgetedQuery(query: TypeQuery, budget: WorkBudget, cost: ResourceCost | undefined): TypeQuery {
  const { matches, compare } = query;
  // One copy, its keys set in place (every list request passes here).
  const out = withEntry(query, 'exhausted', () => exhausted(budget)) as { -readonly [K in keyof TypeQuery]: TypeQuery[K] };
  if (cost !== undefined) out.matches = (resource: ScimResource) => !exhausted(budget) && charge(budget, cost(resource)) && matches(resource);
  if (compare !== undefined) out.compare = compareWhile(compare, () => charge(budget, 1));
  return out;
}
