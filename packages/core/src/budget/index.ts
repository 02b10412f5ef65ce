export { charge, createWorkBudget, exhausted } from './work-budget.js';
export type { WorkBudget } from './work-budget.js';
