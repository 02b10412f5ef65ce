import { charge, type WorkBudget } from './work-budget.js';
import { err, ok, type Result } from '../errors/result.js';
import { presentedCost } from './presented-cost.js';
import { workLimitError } from './work-limit-error.js';

/**
 * Each item presented (projected, about to be serialized), `budget` charged for the values each
 * returns (see presentedCost); the work-limit error as soon as the budget is exceeded.
 */
export function presentWithinBudget<T>(items: readonly T[], present: (item: T) => Record<string, unknown>, budget: WorkBudget): Result<Record<string, unknown>[]> {
  const presented: Record<string, unknown>[] = [];
  for (const item of items) {
    const resource = present(item);
    if (!charge(budget, presentedCost(resource))) return err(workLimitError(budget));
    presented.push(resource);
  }
  return ok(presented);
}
