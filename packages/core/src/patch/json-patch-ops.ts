import jsonPatch, { type Operation } from 'fast-json-patch';
import { err, ok, type Result } from '../errors/result.js';
import { httpError } from '../errors/scim-error.js';
import { findKey, isJsonObject, isUnassigned, type JsonObject } from './json-value.js';

/** RFC 6901 JSON Pointer for schema-spelled keys: `~` → `~0`, `/` → `~1`. */
export function pointer(keys: readonly string[]): string {
  let out = '';
  for (const key of keys) out += '/' + key.replace(/~/g, '~0').replace(/\//g, '~1');
  return out;
}

/** The value at `keys` in `doc`, each key matched ignoring case; undefined when absent. */
export function readPath(doc: JsonObject, keys: readonly string[]): unknown {
  let current: unknown = doc;
  for (const key of keys) {
    if (!isJsonObject(current)) return undefined;
    const actual = findKey(current, key);
    if (actual === undefined) return undefined;
    current = current[actual];
  }
  return current;
}

/**
 * RFC 6902 operations that set `value` at `keys`: `replace` where the key exists (matched ignoring
 * case, so a stored spelling is kept), `add` where it does not, creating missing parent objects.
 */
export function setOperations(doc: JsonObject, keys: readonly string[], value: unknown): Operation[] {
  const actual: string[] = [];
  let container: JsonObject = doc;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const existing = findKey(container, key);
    actual.push(existing ?? key);
    if (i === keys.length - 1) {
      return [existing === undefined ? { op: 'add', path: pointer(actual), value } : { op: 'replace', path: pointer(actual), value }];
    }
    const child = existing === undefined ? undefined : container[existing];
    if (!isJsonObject(child)) {
      const nested = nest(keys.slice(i + 1), value);
      return [existing === undefined ? { op: 'add', path: pointer(actual), value: nested } : { op: 'replace', path: pointer(actual), value: nested }];
    }
    container = child;
  }
  return [];
}

/** RFC 6902 `remove` of the value at `keys`, or nothing when it is absent. */
export function removeOperations(doc: JsonObject, keys: readonly string[]): Operation[] {
  const actual: string[] = [];
  let current: unknown = doc;
  for (const key of keys) {
    if (!isJsonObject(current)) return [];
    const existing = findKey(current, key);
    if (existing === undefined) return [];
    actual.push(existing);
    current = current[existing];
  }
  return actual.length === 0 ? [] : [{ op: 'remove', path: pointer(actual) }];
}

function nest(keys: readonly string[], value: unknown): unknown {
  let out = value;
  for (let i = keys.length - 1; i >= 0; i--) out = { [keys[i] as string]: out };
  return out;
}

/**
 * Sets (or, for an unassigned value, removes) the value at `keys` of the working copy through
 * RFC 6902 operations, and records the top-level key as touched.
 */
export function commitValue(ctx: { readonly doc: JsonObject; readonly touched: Set<string> }, keys: readonly string[], value: unknown): Result<void> {
  const operations = isUnassigned(value) ? removeOperations(ctx.doc, keys) : setOperations(ctx.doc, keys, value);
  const top = keys[0];
  if (top !== undefined) ctx.touched.add(findKey(ctx.doc, top) ?? top);
  return applyOperations(ctx.doc, operations);
}

/**
 * Applies RFC 6902 operations to the working copy with fast-json-patch, prototype
 * modifications banned. The operations are built by this module, so a failure is a bug: it is
 * reported as a 500, never thrown.
 */
export function applyOperations(doc: JsonObject, operations: Operation[]): Result<void> {
  if (operations.length === 0) return ok(undefined);
  try {
    jsonPatch.applyPatch(doc, operations, false, true, true);
    return ok(undefined);
  } catch {
    return err(httpError(500, 'The PATCH operations could not be applied'));
  }
}
