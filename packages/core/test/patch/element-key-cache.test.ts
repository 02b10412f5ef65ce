import { describe, expect, it } from 'vitest';
import { ElementKeyCache, INDEXED_LENGTH } from '../../src/patch/element-key-cache.js';
import { scanKeys, type KeyKind } from '../../src/patch/value-key.js';
import type { AttributeDefinition } from '../../src/schema/attribute-definition.js';
import { groupModel } from './patch-fixtures.js';
import { freezeShared } from '../../src/store/frozen-copy.js';
import { StoredVersions } from '../../src/json/stored-versions.js';

const MEMBERS = { complex: true, fold: true } satisfies KeyKind;
const members: AttributeDefinition = (() => {
  const resolved = groupModel.resolve({ attr: 'members' });
  if (resolved === undefined) throw new Error('the Group schema has members');
  return resolved.attribute;
})();

/** The stored versions the caches under test may index: what a store with `immutableResults` returned. */
const versions = new StoredVersions();
const stored = <T extends readonly unknown[]>(elements: T): T => {
  versions.register({ members: elements });
  return elements;
};

const group = (count: number, prefix = 'u'): readonly { value: string }[] =>
  stored(freezeShared(Array.from({ length: count }, (_, i) => ({ value: `${prefix}${i}` }))) as readonly { value: string }[]);

/** Every (index, key) the cache reports for `keys`, or undefined when it declines (the caller would scan). */
function found(cache: ElementKeyCache, elements: readonly unknown[], keys: readonly string[], kind: KeyKind = MEMBERS): [number, string][] | undefined {
  const hits: [number, string][] = [];
  return cache.find(elements, kind, keys, (at, key) => hits.push([at, key])) ? hits : undefined;
}

/** What a scan finds: the answer the cache must give. */
function scanned(elements: readonly unknown[], keys: readonly string[]): [number, string][] {
  const hits: [number, string][] = [];
  scanKeys(members, elements, keys, (at, key) => hits.push([at, key]));
  return hits;
}

describe('ElementKeyCache', () => {
  it('scans a large frozen array the first time, then answers from its index as a scan would', () => {
    const cache = new ElementKeyCache(versions);
    const elements = group(INDEXED_LENGTH + 5);
    expect(found(cache, elements, ['u7'])).toBeUndefined();
    for (const keys of [['u7'], ['absent'], ['u0', `u${INDEXED_LENGTH + 4}`, 'absent']]) {
      expect(found(cache, elements, keys)).toEqual(scanned(elements, keys));
    }
  });

  it('never indexes small arrays, nor arrays not registered as stored versions (frozen or not)', () => {
    const cache = new ElementKeyCache(versions);
    const small = group(100);
    const mutable = Array.from({ length: INDEXED_LENGTH }, (_, i) => ({ value: `u${i}` }));
    const frozen = freezeShared(mutable) as readonly unknown[];
    for (let i = 0; i < 3; i++) {
      expect(found(cache, small, ['u1'])).toBeUndefined();
      expect(found(cache, mutable, ['u1'])).toBeUndefined();
      expect(found(cache, frozen, ['u1'])).toBeUndefined();
    }
  });

  it('declines another key kind than the one it indexed', () => {
    const cache = new ElementKeyCache(versions);
    const elements = group(INDEXED_LENGTH);
    found(cache, elements, ['u1']);
    expect(found(cache, elements, ['u1'])).toEqual([[1, 'u1']]);
    expect(found(cache, elements, ['u1'], { complex: true, fold: false })).toBeUndefined();
  });

  it('carries the index to the array a write made, by the removed and appended elements alone', () => {
    const cache = new ElementKeyCache(versions);
    const before = group(INDEXED_LENGTH);
    found(cache, before, ['u1']);
    found(cache, before, ['u1']);
    const removed = [before[3], before[10]];
    // As the memory store writes it: the kept elements themselves, frozen copies of the new ones.
    const after = stored(Object.freeze([...before.filter((e) => !removed.includes(e)), ...group(1, 'New'), ...group(1, 'u3')]));
    cache.carry(before, after, removed, 2);
    for (const keys of [['u3'], ['u10'], ['new0'], ['u11', 'u2']]) expect(found(cache, after, keys)).toEqual(scanned(after, keys));
    // The index moved: the old array is scanned again.
    expect(found(cache, before, ['u1'])).toBeUndefined();
  });

  it('drops an index that does not describe the array it is found for, and scans', () => {
    const cache = new ElementKeyCache(versions);
    const before = group(INDEXED_LENGTH);
    found(cache, before, ['u1']);
    found(cache, before, ['u1']);
    // Copies, not the stored elements themselves (a store that rebuilds its arrays): the index cannot locate them.
    const after = group(INDEXED_LENGTH);
    cache.carry(before, after, [], 0);
    expect(found(cache, after, ['u1'])).toBeUndefined();
    const hits: number[] = [];
    scanKeys(members, after, ['u5'], (at) => hits.push(at), cache);
    expect(hits).toEqual([5]);
  });

  it('drops what it knew when a write does not add up', () => {
    const cache = new ElementKeyCache(versions);
    const before = group(INDEXED_LENGTH + 1);
    found(cache, before, ['u1']);
    found(cache, before, ['u1']);
    const after = stored(Object.freeze(before.slice(1)));
    cache.carry(before, after, [], 0);
    expect(found(cache, after, ['u1'])).toBeUndefined();
    // An element the index does not hold cannot have been removed from its array.
    const other = group(INDEXED_LENGTH + 1);
    found(cache, other, ['u1']);
    found(cache, other, ['u1']);
    const next = stored(Object.freeze(other.slice(1)));
    cache.carry(other, next, [{ value: 'u0' }], 0);
    expect(found(cache, next, ['u1'])).toBeUndefined();
  });

  it('moves the index through a delete cascade, finding the removed elements by key', () => {
    const cache = new ElementKeyCache(versions);
    const before = group(INDEXED_LENGTH + 1);
    found(cache, before, ['u1']);
    found(cache, before, ['u1']);
    const after = stored(Object.freeze(before.filter((e) => e.value !== 'u42')));
    cache.carryRemoval(before, after, MEMBERS, 'U42');
    expect(found(cache, after, ['u42'])).toEqual([]);
    expect(found(cache, after, ['u43'])).toEqual(scanned(after, ['u43']));
  });

  it('keeps several elements under one key in array order, and finds each', () => {
    const cache = new ElementKeyCache(versions);
    const elements = stored(freezeShared([...group(INDEXED_LENGTH), { value: 'U1', type: 'Group' }]) as readonly unknown[]);
    found(cache, elements, ['u1']);
    expect(found(cache, elements, ['u1'])).toEqual([
      [1, 'u1'],
      [INDEXED_LENGTH, 'u1'],
    ]);
  });

  it('covers a bounded number of elements, dropping the least recently used index first', () => {
    const cache = new ElementKeyCache(versions, 2 * INDEXED_LENGTH);
    const [a, b, c] = [group(INDEXED_LENGTH, 'a'), group(INDEXED_LENGTH, 'b'), group(INDEXED_LENGTH, 'c')];
    const index = (elements: readonly unknown[], key: string) => {
      found(cache, elements, [key]);
      return found(cache, elements, [key]);
    };
    expect(index(a, 'a1')).toEqual([[1, 'a1']]);
    expect(index(b, 'b1')).toEqual([[1, 'b1']]);
    // `a` used again: `b` is now the least recently used, and goes when `c` is indexed.
    expect(found(cache, a, ['a2'])).toEqual([[2, 'a2']]);
    expect(index(c, 'c1')).toEqual([[1, 'c1']]);
    expect(found(cache, a, ['a3'])).toEqual([[3, 'a3']]);
    expect(found(cache, b, ['b3'])).toBeUndefined();
    // An array larger than the bound is only ever scanned.
    const large = group(2 * INDEXED_LENGTH + 1);
    expect(index(large, 'u1')).toBeUndefined();
  });

  it('leaves a lookup with many hits to a scan', () => {
    const cache = new ElementKeyCache(versions);
    const elements = stored(freezeShared(Array.from({ length: INDEXED_LENGTH }, (_, i) => ({ value: `k${i % 100}` }))) as readonly unknown[]);
    found(cache, elements, ['k1']);
    expect(found(cache, elements, ['k1'])).toBeUndefined();
    const hits: number[] = [];
    scanKeys(members, elements, ['k1'], (at) => hits.push(at), cache);
    expect(hits).toEqual(scanned(elements, ['k1']).map(([at]) => at));
  });
});
