import { isForbiddenKey } from '../schema/attribute-name.js';
import type { JsonObject } from '../values/index.js';

/** Deepest nesting accepted in an operation's `value`; SCIM values nest four levels at most. */
export const MAX_VALUE_DEPTH = 32;

export type ValueProblem = { readonly kind: 'forbidden'; readonly key: string } | { readonly kind: 'depth' };

/**
 * Checks untrusted input before anything copies it: a key that could reach a prototype
 * (`__proto__`, `constructor`, `prototype`) at any depth, or nesting deeper than MAX_VALUE_DEPTH.
 */
export function inspectValue(value: unknown, depth = 0): ValueProblem | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_VALUE_DEPTH) return { kind: 'depth' };
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = inspectValue(item, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (isForbiddenKey(key)) return { kind: 'forbidden', key };
    const found = inspectValue((value as JsonObject)[key], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
