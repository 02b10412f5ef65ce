import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastFilter, fastPatchPath } from '../../src/filter/fast-filter-parser.js';
import { syntaxFilter, syntaxPatchPath } from '../../src/filter/filter-parser.js';
import { printFilter } from '../../src/filter/index.js';
import { filter, mutated } from './filter-arbitraries.js';

/**
 * The hand-written parser is a fast path in front of the chevrotain one: whatever it accepts, the
 * chevrotain parser must accept with the very same AST; what it refuses, the chevrotain parser
 * reports. So it may refuse more, never accept more.
 */
function agrees(text: string): void {
  const fast = fastFilter(text);
  const full = syntaxFilter(text);
  if (fast !== undefined) expect(full).toEqual({ ok: true, value: fast });
  const fastPath = fastPatchPath(text);
  if (fastPath !== undefined) expect(syntaxPatchPath(text)).toEqual({ ok: true, value: fastPath });
}

describe('fast filter parser', () => {
  it('parses every printed filter, to the AST the chevrotain parser builds', () => {
    fc.assert(
      fc.property(filter, (ast) => {
        const text = printFilter(ast);
        expect(fastFilter(text)).toEqual(ast);
        agrees(text);
      }),
      { numRuns: 1500 },
    );
  });

  it('never accepts a near-miss the chevrotain parser refuses, nor parses it differently', () => {
    fc.assert(fc.property(mutated(filter.map((ast) => printFilter(ast))), agrees), { numRuns: 4000 });
  });

  it('agrees on keywords as names, case, nesting, numbers and hostile text', () => {
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
      agrees(text);
    }
  });
});
