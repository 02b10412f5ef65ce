import type { ResolvedAttribute, ResourceModel } from '../schema/resource-model.js';
import type { MultiValuedChange } from '../store/scim-store.js';
import { isJsonObject, type JsonObject } from './json-value.js';
import { readPath, type WorkingCopy, type Write } from './working-copy.js';

/**
 * The element-by-element changes of the multi-valued attributes a request only added elements to
 * or removed elements from (Entra's member add and remove): for each, the elements added (as they
 * will be stored) and removed (as they were stored). An attribute any other write touched (a
 * replace, an edited element, its whole extension) is left out: its change is not element-level.
 *
 * Kept elements are the same objects in `before` and `after` (copy-on-write) and in the same
 * order, with new ones appended, so one walk over both comparing identities finds the difference.
 */
export function elementChanges(model: ResourceModel, original: JsonObject, copy: WorkingCopy): MultiValuedChange[] {
  const out: MultiValuedChange[] = [];
  const writes = copy.writes;
  for (let w = 0; w < writes.length; w++) {
    const { keys, elementLevel } = writes[w] as Write;
    if (!elementLevel) continue;
    // Each path once: an earlier element-level write of the same path already listed it.
    let listed = false;
    for (let v = 0; v < w && !listed; v++) {
      const earlier = writes[v] as Write;
      listed = earlier.elementLevel && sameKeys(earlier.keys, keys);
    }
    if (listed) continue;
    if (rewritten(writes, keys)) continue;
    const resolved = resolveKeys(model, keys);
    if (resolved === undefined || !resolved.attribute.multiValued || resolved.subAttribute !== undefined) continue;
    const before = readPath(original, keys);
    const after = readPath(copy.doc, keys);
    const change = difference(before, after);
    if (change === undefined) continue;
    if (change.added.length === 0 && change.removed.length === 0) continue;
    out.push({ attribute: resolved.extension ? `${resolved.schema}:${resolved.attribute.name}` : resolved.attribute.name, added: change.added, removed: change.removed });
  }
  return out;
}

/** Whether a write that is not element-level wrote `keys` or one of its ancestors. */
function rewritten(writes: readonly Write[], keys: readonly string[]): boolean {
  for (const other of writes) if (!other.elementLevel && isPrefix(other.keys, keys)) return true;
  return false;
}

/** The attribute a write's keys name (`[name]` or `[urn, name]`). */
function resolveKeys(model: ResourceModel, keys: readonly string[]): ResolvedAttribute | undefined {
  return model.resolve(keys.length === 1 ? { attr: keys[0] as string } : { uri: keys[0] as string, attr: keys[1] as string });
}

/** Whether two writes name the same path (ignoring case). */
function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && isPrefix(a, b);
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
