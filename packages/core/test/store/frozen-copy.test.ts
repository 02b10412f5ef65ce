import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freezeShared, mergeElements, sameJson } from '../../src/store/frozen-copy.js';

const isDeepFrozen = (value: unknown): boolean =>
  typeof value !== 'object' || value === null || (Object.isFrozen(value) && Object.values(value).every(isDeepFrozen));

describe('freezeShared', () => {
  it('copies and deep-freezes, leaving the input untouched and mutable', () => {
    const input = { a: [1, { b: 'x' }], c: { d: null } };
    const copy = freezeShared(input) as typeof input;
    expect(copy).toEqual(input);
    expect(copy).not.toBe(input);
    expect(copy.a[1]).not.toBe(input.a[1]);
    expect(isDeepFrozen(copy)).toBe(true);
    expect(Object.isFrozen(input)).toBe(false);
  });

  it('reuses the objects the previous version holds at the same place, and walks the rest', () => {
    const previous = freezeShared({ name: { given: 'A' }, emails: [{ value: 'a' }, { value: 'b' }] }) as Record<string, unknown>;
    const emails = previous['emails'] as object[];
    const next = { ...previous, title: 'T', emails: [emails[0], { value: 'c' }] };
    const copy = freezeShared(next, previous) as Record<string, unknown>;
    expect(copy['name']).toBe(previous['name']);
    expect((copy['emails'] as object[])[0]).toBe(emails[0]);
    expect((copy['emails'] as object[])[1]).toEqual({ value: 'c' });
    expect(isDeepFrozen(copy)).toBe(true);
  });
});

describe('mergeElements', () => {
  const element = fc.record({ value: fc.constantFrom('a', 'b', 'c', 'd', 'A'), type: fc.constantFrom('User', 'Group') });

  it('always gives a deep-frozen copy equal to next, reusing only stored elements, whatever the removed hint says', () => {
    fc.assert(
      fc.property(
        fc.array(element, { maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(20), fc.constantFrom('same', 'clone', 'new')), { maxLength: 14 }),
        fc.array(fc.nat(20), { maxLength: 4 }),
        fc.array(element, { maxLength: 3 }),
        (seed, picks, removedAt, fresh) => {
          const stored = freezeShared(seed) as readonly unknown[];
          const next = picks.map(([at, how], i) => {
            const base = stored.length === 0 ? undefined : stored[at % stored.length];
            if (base === undefined || how === 'new') return { ...(fresh[i % Math.max(1, fresh.length)] ?? { value: 'z' }) };
            return how === 'same' ? base : structuredClone(base);
          });
          const removed = removedAt.map((at) => stored[at % Math.max(1, stored.length)]).filter((e) => e !== undefined);
          const merged = mergeElements(stored, next, removed);
          expect(merged.elements).toEqual(next);
          expect(isDeepFrozen(merged.elements)).toBe(true);
          for (const kept of merged.elements) if (!merged.added.includes(kept)) expect(stored).toContain(kept);
          // Every stored element is either kept (once per use) or dropped.
          expect(merged.elements.length - merged.added.length + merged.dropped.length).toBe(stored.length);
        },
      ),
    );
  });

  it('appending reuses every stored element and copies the new one', () => {
    const stored = freezeShared([{ value: 'a' }, { value: 'b' }]) as readonly object[];
    const added = { value: 'c' };
    const merged = mergeElements(stored, [...stored, added], []);
    expect(merged.elements[0]).toBe(stored[0]);
    expect(merged.elements[1]).toBe(stored[1]);
    expect(merged.elements[2]).toEqual(added);
    expect(merged.elements[2]).not.toBe(added);
    expect(merged.added).toEqual([added]);
    expect(merged.dropped).toEqual([]);
  });

  it('removing from the middle drops exactly that element and copies nothing', () => {
    const stored = freezeShared([{ value: 'a' }, { value: 'b' }, { value: 'c' }]) as readonly object[];
    const merged = mergeElements(stored, [stored[0], stored[2]], [stored[1]!]);
    expect(merged.elements).toEqual([stored[0], stored[2]]);
    expect(merged.elements[1]).toBe(stored[2]);
    expect(merged.dropped).toEqual([stored[1]]);
    expect(merged.added).toEqual([]);
  });
});

describe('sameJson', () => {
  it('compares JSON values deeply, arrays by order, objects by keys', () => {
    expect(sameJson({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ 0: 1 }, [1])).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});
