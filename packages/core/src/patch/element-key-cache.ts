import { elementKey, type KeyKind } from './value-key.js';

/** Arrays shorter than this are scanned: at that size a scan costs less than keeping an index. */
export const INDEXED_LENGTH = 10_000;

/** Hits located with `indexOf` at most per lookup; beyond, one scan finds them all for less. */
const LOCATED_HITS = 16;

/** The array was looked up once: the next lookup in its lineage builds the index. */
const SCANNED = 'scanned';

/** Several elements under one key (rare: a key is an element's identity). */
class Several {
  constructor(readonly elements: unknown[]) {}
}

/** One frozen array's elements by key, in array order. */
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
 * The element keys (see `valueKeyOf`) of large frozen multi-valued attributes, so that adding or
 * removing one member of a 100,000-member group looks the member up instead of reading all 100,000
 * `value`s. One per server (never shared between servers), keyed by the frozen arrays themselves
 * (a stored array never changes, and an array no longer stored is let go with it).
 *
 * An array is indexed the second time its lineage is looked up (a group patched once is only
 * scanned), and each write carries the index to the array the store made of it ({@link carry}):
 * the removed elements leave it, the appended ones join it, nothing else is read. An index
 * moves, never forks: the replaced array loses it, so an index always describes exactly one array.
 */
export class ElementKeyCache {
  private readonly entries = new WeakMap<readonly unknown[], KeyIndex | typeof SCANNED>();

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
          this.entries.delete(elements);
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
   * After a write: `after` (the array the store now holds) is `before` without `removed` (those
   * very elements) and with `added` elements appended. What is known of `before` moves to `after`,
   * updated by the change alone. Anything that does not add up drops it.
   */
  carry(before: unknown, after: unknown, removed: readonly unknown[], added: number): void {
    if (!Array.isArray(before)) return;
    const entry = this.entries.get(before);
    if (entry === undefined || after === before) return;
    this.entries.delete(before);
    if (!Array.isArray(after) || !Object.isFrozen(after)) return;
    // A marker only says the lineage is being patched: it moves as is.
    if (entry === SCANNED) {
      this.entries.set(after, SCANNED);
      return;
    }
    if (after.length !== before.length - removed.length + added || !keepsElements(before, after, removed)) return;
    for (const element of removed) if (!entry.remove(element)) return;
    for (let i = after.length - added; i < after.length; i++) entry.add(after[i]);
    this.entries.set(after, entry);
  }

  /**
   * After a delete took the elements keyed like `value` (the deleted resource's id) out of `before`
   * (a deleted user leaving a group): {@link carry}, with the removed elements found by the index
   * (those no longer in `after`).
   */
  carryRemoval(before: unknown, after: unknown, kind: KeyKind, value: string): void {
    if (!Array.isArray(before) || !Array.isArray(after)) return;
    const entry = this.entries.get(before);
    if (entry === undefined) return;
    const key = entry === SCANNED || !sameKind(entry.kind, kind) ? undefined : elementKey(kind, kind.complex ? { value } : value);
    if (entry !== SCANNED && key === undefined) {
      this.entries.delete(before);
      return;
    }
    const removed = key === undefined || entry === SCANNED ? [] : entry.elements(key).filter((element) => !after.includes(element));
    this.carry(before, after, removed, 0);
  }

  /** The index of `elements` under `kind`: built on the second lookup of a large frozen array's lineage. */
  private index(elements: readonly unknown[], kind: KeyKind): KeyIndex | undefined {
    if (elements.length < INDEXED_LENGTH || !Object.isFrozen(elements)) return undefined;
    const entry = this.entries.get(elements);
    if (entry === undefined) {
      this.entries.set(elements, SCANNED);
      return undefined;
    }
    if (entry !== SCANNED) return sameKind(entry.kind, kind) ? entry : undefined;
    const built = KeyIndex.build(elements, kind);
    this.entries.set(elements, built);
    return built;
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
