import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attrPathEnd, isAttrPath } from '../../src/filter/attr-path-syntax.js';

/**
 * The reference: RFC 7644 §3.4.2.2's `attrPath = [URI ":"] ATTRNAME *1subAttr` as a regular
 * expression (a URI is a letter and URI characters; `$ref` is the one name with a `$`, RFC 7643
 * §2.3.7). The hand-written scanner must match exactly what it matches, wherever a word starts.
 */
const ATTRNAME = String.raw`(?:[A-Za-z][\w-]*|\$[Rr][Ee][Ff])`;
const ATTR_PATH = new RegExp(String.raw`(?:[A-Za-z][\w.:+%/=;@~!*?#&-]*:)?${ATTRNAME}(?:\.${ATTRNAME})?`, 'y');

function referenceEnd(text: string, start: number): number {
  ATTR_PATH.lastIndex = start;
  return ATTR_PATH.test(text) ? ATTR_PATH.lastIndex : -1;
}

const pieces = ['a', 'Z', 'name', 'x1', '_', '-', '.', ':', '::', 'urn:', '$ref', '$REF', '$', '$re', '2.0', ' ', '"', '[', ']', '(', ',', '/', '@', '#', 'é', 'eq'];
const words = fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((parts) => parts.join(''));

describe('attribute path syntax (RFC 7644 §3.4.2.2)', () => {
  it('ends where the grammar, read as a regular expression, ends (property)', () => {
    fc.assert(
      fc.property(words, fc.nat(), (text, at) => {
        const start = text.length === 0 ? 0 : at % text.length;
        expect(attrPathEnd(text, start)).toBe(referenceEnd(text, start));
      }),
      { numRuns: 5_000 },
    );
  });

  it('splits the URI at the last colon an attribute name follows', () => {
    const urn = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
    expect(attrPathEnd(`${urn}:manager.value eq "x"`, 0)).toBe(urn.length + ':manager.value'.length);
    expect(attrPathEnd('a:b: pr', 0)).toBe(3);
    expect(attrPathEnd('urn:x:$ref', 0)).toBe(10);
    expect(isAttrPath('name.givenName')).toBe(true);
    expect(isAttrPath('name.givenName.x')).toBe(false);
    expect(isAttrPath('')).toBe(false);
  });
});
