export { budgetedQuery } from './budgeted-query.js';
export { filterCost, type ResourceCost } from './filter-cost.js';
export { presentedCost } from './presented-cost.js';
export { workLimitError } from './work-limit-error.js';
