export { budgetedQuery } from './budgeted-query.js';
export { filterCost, type ResourceCost } from './filter-cost.js';
export { presentWithinBudget } from './present-within-budget.js';
export { workLimitError } from './work-limit-error.js';
