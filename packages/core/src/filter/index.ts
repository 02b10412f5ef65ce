export type {
  AttrPath,
  CompareOperator,
  CompValue,
  CompareFilter,
  PresentFilter,
  LogicalFilter,
  NotFilter,
  ValuePathFilter,
  Filter,
  PatchPath,
} from './ast.js';
export { DEFAULT_FILTER_LIMITS } from './filter-limits.js';
export type { FilterLimits, FilterOptions } from './filter-limits.js';
export { parseFilter } from './parse-filter.js';
export { parsePatchPath } from './parse-patch-path.js';
export { parseAttrPath, parseAttrPathList } from './parse-attr-path.js';
export { printFilter, printAttrPath, printPatchPath } from './print-filter.js';
export { compileFilter } from './compile-filter.js';
export type { ResourcePredicate } from './compile-filter.js';
export { compileSort, sortResources } from './compile-sort.js';
export type { ResourceComparator, SortOrder } from './compile-sort.js';
export { compileValueFilter } from './compile-value-filter.js';
export type { ValueFilterPredicate } from './compile-value-filter.js';
export { filterShape, sortShape } from './filter-shape.js';
export type { FilterShape } from './filter-shape.js';
