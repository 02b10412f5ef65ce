import { isForbiddenKey } from '../schema/attribute-name.js';

/** A JSON object as it arrives from `JSON.parse` (own enumerable keys only). */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * RFC 7643 §2.5: an attribute is unassigned when it is absent, `null`, or an empty array. An empty
 * complex value (`{}`) carries nothing either and is treated the same way.
 */
export function isUnassigned(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isJsonObject(value)) {
    for (const key in value) if (!isUnassigned(value[key])) return false;
    return true;
  }
  return false;
}

/** Structural equality of JSON values: key order ignored, array order kept. */
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
  if (isUnassigned(a) && isUnassigned(b)) return true;
  return false;
}

/** The own key of `object` equal to `name` ignoring case (schema spelling preferred), if any. */
export function findKey(object: JsonObject, name: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(object, name)) return name;
  let lower: string | undefined;
  let dotted: boolean | undefined;
  for (const key in object) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
    // Folding case keeps the length of every UTF-16 string but those with U+0130 (İ, which folds to
    // two code units): a key of another length cannot match, and most misses fold nothing.
    if (key.length !== name.length && !(dotted ??= name.includes('\u0130')) && !key.includes('\u0130')) continue;
    lower ??= name.toLowerCase();
    if (key.toLowerCase() === lower) return key;
  }
  return undefined;
}

/** The value under `name` (case-insensitive), or undefined. */
export function getKey(object: JsonObject, name: string): unknown {
  const key = findKey(object, name);
  return key === undefined ? undefined : object[key];
}

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
