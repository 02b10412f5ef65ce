import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import { charge, type WorkBudget } from './work-budget.js';

/**
 * What editing one selected element costs, in element visits: a copy, its mutability checks, its
 * comparison with the old one take about as long as eight filter tests.
 */
export const ELEMENT_WRITE_VISITS = 8;

/**
 * Elements an indexed pass (adding or removing values by `value`) looks at per element visit: such
 * a pass only computes each element's key, so it is counted at a quarter of a filter test.
 */
export const INDEXED_ELEMENTS_PER_VISIT = 4;

/**
 * The work one PATCH request may do on multi-valued attributes is a WorkBudget counted in
 * element visits: each element a value filter examines, each element a linear equality scan
 * compares, each element a `primary: true` write checks, each value an `add` appends, and
 * ELEMENT_WRITE_VISITS for each element an operation selects. Indexed passes (adding or removing
 * values by `value`, as Entra does for group members) count one visit per INDEXED_ELEMENTS_PER_VISIT
 * elements. Shared by every operation of the request, so many cheap-looking operations on a large
 * attribute cannot block the event loop for seconds.
 */
export type { WorkBudget };

/** The visits an indexed pass over `elements` elements counts. */
export function indexedVisits(elements: number): number {
  return Math.ceil(elements / INDEXED_ELEMENTS_PER_VISIT);
}

/** Counts `visits` more element visits, or 400 invalidValue once the request exceeds its limit. */
export function spend(budget: WorkBudget, visits: number, at: string): Result<void> {
  if (charge(budget, visits)) return ok(undefined);
  return err(scimError('invalidValue', `${at}: PATCH request too complex: more than ${budget.limit} element comparisons; send fewer operations`));
}
