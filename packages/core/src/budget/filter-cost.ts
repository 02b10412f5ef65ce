import type { AttrPath, Filter } from '../filter/ast.js';
import { multiValuedKeys } from '../filter/filter-scope.js';
import type { ResourceModel } from '../schema/resource-model.js';
import type { ScimResource } from '../schema/scim-resource.js';

/** What evaluating a filter on one resource costs, in values visited (see `maxRequestWork`). */
export type ResourceCost = (resource: ScimResource) => number;

/** Terms that test the values under `keys`: each costs one unit per element when `keys` ends at an array. */
interface Site {
  readonly keys: readonly string[];
  terms: number;
}

/**
 * The cost of testing `filter` on one resource: for each term (`compare` or `pr`, inside `[…]` too),
 * the number of values it may visit: 1 for a single-valued attribute, the element count of the
 * first multi-valued attribute on its path (at least 1). An upper bound of what the compiled
 * predicate does, computed from a few property reads, not by evaluating anything.
 */
export function filterCost(filter: Filter, models: readonly ResourceModel[]): ResourceCost {
  // State passed along, not closed over: this runs on every filtered list request.
  const tally: Tally = { sites: new Map<string, Site>(), constant: 0 };
  visit(filter, models, tally);
  const list = [...tally.sites.values()];
  const constant = tally.constant;
  return (resource) => {
    let cost = constant;
    for (const site of list) cost += site.terms * Math.max(1, lengthAt(resource, site.keys));
    return cost;
  };
}

/** The terms found so far: by the keys of the values they visit, and those visiting a handful of values at most. */
interface Tally {
  readonly sites: Map<string, Site>;
  constant: number;
}

function visit(node: Filter, models: readonly ResourceModel[], tally: Tally): void {
  switch (node.kind) {
    case 'and':
    case 'or':
      // Left-nested chains of thousands of terms: walk the left spine without recursion.
      for (let current: Filter = node; ; ) {
        if (current.kind !== 'and' && current.kind !== 'or') {
          visit(current, models, tally);
          break;
        }
        visit(current.right, models, tally);
        current = current.left;
      }
      return;
    case 'not':
      visit(node.filter, models, tally);
      return;
    case 'compare':
    case 'present':
      add(tally, arrayKeys(node.path, models), 1);
      return;
    case 'valuePath':
      add(tally, arrayKeys(node.path, models), Math.max(1, countTerms(node.filter)));
      return;
  }
}

function add(tally: Tally, keys: readonly string[] | undefined, terms: number): void {
  if (keys === undefined) {
    tally.constant += terms;
    return;
  }
  const id = keys.join('\u0000');
  const site = tally.sites.get(id);
  if (site === undefined) tally.sites.set(id, { keys, terms });
  else site.terms += terms;
}

/** The keys up to and including the first multi-valued attribute on `path`; undefined when none is. */
function arrayKeys(path: AttrPath, models: readonly ResourceModel[]): readonly string[] | undefined {
  for (const model of models) {
    const resolved = model.resolve(path);
    if (resolved === undefined) continue;
    const flags = multiValuedKeys(resolved);
    const first = flags.indexOf(true);
    return first < 0 ? undefined : resolved.keys.slice(0, first + 1);
  }
  // `schemas` and unknown names: a handful of values at most.
  return undefined;
}

function countTerms(filter: Filter): number {
  let terms = 0;
  const stack: Filter[] = [filter];
  while (stack.length > 0) {
    const node = stack.pop() as Filter;
    if (node.kind === 'and' || node.kind === 'or') stack.push(node.left, node.right);
    else if (node.kind === 'not') stack.push(node.filter);
    else terms++;
  }
  return terms;
}

function lengthAt(resource: ScimResource, keys: readonly string[]): number {
  let value: unknown = resource;
  for (const key of keys) {
    if (typeof value !== 'object' || value === null) return 0;
    value = (value as Record<string, unknown>)[key];
  }
  return Array.isArray(value) ? value.length : 0;
}
