/**
 * Structural equality of JSON values: object key order is ignored, array order is not.
 * Used to tell whether a PUT or PATCH changed anything (an unchanged write keeps the version).
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((value, index) => deepEqual(value, b[index]));
  }
  if (Array.isArray(b)) return false;
  const left = Object.keys(a);
  const right = b as Record<string, unknown>;
  if (left.length !== Object.keys(right).length) return false;
  return left.every((key) => Object.prototype.hasOwnProperty.call(right, key) && deepEqual((a as Record<string, unknown>)[key], right[key]));
}
