/**
 * A request's allowance of work, counted in units of about one value visited (a filter test of one
 * value, one sort comparison, one value presented). One object per request, shared by every stage
 * that charges it: the PATCH engine (`maxPatchElementVisits`) and the list and search pipeline
 * (`maxRequestWork`). Work is charged before or as it is done, so a request that exceeds its
 * limit stops there instead of blocking the event loop for seconds.
 */
export interface WorkBudget {
  used: number;
  readonly limit: number;
}

/** A fresh budget of `limit` units. */
export function createWorkBudget(limit: number): WorkBudget {
  return { used: 0, limit };
}

/** Counts `units` more; false once the budget is exceeded (and from then on). */
export function charge(budget: WorkBudget, units: number): boolean {
  budget.used += units;
  return budget.used <= budget.limit;
}

/** Whether the budget has been exceeded. */
export function exhausted(budget: WorkBudget): boolean {
  return budget.used > budget.limit;
}
