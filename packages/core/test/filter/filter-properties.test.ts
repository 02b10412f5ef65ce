import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAttrPath, parseAttrPathList, parseFilter, parsePatchPath, printFilter } from '../../src/filter/index.js';
import { filter, mutated } from './filter-arbitraries.js';

describe('printFilter / parseFilter round trip (property)', () => {
  it('parses the printed text of any filter back to the same tree', () => {
    fc.assert(
      fc.property(filter, (ast) => {
        const text = printFilter(ast);
        const parsed = parseFilter(text, { maxLength: 1_000_000, maxDepth: 1_000 });
        if (!parsed.ok) throw new Error(`${text}: ${parsed.error.detail}`);
        expect(parsed.value).toEqual(ast);
      }),
      { numRuns: 1_000 },
    );
  });

  it('prints canonically: printing a parsed printed filter gives the same text', () => {
    fc.assert(
      fc.property(filter, (ast) => {
        const text = printFilter(ast);
        const again = parseFilter(text, { maxLength: 1_000_000, maxDepth: 1_000 });
        expect(again.ok && printFilter(again.value)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('parsers never throw (property)', () => {
  const parsers = [
    (text: string) => parseFilter(text),
    (text: string) => parseFilter(text, { unquotedValues: true }),
    (text: string) => parsePatchPath(text),
    (text: string) => parseAttrPath(text),
    (text: string) => parseAttrPathList(text),
  ];

  function settles(text: string): void {
    for (const parse of parsers) {
      const result = parse(text);
      expect(typeof result.ok).toBe('boolean');
      if (!result.ok) {
        expect(result.error.status).toBe(400);
        expect(['invalidFilter', 'invalidPath']).toContain(result.error.scimType);
        expect(result.error.detail.length).toBeGreaterThan(0);
      }
    }
  }

  it('on random strings', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme-ascii' })), settles), { numRuns: 2_000 });
  });

  it('on mutated valid filters, and what still parses prints back to itself', () => {
    fc.assert(
      fc.property(mutated(filter.map((ast) => printFilter(ast))), (text) => {
        settles(text);
        const parsed = parseFilter(text);
        if (parsed.ok) expect(parseFilter(printFilter(parsed.value))).toEqual(parsed);
      }),
      { numRuns: 2_000 },
    );
  });

  it('on deep and long inputs of every bracket kind', () => {
    fc.assert(
      fc.property(fc.constantFrom('(', '[', 'not (', 'a[', '"', '\\'), fc.integer({ min: 1, max: 30_000 }), (unit, n) => {
        settles(unit.repeat(n));
        settles(`a eq ${unit.repeat(n)}`);
      }),
      { numRuns: 50 },
    );
  });

  it('on keywords as names, case, nesting, numbers and hostile text: what parses prints back to the same tree', () => {
    for (const text of [
      'pr pr',
      'eq eq "x"',
      'and pr and or pr',
      'AND Pr',
      'not pr',
      'not (a pr)',
      'NOT(a pr)',
      'notx pr',
      'a[b[c pr]]',
      'a[b pr].c pr',
      'a[b pr].c eq 1e999',
      'a eq 1e999',
      'a eq -0.5E+3',
      'a eq 01',
      'a eq "\\u00e9\\n"',
      'a eq "raw\u0001"',
      'urn:ietf:params:scim:schemas:core:2.0:User:name.givenName eq "x"',
      '$ref eq "x"',
      'a.b.c eq "x"',
      'a eq "x"]',
      '((a pr)',
      'a pr or',
      'emails[type eq "work"].value',
      'members[value eq "x"]',
      'members',
      'name.givenName',
      `${'('.repeat(5000)}a pr${')'.repeat(5000)}`,
    ]) {
      settles(text);
      const parsed = parseFilter(text);
      if (parsed.ok) expect(parseFilter(printFilter(parsed.value)), text).toEqual(parsed);
      const path = parsePatchPath(text);
      if (path.ok) expect(path.value.attrPath.attr.length, text).toBeGreaterThan(0);
    }
  });
});
