import type { AttributeDefinition } from './attribute-definition.js';

/**
 * Whether two values of an attribute are the same SCIM value: strings compare per `caseExact`
 * (RFC 7643 §2.2), dateTimes as instants, complex values sub-attribute by sub-attribute, and
 * multi-valued attributes as sets (order carries no meaning, RFC 7643 §2.4).
 */
export function sameValue(attribute: AttributeDefinition, a: unknown, b: unknown): boolean {
  if (!attribute.multiValued) return sameSingle(attribute, a, b);
  if (!Array.isArray(a) || !Array.isArray(b)) return isUnassigned(a) && isUnassigned(b);
  if (a.length !== b.length) return false;
  return a.every((x) => b.some((y) => sameSingle(attribute, x, y))) && b.every((y) => a.some((x) => sameSingle(attribute, x, y)));
}

function sameSingle(attribute: AttributeDefinition, a: unknown, b: unknown): boolean {
  if (isUnassigned(a) || isUnassigned(b)) return isUnassigned(a) && isUnassigned(b);
  if (attribute.type === 'complex') {
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    return (attribute.subAttributes ?? []).every((sub) => sameValue(sub, own(x, sub.name), own(y, sub.name)));
  }
  if (typeof a === 'string' && typeof b === 'string') {
    if (attribute.type === 'dateTime') return a === b || Date.parse(a) === Date.parse(b);
    if (!attribute.caseExact && (attribute.type === 'string' || attribute.type === 'reference')) return a.toLowerCase() === b.toLowerCase();
  }
  return a === b;
}

/** RFC 7643 §2.5: null, an empty array and an absent value are the same state. */
export function isUnassigned(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0);
}

function own(object: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}
