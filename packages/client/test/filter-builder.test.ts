import { parseFilter } from '@scimkit/core/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filterBuilder, groupFilter, userFilter } from '../src/index.js';

describe('filter builder (RFC 7644 §3.4.2.2)', () => {
  it('prints every operator through the core printer', () => {
    const f = userFilter;
    expect(String(f.eq('userName', 'bjensen'))).toBe('userName eq "bjensen"');
    expect(String(f.ne('active', true))).toBe('active ne true');
    expect(String(f.co('emails.value', '@example.com'))).toBe('emails.value co "@example.com"');
    expect(String(f.sw('name.familyName', 'J'))).toBe('name.familyName sw "J"');
    expect(String(f.ew('displayName', 'son'))).toBe('displayName ew "son"');
    expect(String(f.gt('meta.lastModified', new Date('2026-01-01T00:00:00Z')))).toBe('meta.lastModified gt "2026-01-01T00:00:00.000Z"');
    expect(String(f.ge('meta.created', '2026-01-01T00:00:00Z'))).toBe('meta.created ge "2026-01-01T00:00:00Z"');
    expect(String(f.lt('meta.created', '2027-01-01T00:00:00Z'))).toBe('meta.created lt "2027-01-01T00:00:00Z"');
    expect(String(f.le('meta.created', '2027-01-01T00:00:00Z'))).toBe('meta.created le "2027-01-01T00:00:00Z"');
    expect(String(f.pr('title'))).toBe('title pr');
    expect(String(f.not(f.eq('userName', 'x')))).toBe('not (userName eq "x")');
    expect(String(f.and(f.eq('userName', 'a'), f.or(f.pr('title'), f.eq('active', false))))).toBe('userName eq "a" and (title pr or active eq false)');
    expect(String(f.has('emails', (e) => e.and(e.eq('type', 'work'), e.co('value', '@x.org'))))).toBe('emails[type eq "work" and value co "@x.org"]');
    expect(String(f.eq('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value', 'm1'))).toBe(
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value eq "m1"',
    );
    expect(String(groupFilter.eq('members.value', 'u1'))).toBe('members.value eq "u1"');
    expect(String(f.eq('userName', 'a').or(f.eq('userName', 'b')))).toBe('userName eq "a" or userName eq "b"');
  });

  it('escapes values: a value that tries to close the string stays one string', () => {
    const hostile = 'x" or userName pr or userName eq "';
    const text = String(userFilter.eq('userName', hostile));
    const parsed = parseFilter(text);
    expect(parsed.ok && parsed.value).toEqual({ kind: 'compare', path: { attr: 'userName' }, op: 'eq', value: hostile });
  });

  it('refuses attribute names that are not names', () => {
    const f = filterBuilder();
    for (const bad of ['userName eq "x" or userName', 'a b', 'emails[type eq "work"]', '', 'a.b.c', '1abc', 'x)', 'urn:bad name:attr', '"quoted"']) {
      expect(() => f.eq(bad, 'x'), bad).toThrow(TypeError);
    }
    expect(() => f.eq('userName', Number.NaN)).toThrow(TypeError);
    expect(() => f.eq('userName', { toString: () => 'x' } as unknown as string)).toThrow(TypeError);
    expect(() => f.and()).toThrow(TypeError);
    expect(() => f.not('userName pr' as never)).toThrow(TypeError);
  });

  it('any value round-trips: parseFilter(text) is the filter that was built', () => {
    const value = fc.oneof(fc.string({ unit: 'binary' }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(value, fc.constantFrom('eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le') , (v, op) => {
        const built = (userFilter as unknown as Record<string, (a: string, v: unknown) => { ast: unknown; toString(): string }>)[op]!('displayName', v);
        const parsed = parseFilter(built.toString());
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(parsed.value).toEqual(built.ast);
      }),
      { numRuns: 200 },
    );
  });
});
