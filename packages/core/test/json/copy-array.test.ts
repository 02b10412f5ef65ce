import { describe, expect, it } from 'vitest';
import { copyArray } from '../../src/json/copy-array.js';
import { copyObject, withEntry } from '../../src/json/with-entry.js';

describe('copyArray', () => {
  // Each size crosses one of the copy strategies: short, frozen below the spread limit, large.
  const sizes = [0, 2, 63, 64, 1_000, 8_191, 8_192, 20_000];

  for (const frozen of [false, true]) {
    for (const size of sizes) {
      it(`copies ${size} ${frozen ? 'frozen' : 'plain'} elements into a new plain array, then the extra ones`, () => {
        const elements = Array.from({ length: size }, (_, i) => ({ value: `m${i}` }));
        const source = frozen ? Object.freeze(elements) : elements;
        const extra = [{ value: 'x' }, { value: 'y' }];
        const copy = copyArray(source, extra);
        expect(copy).not.toBe(source);
        expect(Object.isFrozen(copy)).toBe(false);
        expect(copy).toHaveLength(size + 2);
        for (let i = 0; i < size; i++) expect(copy[i]).toBe(source[i]);
        expect(copy[size]).toBe(extra[0]);
        expect(copy[size + 1]).toBe(extra[1]);
        // The copy is the caller's: writing it leaves the source as it was.
        copy.push({ value: 'z' });
        expect(source).toHaveLength(size);
      });
    }
  }

  it('without extra elements is a plain copy', () => {
    const source = Object.freeze([1, 2, 3]);
    const copy = copyArray(source);
    expect(copy).toEqual([1, 2, 3]);
    expect(copy).not.toBe(source);
    copy[0] = 9;
    expect(source[0]).toBe(1);
  });
});

describe('copyObject', () => {
  it('copies own keys, an own __proto__ key as a key, never a prototype', () => {
    const source = JSON.parse('{"a":1,"__proto__":{"polluted":true},"b":[2]}') as Record<string, unknown>;
    const copy = copyObject(source);
    expect(copy).not.toBe(source);
    expect(Object.keys(copy)).toEqual(['a', '__proto__', 'b']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(copy['b']).toBe(source['b']);
  });

  it('is what withEntry builds on: the copy with one key set', () => {
    const source = { a: 1, b: 2 };
    expect(withEntry(source, 'b', 3)).toEqual({ a: 1, b: 3 });
    expect(withEntry(source, 'c', 4)).toEqual({ a: 1, b: 2, c: 4 });
    expect(source).toEqual({ a: 1, b: 2 });
  });
});
