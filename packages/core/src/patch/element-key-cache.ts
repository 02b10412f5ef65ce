import type { StoredVersions } from '../json/stored-versions.js';
import { elementKey, type KeyKind } from './value-key.js';

/** Arrays shorter than this are scanned: at that size a scan costs less than keeping an index. */
export const INDEXED_LENGTH = 10_000;

/**
 * Elements a server's indexes cover at most, all arrays together (about 35 bytes of index each):
 * beyond it the least recently used index is dropped, and its array scanned again.
 */
export const MAX_INDEXED_ELEMENTS = 1_000_000;

/** Hits located with `indexOf` at most per lookup; beyond, one scan finds them all for less. */
const LOCATED_HITS = 16;

/** Several elements under one key (rare: a key is an element's identity). */
class Several {
  constructor(readonly elements: unknown[]) {}
}

/** One stored array's elements by key, in array order. */
class KeyIndex {
  constructor(
    readonly kind: KeyKind,
    private readonly byKey: Map<string, unknown>,
  ) {}

  static build(elements: readonly unknown[], kind: KeyKind): KeyIndex {
    const index = new KeyIndex(kind, new Map());
    for (let i = 0; i < elements.length; i++) index.add(elements[i]);
    return index;
  }

  elements(key: string): readonly unknown[] {
    const held = this.byKey.get(key);
    return held === undefined ? [] : held instanceof Several ? held.elements : [held];
  }

  add(element: unknown): void {
    const key = elementKey(this.kind, element);
    if (key === undefined) return;
    const held = this.byKey.get(key);
    if (held === undefined) this.byKey.set(key, element);
    else if (held instanceof Several) held.elements.push(element);
    else this.byKey.set(key, new Several([held, element]));
  }

  /** Removes `element` itself; false when the index does not hold it (then it is not the array's). */
  remove(element: unknown): boolean {
    const key = elementKey(this.kind, element);
    if (key === undefined) return true;
    const held = this.byKey.get(key);
    if (held === element) {
      this.byKey.delete(key);
      return true;
    }
    if (!(held instanceof Several)) return false;
    const at = held.elements.indexOf(element);
    if (at < 0) return false;
    held.elements.splice(at, 1);
    if (held.elements.length === 1) this.byKey.set(key, held.elements[0]);
    return true;
  }
}

/**
 * The element keys (see `valueKeyOf`) of large stored multi-valued attributes, so that adding or
 * removing one member of a 100,000-member group looks the member up instead of reading all 100,000
 * `value`s. One per server (part of its `ServerCaches`), keyed by the stored arrays themselves:
 * only arrays registered in the server's {@link StoredVersions} are indexed, and those never change.
 *
 * An array is indexed the second time its lineage is looked up (a group patched once is only
 * scanned), and each write carries the index to the array the store made of it ({@link carry}):
 * the removed elements leave it, the appended ones join it, nothing else is read. An index
 * moves, never forks: the replaced array loses it, so an index always describes exactly one array.
 * The indexes cover `maxIndexed` elements at most, the least recently used dropped first (with the
 * reference to its array).
 */
export class ElementKeyCache {
  /** Arrays looked up once (the next lookup of their lineage indexes them). */
  private readonly scanned = new WeakSet<readonly unknown[]>();
  /** The indexes, least recently used first. */
  private readonly indexes = new Map<readonly unknown[], KeyIndex>();
  private indexedElements = 0;

  /** `versions`: the arrays that may be indexed; `maxIndexed`: the elements the indexes cover at most. */
  constructor(
    private readonly versions: StoredVersions,
    private readonly maxIndexed = MAX_INDEXED_ELEMENTS,
  ) {}

  /**
   * Calls `found(index, key)` for the elements of `elements` whose key is one of `keys`, from the
   * index, and answers true; false (nothing called) when `elements` is not indexed (yet) under
   * `kind`, or has too many hits: the caller then scans.
   */
  find(elements: readonly unknown[], kind: KeyKind, keys: readonly string[], found: (index: number, key: string) => void): boolean {
    const index = this.index(elements, kind);
    if (index === undefined) return false;
    const hits: { at: number; key: string }[] = [];
    for (const key of keys) {
      let from = 0;
      for (const element of index.elements(key)) {
        if (hits.length === LOCATED_HITS) return false;
        const at = elements.indexOf(element, from);
        // Not there: the index does not describe this array (it cannot happen); drop it and scan.
        if (at < 0) {
          this.drop(elements);
          return false;
        }
        hits.push({ at, key });
        from = at + 1;
      }
    }
    for (const { at, key } of hits) found(at, key);
    return true;
  }

  /**
   * After a write: `after` (the array the store now holds, registered as a stored version before
   * this call when it is one) is `before` without `removed` (those very elements) and with `added`
   * elements appended. What is known of `before` moves to `after`, updated by the change alone.
   * Anything that does not add up drops it.
   */
  carry(before: unknown, after: unknown, removed: readonly unknown[], added: number): void {
    if (!Array.isArray(before) || after === before) return;
    const stored = Array.isArray(after) && this.versions.has(after);
    // A marker only says the lineage is being patched: it moves as is.
    if (this.scanned.has(before)) {
      this.scanned.delete(before);
      if (stored) this.scanned.add(after);
      return;
    }
    const index = this.indexes.get(before);
    if (index === undefined) return;
    this.drop(before);
    if (!stored || after.length !== before.length - removed.length + added || !keepsElements(before, after, removed)) return;
    for (const element of removed) if (!index.remove(element)) return;
    for (let i = after.length - added; i < after.length; i++) index.add(after[i]);
    this.hold(after, index);
  }

  /**
   * After a delete took the elements keyed like `value` (the deleted resource's id) out of `before`
   * (a deleted user leaving a group): {@link carry}, with the removed elements found by the index
   * (those no longer in `after`).
   */
  carryRemoval(before: unknown, after: unknown, kind: KeyKind, value: string): void {
    if (!Array.isArray(before) || !Array.isArray(after)) return;
    const index = this.indexes.get(before);
    if (index !== undefined && !sameKind(index.kind, kind)) {
      this.drop(before);
      return;
    }
    const key = elementKey(kind, kind.complex ? { value } : value);
    const removed = index === undefined || key === undefined ? [] : index.elements(key).filter((element) => !after.includes(element));
    this.carry(before, after, removed, 0);
  }

  /** The index of `elements` under `kind`: built on the second lookup of a large stored array's lineage. */
  private index(elements: readonly unknown[], kind: KeyKind): KeyIndex | undefined {
    if (elements.length < INDEXED_LENGTH || !this.versions.has(elements)) return undefined;
    const held = this.indexes.get(elements);
    if (held !== undefined) {
      if (!sameKind(held.kind, kind)) return undefined;
      // Most recently used: last.
      this.indexes.delete(elements);
      this.indexes.set(elements, held);
      return held;
    }
    if (!this.scanned.has(elements)) {
      this.scanned.add(elements);
      return undefined;
    }
    if (elements.length > this.maxIndexed) return undefined;
    this.scanned.delete(elements);
    const built = KeyIndex.build(elements, kind);
    this.hold(elements, built);
    return built;
  }

  private hold(elements: readonly unknown[], index: KeyIndex): void {
    this.indexes.set(elements, index);
    this.indexedElements += elements.length;
    for (const oldest of this.indexes.keys()) {
      if (this.indexedElements <= this.maxIndexed || oldest === elements) break;
      this.drop(oldest);
    }
  }

  private drop(elements: readonly unknown[]): void {
    if (this.indexes.delete(elements)) this.indexedElements -= elements.length;
  }
}

/**
 * Whether `after` starts with the first element of `before` it kept, that element itself: a store
 * that rebuilt its elements (copies) would leave the index unable to locate any of them.
 */
function keepsElements(before: readonly unknown[], after: readonly unknown[], removed: readonly unknown[]): boolean {
  for (let i = 0; i < before.length; i++) if (!removed.includes(before[i])) return after[0] === before[i];
  return true;
}

function sameKind(a: KeyKind, b: KeyKind): boolean {
  return a.complex === b.complex && a.fold === b.fold;
}
