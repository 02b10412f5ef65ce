import { ok, type Result } from '../errors/result.js';
import { copyObject, setOwn } from '../json/with-entry.js';
import { findKey, isJsonObject, isUnassigned, type JsonObject } from '../values/index.js';

/**
 * The resource a PATCH request builds, copy-on-write: `doc` starts as a shallow copy of the
 * stored resource, and a write copies only the containers on its path (each at most once per
 * request, remembered in `owned`). Everything the operations do not write is shared with the
 * stored resource, which is never mutated (it may be frozen).
 */
export interface WorkingCopy {
  readonly doc: JsonObject;
  /**
   * Containers this request created or copied, which it may therefore mutate. A Set, not a
   * WeakSet: it lives as long as the request, and weak collections cost the garbage collector more.
   */
  readonly owned: Set<object>;
  /** Top-level keys of `doc` the operations wrote, in `doc`'s spelling. */
  readonly touched: Set<string>;
  /** Every write, in order. */
  readonly writes: Write[];
}

/** One write: its schema-spelled keys, and what it did to the elements when it only removed or appended some. */
export interface Write {
  readonly keys: readonly string[];
  readonly delta: ElementDelta | undefined;
}

/**
 * What a write did to a multi-valued attribute when it only removed elements and appended others:
 * the new value is the previous one without `removed` (those very objects, the others kept in
 * their order) with `added` (those very objects) at its end. Known from the write itself, so no
 * one has to compare the old and new arrays to find it.
 */
export interface ElementDelta {
  readonly removed: readonly unknown[];
  readonly added: readonly unknown[];
}

/** A working copy of `resource`: its top level copied, nothing else. */
export function workingCopy(resource: object): WorkingCopy {
  const doc: JsonObject = { ...(resource as JsonObject) };
  const owned = new Set<object>();
  owned.add(doc);
  return { doc, owned, touched: new Set(), writes: [] };
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
 * Sets the value at `keys` of the working copy (or, for an unassigned value, removes it), and
 * records the top-level key as touched. A key that exists (matched ignoring case) keeps its stored
 * spelling; missing parent objects are created. Containers on the path are copied before they
 * are written, unless this request already owns them. `delta` tells that the new value of a
 * multi-valued attribute is the old one with elements removed (order kept) and new ones appended.
 */
export function commitValue(ctx: WorkingCopy, keys: readonly string[], value: unknown, delta?: ElementDelta): Result<void> {
  const top = keys[0];
  if (top === undefined) return ok(undefined);
  ctx.touched.add(findKey(ctx.doc, top) ?? top);
  ctx.writes.push({ keys, delta });
  if (isUnassigned(value)) removeAt(ctx, keys);
  else setAt(ctx, keys, value);
  return ok(undefined);
}

function setAt(ctx: WorkingCopy, keys: readonly string[], value: unknown): void {
  let container = ctx.doc;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const actual = findKey(container, key) ?? key;
    if (i === keys.length - 1) {
      setOwn(container, actual, value);
      return;
    }
    const child = Object.prototype.hasOwnProperty.call(container, actual) ? container[actual] : undefined;
    if (!isJsonObject(child)) {
      setOwn(container, actual, nest(keys.slice(i + 1), value));
      return;
    }
    container = ownedChild(ctx, container, actual, child);
  }
}

function removeAt(ctx: WorkingCopy, keys: readonly string[]): void {
  // Find the whole path first, so nothing is copied when there is nothing to remove.
  const actual: string[] = [];
  let current: unknown = ctx.doc;
  for (const key of keys) {
    if (!isJsonObject(current)) return;
    const found = findKey(current, key);
    if (found === undefined) return;
    actual.push(found);
    current = current[found];
  }
  let container = ctx.doc;
  for (let i = 0; i < actual.length - 1; i++) {
    const key = actual[i] as string;
    container = ownedChild(ctx, container, key, container[key] as JsonObject);
  }
  delete container[actual[actual.length - 1] as string];
}

/** `container[key]` (an object) as a container this request owns: copied on first write. */
function ownedChild(ctx: WorkingCopy, container: JsonObject, key: string, child: JsonObject): JsonObject {
  if (ctx.owned.has(child)) return child;
  const copy = copyObject(child);
  ctx.owned.add(copy);
  setOwn(container, key, copy);
  return copy;
}

function nest(keys: readonly string[], value: unknown): unknown {
  let out = value;
  for (let i = keys.length - 1; i >= 0; i--) {
    const wrapper: JsonObject = {};
    setOwn(wrapper, keys[i] as string, out);
    out = wrapper;
  }
  return out;
}

