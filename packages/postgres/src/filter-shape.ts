import type { CompValue, Filter } from '@scimkit/core';
import { filterShape as shapeOf, type FilterShape } from '@scimkit/core/engine';
import { holdsNul } from './unkeepable-value.js';

/**
 * The shape of `filter` for this store's kept translations (query-shapes.ts), or undefined when a
 * value decides more than its parameter: a string holding U+0000 or a number that is not finite
 * (filterToSql leaves both to the in-memory evaluator). The shape itself is the core's
 * (`filterShape` of `@scimkit/core/engine`).
 */
export function filterShape(filter: Filter): FilterShape | undefined {
  return shapeOf(filter, translatable);
}

function translatable(value: CompValue): boolean {
  if (typeof value === 'string') return !holdsNul(value);
  return typeof value !== 'number' || Number.isFinite(value);
}
