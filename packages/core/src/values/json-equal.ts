import { isUnassigned } from './is-unassigned.js';
import { isJsonObject, type JsonObject } from './json-object.js';

/** Structural equality of JSON values: object key order ignored, array order kept. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = Object.keys(a);
  if (left.length !== Object.keys(b).length) return false;
  for (const key of left) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!jsonEqual((a as JsonObject)[key], (b as JsonObject)[key])) return false;
  }
  return true;
}

/**
 * Equality that ignores unassigned values (RFC 7643 §2.5): `{a: null}` equals `{}` and
 * `{a: []}`. Tells whether a PATCH changed what the resource says.
 */
export function assignedEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isJsonObject(a) && isJsonObject(b)) {
    for (const key of Object.keys(a)) {
      if (!assignedEqual(a[key], Object.prototype.hasOwnProperty.call(b, key) ? b[key] : undefined)) return false;
    }
    for (const key of Object.keys(b)) {
      if (!Object.prototype.hasOwnProperty.call(a, key) && !isUnassigned(b[key])) return false;
    }
    return true;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!assignedEqual(a[i], b[i])) return false;
    return true;
  }
  return isUnassigned(a) && isUnassigned(b);
}
