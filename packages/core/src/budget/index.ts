export { charge, createWorkBudget, exhausted } from './work-budget.js';
export type { WorkBudget } from './work-budget.js';
export { spend, indexedVisits, ELEMENT_WRITE_VISITS, INDEXED_ELEMENTS_PER_VISIT } from './patch-visits.js';
export { budgetedQuery } from './budgeted-query.js';
export { filterCost, type ResourceCost } from './filter-cost.js';
export { presentWithinBudget } from './present-within-budget.js';
export { workLimitError } from './work-limit-error.js';
