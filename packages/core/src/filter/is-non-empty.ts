/**
 * `pr` (RFC 7644 §3.4.2.2, Table 3): "If the attribute has a non-empty value, or if it contains a
 * non-empty node for complex attributes, there is a match." Null, "", [] and {} are empty (RFC 7643
 * §2.5 calls null and [] unassigned); so is an array or object whose members are all empty.
 */
export function isNonEmpty(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
      return value.length > 0;
    case 'number':
    case 'boolean':
      return true;
    case 'object': {
      if (value === null) return false;
      if (Array.isArray(value)) return value.some(isNonEmpty);
      for (const key in value) {
        if (Object.prototype.hasOwnProperty.call(value, key) && isNonEmpty((value as Record<string, unknown>)[key])) return true;
      }
      return false;
    }
    default:
      return false;
  }
}
