/**
 * Deep-frozen copies of JSON values that share whatever they can with a previous frozen value.
 *
 * The memory store keeps every resource deep-frozen and hands the same objects out without copying.
 * A frozen object reachable from a stored resource is therefore immutable for good, so a later
 * write may reuse it instead of copying it again: a PATCH that adds one group member to 100,000
 * keeps the 100,000 element objects and copies only the new one.
 */

import { setOwn } from '../json/with-entry.js';

/**
 * A deep-frozen copy of the JSON value `value`. Where `value` holds, at the same place, the very
 * object `previous` holds (`previous` being a value this module froze), that object is reused
 * without being walked; so is any object in `frozen` (values this module already built).
 */
export function freezeShared(value: unknown, previous?: unknown, frozen?: ReadonlySet<unknown>): unknown {
  if (value === previous || typeof value !== 'object' || value === null || frozen?.has(value) === true) return value;
  if (Array.isArray(value)) {
    const before = Array.isArray(previous) ? previous : undefined;
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = freezeShared(value[i], before?.[i], frozen);
    return Object.freeze(copy);
  }
  const before = typeof previous === 'object' && previous !== null && !Array.isArray(previous) ? (previous as Record<string, unknown>) : undefined;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const prior = before !== undefined && Object.prototype.hasOwnProperty.call(before, key) ? before[key] : undefined;
    setOwn(copy, key, freezeShared((value as Record<string, unknown>)[key], prior, frozen));
  }
  return Object.freeze(copy);
}

/** What {@link mergeElements} built: the new array, and the stored elements it dropped and the copies it added. */
export interface MergedElements {
  readonly elements: readonly unknown[];
  readonly dropped: readonly unknown[];
  readonly added: readonly unknown[];
}

/**
 * A deep-frozen copy of the multi-valued attribute `next`, given the frozen `stored` array it was
 * derived from and the elements the write says it removed. Stored elements kept in order are
 * reused (matched by identity, else by equal JSON); only the other elements of `next` are copied.
 * The result equals `next` whatever `removed` says: a wrong hint costs speed, never correctness.
 */
export function mergeElements(stored: readonly unknown[], next: readonly unknown[], removed: readonly unknown[]): MergedElements {
  return removedAndAppended(stored, next, removed) ?? walkElements(stored, next, removed);
}

/**
 * The common PATCH (members added or removed): `next` is `stored` without the `removed` elements
 * themselves (found by `indexOf`, which is fast even on a frozen array), the others in order, then
 * new elements. Checked by one identity pass; the copy is one `concat` of `next`. Undefined when
 * `next` is not so.
 */
function removedAndAppended(stored: readonly unknown[], next: readonly unknown[], removed: readonly unknown[]): MergedElements | undefined {
  const positions: number[] = [];
  for (const element of removed) {
    let at = stored.indexOf(element);
    while (at >= 0 && positions.includes(at)) at = stored.indexOf(element, at + 1);
    if (at < 0) return undefined;
    positions.push(at);
  }
  positions.sort((a, b) => a - b);
  const kept = stored.length - positions.length;
  if (next.length < kept) return undefined;
  // next[0, kept) must be stored without the positions, by identity.
  let from = 0;
  let at = 0;
  for (const position of positions) {
    for (; from < position; from++, at++) if (next[at] !== stored[from]) return undefined;
    from = position + 1;
  }
  for (; from < stored.length; from++, at++) if (next[at] !== stored[from]) return undefined;
  const elements = next.concat();
  const added: unknown[] = [];
  for (let i = kept; i < elements.length; i++) {
    const copy = freezeShared(elements[i]);
    elements[i] = copy;
    added.push(copy);
  }
  return { elements: Object.freeze(elements), dropped: positions.map((p) => stored[p]), added };
}

/** Any other `next`: a walk matching elements by identity or equal JSON. */
function walkElements(stored: readonly unknown[], next: readonly unknown[], removed: readonly unknown[]): MergedElements {
  const removedSet = new Set(removed);
  const isRemoved = (element: unknown): boolean => removedSet.has(element) || removed.some((r) => sameJson(r, element));
  const elements: unknown[] = [];
  const dropped: unknown[] = [];
  const added: unknown[] = [];
  let at = 0;
  for (const element of next) {
    // The common case first: the caller passed the stored element itself.
    if (stored[at] === element) {
      elements.push(stored[at++]);
      continue;
    }
    while (at < stored.length && !sameJson(stored[at], element) && isRemoved(stored[at])) dropped.push(stored[at++]);
    if (at < stored.length && sameJson(stored[at], element)) {
      elements.push(stored[at++]);
    } else {
      const copy = freezeShared(element);
      elements.push(copy);
      added.push(copy);
    }
  }
  while (at < stored.length) dropped.push(stored[at++]);
  return { elements: Object.freeze(elements), dropped, added };
}

/** Deep equality of two JSON values (identity first). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

