import type { ResolvedAttribute, ResourceModel } from '../schema/resource-model.js';
import type { MultiValuedChange } from '../store/scim-store.js';
import { isJsonObject, type JsonObject } from '../values/index.js';
import { readPath, type WorkingCopy, type Write } from './working-copy.js';

/**
 * What a request's writes did, together, to one multi-valued attribute they only removed elements
 * from and appended elements to: its value is the stored one without `removed` (stored elements,
 * the others kept in order) with `added` at its end. `added` is updated by the clean-up
 * (`finalizeResource`) to the elements as they will be stored.
 */
export interface ElementEdit {
  readonly keys: readonly string[];
  readonly removed: readonly unknown[];
  added: readonly unknown[];
}

/**
 * The element edits of a request, by lower-cased path (`members`, `urn:…:attr`), composed from
 * the writes' deltas in order (an element appended, then removed, is neither). An attribute any
 * other write touched (a replace, an edited element, its whole extension) has none: its change is
 * not element-level. No array is walked: each write said what it did. Undefined when no write was
 * element-level (the usual single-user PATCH: nothing is allocated for it).
 */
export function elementEdits(copy: WorkingCopy): ReadonlyMap<string, ElementEdit> | undefined {
  const writes = copy.writes;
  let edits: Map<string, ElementEdit> | undefined;
  // Whether some write was not element-level (it may have rewritten an edited attribute).
  let whole = false;
  for (let w = 0; w < writes.length; w++) {
    const { keys, delta } = writes[w] as Write;
    if (delta === undefined) {
      whole = true;
      continue;
    }
    const path = keys.length === 1 ? (keys[0] as string).toLowerCase() : keys.join(':').toLowerCase();
    edits ??= new Map();
    const edit = edits.get(path);
    // The first write of a path: its delta's own arrays (a write's delta is never changed after).
    if (edit === undefined) {
      edits.set(path, { keys, removed: delta.removed, added: delta.added });
      continue;
    }
    // A later one: composed into new arrays.
    const removed = edit.removed.slice();
    const added = edit.added.slice();
    for (const element of delta.removed) {
      const appended = added.indexOf(element);
      if (appended >= 0) added.splice(appended, 1);
      else removed.push(element);
    }
    for (const element of delta.added) added.push(element);
    edits.set(path, { keys: edit.keys, removed, added });
  }
  if (edits === undefined) return undefined;
  if (whole) for (const [path, { keys }] of edits) if (rewritten(writes, keys)) edits.delete(path);
  return edits;
}

/** Whether a write that is not element-level wrote `keys` or one of its ancestors. */
function rewritten(writes: readonly Write[], keys: readonly string[]): boolean {
  for (const other of writes) if (other.delta === undefined && isPrefix(other.keys, keys)) return true;
  return false;
}

/**
 * The element-by-element changes of the multi-valued attributes a request only added elements to
 * or removed elements from (Entra's member add and remove): for each, the elements added (as they
 * will be stored) and removed (as they were stored), from `edits` (see {@link elementEdits}).
 * Attributes without an edit are left out: their change is not element-level.
 *
 * An edit whose counts do not add up against the cleaned-up value (its added elements no longer
 * the value's last ones) is worked out again by one walk over both arrays: kept elements are the
 * same objects in `before` and `after` (copy-on-write), in the same order, with new ones appended.
 */
export function elementChanges(model: ResourceModel, original: JsonObject, doc: JsonObject, edits: ReadonlyMap<string, ElementEdit> | undefined): MultiValuedChange[] {
  const out: MultiValuedChange[] = [];
  if (edits === undefined) return out;
  for (const edit of edits.values()) {
    const { keys } = edit;
    const resolved = resolveKeys(model, keys);
    if (resolved === undefined || !resolved.attribute.multiValued || resolved.subAttribute !== undefined) continue;
    const before = readPath(original, keys);
    const after = readPath(doc, keys);
    const change = fromEdit(before, after, edit) ?? difference(before, after);
    if (change === undefined) continue;
    if (change.added.length === 0 && change.removed.length === 0) continue;
    out.push({ attribute: resolved.extension ? `${resolved.schema}:${resolved.attribute.name}` : resolved.attribute.name, added: change.added, removed: change.removed });
  }
  return out;
}

/** The attribute a write's keys name (`[name]` or `[urn, name]`). */
function resolveKeys(model: ResourceModel, keys: readonly string[]): ResolvedAttribute | undefined {
  return model.resolve(keys.length === 1 ? { attr: keys[0] as string } : { uri: keys[0] as string, attr: keys[1] as string });
}

/** Whether `prefix` names `keys` or one of its ancestors (ignoring case). */
function isPrefix(prefix: readonly string[], keys: readonly string[]): boolean {
  if (prefix.length > keys.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    const a = prefix[i] as string;
    const b = keys[i] as string;
    if (a !== b && a.toLowerCase() !== b.toLowerCase()) return false;
  }
  return true;
}

type Elements = Pick<MultiValuedChange, 'added' | 'removed'>;

/** The edit as a change, when `after` is `before` with its counts and ends with its added elements; all of them objects. */
function fromEdit(before: unknown, after: unknown, edit: ElementEdit): Elements | undefined {
  const old = before === undefined ? [] : before;
  const now = after === undefined ? [] : after;
  if (!Array.isArray(old) || !Array.isArray(now)) return undefined;
  const { removed, added } = edit;
  const kept = now.length - added.length;
  if (kept < 0 || kept !== old.length - removed.length) return undefined;
  for (let i = 0; i < added.length; i++) if (now[kept + i] !== added[i] || !isJsonObject(added[i])) return undefined;
  for (let i = 0; i < removed.length; i++) if (!isJsonObject(removed[i])) return undefined;
  return { added: added as JsonObject[], removed: removed as JsonObject[] };
}

/** `after` as `before` with elements removed (order kept) and others appended; undefined when it is not. */
function difference(before: unknown, after: unknown): Elements | undefined {
  const old = before === undefined ? [] : before;
  const now = after === undefined ? [] : after;
  if (!Array.isArray(old) || !Array.isArray(now)) return undefined;
  const removed: JsonObject[] = [];
  let j = 0;
  for (let i = 0; i < old.length; i++) {
    const element: unknown = old[i];
    if (j < now.length && now[j] === element) j++;
    else if (isJsonObject(element)) removed.push(element);
    else return undefined;
  }
  const added: JsonObject[] = [];
  for (; j < now.length; j++) {
    const element: unknown = now[j];
    if (!isJsonObject(element)) return undefined;
    added.push(element);
  }
  return { added, removed };
}
