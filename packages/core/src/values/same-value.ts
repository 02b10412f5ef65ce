import type { AttributeDefinition } from '../schema/attribute-definition.js';
import { comparisonKey } from './comparison-key.js';
import { isUnassigned } from './is-unassigned.js';
import { jsonEqual } from './json-equal.js';
import { isJsonObject } from './json-object.js';
import { findSubAttribute } from './sub-attribute.js';

/**
 * Whether two values of an attribute are the same SCIM value: a multi-valued attribute as a set
 * (order carries no meaning, RFC 7643 §2.4), each element by {@link sameElement}.
 */
export function sameValue(attribute: AttributeDefinition, a: unknown, b: unknown): boolean {
  if (!attribute.multiValued) return sameElement(attribute, a, b);
  if (!Array.isArray(a) || !Array.isArray(b)) return isUnassigned(a) && isUnassigned(b);
  if (a.length !== b.length) return false;
  return a.every((x) => b.some((y) => sameElement(attribute, x, y))) && b.every((y) => a.some((x) => sameElement(attribute, x, y)));
}

/**
 * Whether two single values of an attribute (one element of a multi-valued one) are the same:
 * unassigned values are all alike (RFC 7643 §2.5); strings by the comparison key of their
 * `caseExact` (RFC 7643 §2.2), dateTimes as instants; complex values sub-attribute by
 * sub-attribute; anything else as JSON.
 */
export function sameElement(attribute: AttributeDefinition, a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const unassigned = isUnassigned(a);
  if (unassigned || isUnassigned(b)) return unassigned && isUnassigned(b);
  if (typeof a === 'string' && typeof b === 'string') {
    if (attribute.type === 'dateTime') {
      const x = Date.parse(a);
      const y = Date.parse(b);
      if (!Number.isNaN(x) && !Number.isNaN(y)) return x === y;
    }
    if (!attribute.caseExact && (attribute.type === 'string' || attribute.type === 'reference')) return comparisonKey(a, false) === comparisonKey(b, false);
    return false;
  }
  if (attribute.type === 'complex' && isJsonObject(a) && isJsonObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const x = a[key];
      const y = b[key];
      if (isUnassigned(x) && isUnassigned(y)) continue;
      const sub = findSubAttribute(attribute, key);
      if (sub === undefined ? !jsonEqual(x, y) : !sameValue(sub, x, y)) return false;
    }
    return true;
  }
  return jsonEqual(a, b);
}
