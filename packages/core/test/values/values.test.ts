import { describe, expect, it } from 'vitest';
import type { AttributeDefinition } from '../../src/schema/attribute-definition.js';
import { comparisonKey, isUnassigned, matchesKey, sameElement, sameValue } from '../../src/values/index.js';

const text = (caseExact = false): AttributeDefinition => ({ name: 'title', type: 'string', multiValued: false, caseExact, required: false, mutability: 'readWrite', returned: 'default', uniqueness: 'none' }) as AttributeDefinition;

describe('one comparison key (NFC, lower-cased unless caseExact)', () => {
  it('is the same for precomposed and decomposed text, in any case', () => {
    expect(comparisonKey('JOSÉ', false)).toBe(comparisonKey('jose\u0301', false));
    expect(comparisonKey('JOSÉ', true)).toBe('JOSÉ');
  });

  it('matchesKey answers as comparing keys, also when a mark composes with an ASCII letter', () => {
    const key = comparisonKey('josé', false);
    for (const value of ['josé', 'JOSÉ', 'jose\u0301', 'JOSE\u0301']) expect(matchesKey(value, key), value).toBe(true);
    for (const value of ['jose', 'josée', 'jos', 'e\u0301']) expect(matchesKey(value, key), value).toBe(false);
    expect(matchesKey('e\u0301', comparisonKey('É', false))).toBe(true);
  });
});

describe('one sameValue and one isUnassigned', () => {
  it('compare caseExact:false strings by the comparison key, caseExact ones as written', () => {
    expect(sameValue(text(), 'Jose\u0301', 'josé')).toBe(true);
    expect(sameValue(text(true), 'Jose\u0301', 'José')).toBe(false);
  });

  it('treat null, [], {} and absent alike (RFC 7643 §2.5)', () => {
    for (const value of [undefined, null, [], {}, { givenName: null }]) expect(isUnassigned(value), JSON.stringify(value)).toBe(true);
    expect(isUnassigned({ givenName: 'x' })).toBe(false);
    expect(sameElement(text(), null, undefined)).toBe(true);
  });

  it('compares multi-valued attributes as sets', () => {
    const emails = { ...text(), name: 'emails', multiValued: true } as AttributeDefinition;
    expect(sameValue(emails, ['A', 'b'], ['B', 'a'])).toBe(true);
    expect(sameValue(emails, ['A'], ['A', 'B'])).toBe(false);
  });
});
