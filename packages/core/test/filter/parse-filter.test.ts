import { describe, expect, it } from 'vitest';
import type { Filter } from '../../src/filter/index.js';
import { parseFilter } from '../../src/filter/index.js';

function parsed(text: string): Filter {
  const result = parseFilter(text);
  if (!result.ok) throw new Error(`expected ${text} to parse: ${result.error.detail}`);
  return result.value;
}

function failure(text: string, limits?: Parameters<typeof parseFilter>[1]): string {
  const result = parseFilter(text, limits);
  expect(result.ok).toBe(false);
  if (result.ok) return '';
  expect(result.error.status).toBe(400);
  expect(result.error.scimType).toBe('invalidFilter');
  return result.error.detail;
}

const eq = (attr: string, value: string | number | boolean | null, extra: { uri?: string; subAttr?: string } = {}): Filter => ({
  kind: 'compare',
  path: { ...(extra.uri !== undefined ? { uri: extra.uri } : {}), attr, ...(extra.subAttr !== undefined ? { subAttr: extra.subAttr } : {}) },
  op: 'eq',
  value,
});

describe('parseFilter: RFC 7644 §3.4.2.2 Figure 2 examples', () => {
  const examples = [
    'userName eq "bjensen"',
    `name.familyName co "O'Malley"`,
    'userName sw "J"',
    'urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"',
    'title pr',
    'meta.lastModified gt "2011-05-13T04:42:34Z"',
    'meta.lastModified ge "2011-05-13T04:42:34Z"',
    'meta.lastModified lt "2011-05-13T04:42:34Z"',
    'meta.lastModified le "2011-05-13T04:42:34Z"',
    'title pr and userType eq "Employee"',
    'title pr or userType eq "Intern"',
    'schemas eq "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"',
    'userType eq "Employee" and (emails co "example.com" or\n  emails.value co "example.org")',
    'userType ne "Employee" and not (emails co "example.com" or\n  emails.value co "example.org")',
    'userType eq "Employee" and (emails.type eq "work")',
    'userType eq "Employee" and emails[type eq "work" and\n  value co "@example.com"]',
    'emails[type eq "work" and value co "@example.com"] or\n  ims[type eq "xmpp" and value co "@foo.com"]',
  ];
  it.each(examples)('parses %s', (text) => {
    expect(parseFilter(text).ok).toBe(true);
  });

  it('builds the expected trees', () => {
    expect(parsed(`name.familyName co "O'Malley"`)).toEqual({
      kind: 'compare',
      path: { attr: 'name', subAttr: 'familyName' },
      op: 'co',
      value: "O'Malley",
    });
    expect(parsed('urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"')).toEqual({
      kind: 'compare',
      path: { uri: 'urn:ietf:params:scim:schemas:core:2.0:User', attr: 'userName' },
      op: 'sw',
      value: 'J',
    });
    expect(parsed('title pr')).toEqual({ kind: 'present', path: { attr: 'title' } });
    expect(parsed('userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")')).toEqual({
      kind: 'and',
      left: { kind: 'compare', path: { attr: 'userType' }, op: 'ne', value: 'Employee' },
      right: {
        kind: 'not',
        filter: {
          kind: 'or',
          left: { kind: 'compare', path: { attr: 'emails' }, op: 'co', value: 'example.com' },
          right: { kind: 'compare', path: { attr: 'emails', subAttr: 'value' }, op: 'co', value: 'example.org' },
        },
      },
    });
    expect(parsed('emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]')).toEqual({
      kind: 'or',
      left: {
        kind: 'valuePath',
        path: { attr: 'emails' },
        filter: { kind: 'and', left: eq('type', 'work'), right: { kind: 'compare', path: { attr: 'value' }, op: 'co', value: '@example.com' } },
      },
      right: {
        kind: 'valuePath',
        path: { attr: 'ims' },
        filter: { kind: 'and', left: eq('type', 'xmpp'), right: { kind: 'compare', path: { attr: 'value' }, op: 'co', value: '@foo.com' } },
      },
    });
  });
});

describe('parseFilter: attribute paths', () => {
  it('keeps names as written', () => {
    expect(parsed('USERNAME eq "x"')).toEqual(eq('USERNAME', 'x'));
    expect(parsed('Name.GivenName eq "x"')).toEqual(eq('Name', 'x', { subAttr: 'GivenName' }));
  });

  it('accepts ATTRNAME characters: letters, digits, "-", "_", and $ref', () => {
    expect(parsed('a1-b_c eq 1')).toEqual(eq('a1-b_c', 1));
    expect(parsed('members.$ref eq "x"')).toEqual(eq('members', 'x', { subAttr: '$ref' }));
    expect(parsed('$ref pr')).toEqual({ kind: 'present', path: { attr: '$ref' } });
  });

  it('rejects names that do not start with a letter', () => {
    failure('1abc eq "x"');
    failure('-abc eq "x"');
    failure('_abc eq "x"');
    failure('valid$Name eq null');
  });

  it('splits a URN prefix at the last colon before the attribute name, URNs with dots included', () => {
    expect(parsed('urn:ietf:params:scim:schemas:core:2.0:User:name.givenName eq "x"')).toEqual(
      eq('name', 'x', { uri: 'urn:ietf:params:scim:schemas:core:2.0:User', subAttr: 'givenName' }),
    );
    expect(parsed('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value eq "x"')).toEqual(
      eq('manager', 'x', { uri: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User', subAttr: 'value' }),
    );
    expect(parsed('urn:acme:schemas:1.0.3:Custom:employee-id pr')).toEqual({
      kind: 'present',
      path: { uri: 'urn:acme:schemas:1.0.3:Custom', attr: 'employee-id' },
    });
  });

  it('accepts at most one sub-attribute', () => {
    expect(failure('name.givenName.x eq "y"')).toMatch(/position 14/);
  });

  it('lets attribute names that are also keywords be attribute names', () => {
    expect(parsed('pr pr')).toEqual({ kind: 'present', path: { attr: 'pr' } });
    expect(parsed('eq eq "x"')).toEqual(eq('eq', 'x'));
    expect(parsed('and eq true')).toEqual(eq('and', true));
    expect(parsed('product eq "x"')).toEqual(eq('product', 'x'));
    expect(parsed('order eq 1 and notes pr')).toEqual({ kind: 'and', left: eq('order', 1), right: { kind: 'present', path: { attr: 'notes' } } });
  });
});

describe('parseFilter: operators and keywords', () => {
  it.each(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le'] as const)('parses %s in any case', (op) => {
    for (const spelling of [op, op.toUpperCase(), op.charAt(0).toUpperCase() + op.slice(1)]) {
      expect(parsed(`userName ${spelling} "x"`)).toEqual({ kind: 'compare', path: { attr: 'userName' }, op, value: 'x' });
    }
  });

  it('parses and, or, not, pr, true, false, null in any case', () => {
    expect(parsed('a PR AND b Pr')).toEqual({ kind: 'and', left: { kind: 'present', path: { attr: 'a' } }, right: { kind: 'present', path: { attr: 'b' } } });
    expect(parsed('a pr OR b pr').kind).toBe('or');
    expect(parsed('NOT (a pr)')).toEqual({ kind: 'not', filter: { kind: 'present', path: { attr: 'a' } } });
    expect(parsed('a eq TRUE')).toEqual(eq('a', true));
    expect(parsed('a eq False')).toEqual(eq('a', false));
    expect(parsed('a eq NULL')).toEqual(eq('a', null));
  });

  it('rejects unknown operators, naming what was expected', () => {
    expect(failure('userName regex "x"')).toBe(
      "Invalid filter at position 9: expected a comparison operator (eq, ne, co, sw, ew, gt, lt, ge, le), 'pr' or a value filter '[' after 'userName' but found 'regex'",
    );
    expect(failure('userName')).toMatch(/position 8: expected a comparison operator .* after 'userName' but found the end of the input/);
    expect(failure('userName == "x"')).toMatch(/position 9: unexpected character "="/);
  });
});

describe('parseFilter: precedence and grouping', () => {
  const a = { kind: 'present', path: { attr: 'a' } } as const;
  const b = { kind: 'present', path: { attr: 'b' } } as const;
  const c = { kind: 'present', path: { attr: 'c' } } as const;

  it('binds and tighter than or', () => {
    expect(parsed('a pr or b pr and c pr')).toEqual({ kind: 'or', left: a, right: { kind: 'and', left: b, right: c } });
    expect(parsed('a pr and b pr or c pr')).toEqual({ kind: 'or', left: { kind: 'and', left: a, right: b }, right: c });
  });

  it('is left-associative', () => {
    expect(parsed('a pr and b pr and c pr')).toEqual({ kind: 'and', left: { kind: 'and', left: a, right: b }, right: c });
    expect(parsed('a pr or b pr or c pr')).toEqual({ kind: 'or', left: { kind: 'or', left: a, right: b }, right: c });
  });

  it('lets parentheses override precedence, and drops them from the tree', () => {
    expect(parsed('(a pr or b pr) and c pr')).toEqual({ kind: 'and', left: { kind: 'or', left: a, right: b }, right: c });
    expect(parsed('a pr and (b pr and c pr)')).toEqual({ kind: 'and', left: a, right: { kind: 'and', left: b, right: c } });
    expect(parsed('((a pr))')).toEqual(a);
  });

  it('binds not to its parenthesised operand, with or without a space', () => {
    expect(parsed('not (a pr) and b pr')).toEqual({ kind: 'and', left: { kind: 'not', filter: a }, right: b });
    expect(parsed('not(a pr or b pr)')).toEqual({ kind: 'not', filter: { kind: 'or', left: a, right: b } });
    expect(parsed('not (not (a pr))')).toEqual({ kind: 'not', filter: { kind: 'not', filter: a } });
  });

  it('requires parentheses after not (RFC 7644 Figure 1)', () => {
    expect(failure('not a pr')).toMatch(/position 4: expected '\(' after 'not'/);
  });

  it('reports unbalanced parentheses and brackets', () => {
    expect(failure('(a pr')).toMatch(/position 5: expected '\)' after 'pr' but found the end of the input/);
    expect(failure('a pr)')).toMatch(/position 4: unbalanced '\)'/);
    expect(failure('emails[type eq "work"')).toMatch(/expected '\]'/);
    expect(failure('a pr]')).toMatch(/unbalanced '\]'/);
    expect(failure('()')).toMatch(/position 1/);
  });

  it('tolerates any amount of whitespace, tabs and newlines', () => {
    expect(parsed('  a   pr \t and\n\nb pr  ')).toEqual({ kind: 'and', left: a, right: b });
    expect(parsed('a eq"x"')).toEqual(eq('a', 'x'));
  });

  it('rejects an expression that does not join with and/or', () => {
    expect(failure('a pr b pr')).toBe("Invalid filter at position 5: expected 'and', 'or' or the end of the expression but found 'b'");
    expect(failure('a pr and')).toMatch(/after 'and' but found the end of the input/);
    expect(failure('and a pr')).toMatch(/position 4/);
  });
});

describe('parseFilter: value paths', () => {
  it('parses attrPath[valFilter], with not and parentheses inside', () => {
    expect(parsed('emails[not (type eq "work")]')).toEqual({
      kind: 'valuePath',
      path: { attr: 'emails' },
      filter: { kind: 'not', filter: eq('type', 'work') },
    });
    expect(parsed('urn:ietf:params:scim:schemas:core:2.0:User:emails[type eq "work"]')).toEqual({
      kind: 'valuePath',
      path: { uri: 'urn:ietf:params:scim:schemas:core:2.0:User', attr: 'emails' },
      filter: eq('type', 'work'),
    });
  });

  it('folds a sub-attribute after the brackets into the element filter (Entra)', () => {
    expect(parsed('emails[type eq "work"].value eq "x"')).toEqual({
      kind: 'valuePath',
      path: { attr: 'emails' },
      filter: { kind: 'and', left: eq('type', 'work'), right: eq('value', 'x') },
    });
    expect(parsed('emails[type eq "work"].value pr')).toEqual({
      kind: 'valuePath',
      path: { attr: 'emails' },
      filter: { kind: 'and', left: eq('type', 'work'), right: { kind: 'present', path: { attr: 'value' } } },
    });
    expect(failure('emails[type eq "work"].value')).toMatch(/after '.value' but found the end/);
  });

  it('combines value paths with and/or', () => {
    expect(parsed('userType eq "Employee" and emails[type eq "work"]').kind).toBe('and');
  });

  it('refuses value filters inside value filters (valFilter has no valuePath)', () => {
    expect(failure('emails[type[value eq "x"]]')).toMatch(/position 11: a value filter cannot contain another value filter/);
  });

  it('refuses empty brackets', () => {
    expect(failure('emails[]')).toMatch(/position 7/);
  });
});

describe('parseFilter: values (JSON, RFC 7159)', () => {
  it('parses strings with every JSON escape', () => {
    expect(parsed(String.raw`a eq "q\"b\\s\/f\bf\ff\nn\rr\tt\u00e9\uD83D\uDE00"`)).toEqual(eq('a', 'q"b\\s/f\bf\ff\nn\rr\tt\u00e9😀'));
    expect(parsed('a eq ""')).toEqual(eq('a', ''));
    expect(parsed('a eq "ünï cödé ✓"')).toEqual(eq('a', 'ünï cödé ✓'));
    expect(parsed('a eq "and or not ( ) [ ]"')).toEqual(eq('a', 'and or not ( ) [ ]'));
  });

  it('rejects invalid escapes, raw control characters and unterminated strings', () => {
    expect(failure(String.raw`a eq "\q"`)).toMatch(/position 5: invalid string/);
    expect(failure(String.raw`a eq "\u12"`)).toMatch(/position 5: invalid string/);
    expect(failure('a eq "tab\there"')).toMatch(/position 5: invalid string/);
    expect(failure('a eq "open')).toBe('Invalid filter at position 5: unterminated string: a value string must end with a double quote');
    expect(failure('a eq "x\\"')).toMatch(/unterminated string/);
  });

  it('parses JSON numbers: integers, decimals, exponents, negatives', () => {
    expect(parsed('a eq 0')).toEqual(eq('a', 0));
    expect(parsed('a eq -12')).toEqual(eq('a', -12));
    expect(parsed('a eq 1.5')).toEqual(eq('a', 1.5));
    expect(parsed('a eq 2e2')).toEqual(eq('a', 200));
    expect(parsed('a eq -1.25E-2')).toEqual(eq('a', -0.0125));
    expect(parsed('a eq 1e+3')).toEqual(eq('a', 1000));
  });

  it('rejects numbers beyond the range of a double', () => {
    expect(failure('a eq 1e400')).toBe('Invalid filter at position 5: the number 1e400 is out of range');
    expect(failure('a eq -1e309')).toMatch(/out of range/);
    expect(parsed('a eq 1e-400')).toEqual(eq('a', 0));
  });

  it('rejects numbers that are not JSON', () => {
    failure('a eq 01');
    failure('a eq 1.');
    failure('a eq .5');
    failure('a eq +1');
    failure('a eq 0x10');
    failure('a eq 123abc');
  });

  it('rejects unquoted and single-quoted values', () => {
    expect(failure('userName eq bjensen')).toBe(
      "Invalid filter at position 12: expected a value (a JSON string in double quotes, a number, true, false or null) after 'eq' but found 'bjensen'",
    );
    expect(failure("userName eq 'bjensen'")).toBe('Invalid filter at position 12: values are JSON strings and must be in double quotes');
    expect(failure('a eq -null')).toMatch(/position 5/);
    expect(failure('a eq')).toMatch(/after 'eq' but found the end of the input/);
  });

  it('rejects a value after pr, and pr with a value', () => {
    expect(failure('a pr "x"')).toMatch(/position 5/);
  });
});

describe('parseFilter: bad input and limits', () => {
  it('rejects empty and blank filters', () => {
    expect(failure('')).toBe('Invalid filter: the filter is empty');
    expect(failure('   ')).toBe('Invalid filter: the filter is empty');
  });

  it('rejects non-strings without throwing', () => {
    expect(failure(undefined as unknown as string)).toMatch(/must be a string/);
    expect(failure({} as unknown as string)).toMatch(/must be a string/);
  });

  it('refuses a 20,000-deep parenthesised filter quickly, whatever the length limit', () => {
    const deep = `${'('.repeat(20_000)}a pr${')'.repeat(20_000)}`;
    const started = performance.now();
    expect(failure(deep)).toMatch(/the limit is 10000/);
    expect(failure(deep, { maxLength: 1_000_000 })).toBe('Invalid filter at position 50: parentheses and brackets nest deeper than the limit of 50');
    const nots = `${'not ('.repeat(20_000)}a pr${')'.repeat(20_000)}`;
    expect(failure(nots, { maxLength: 1_000_000 })).toMatch(/nest deeper than the limit of 50/);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('refuses a 1 MB filter quickly', () => {
    const big = `userName eq "${'x'.repeat(1_000_000)}"`;
    const started = performance.now();
    expect(failure(big)).toBe(`Invalid filter at position 10000: the expression is ${big.length} characters long; the limit is 10000`);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('parses a 1 MB filter without overflowing when the limit allows it', () => {
    const chain = Array.from({ length: 40_000 }, (_, i) => `id eq "${i}"`).join(' or ');
    const result = parseFilter(chain, { maxLength: 2_000_000 });
    expect(result.ok).toBe(true);
  });

  it('accepts nesting up to the limit and counts brackets outside strings only', () => {
    const fifty = `${'('.repeat(50)}a pr${')'.repeat(50)}`;
    expect(parseFilter(fifty).ok).toBe(true);
    expect(parseFilter(`${'('.repeat(51)}a pr${')'.repeat(51)}`).ok).toBe(false);
    expect(parseFilter(`a eq "${'('.repeat(500)}"`).ok).toBe(true);
    expect(parseFilter(`(((a pr)))`, { maxDepth: 2 }).ok).toBe(false);
    expect(parseFilter('a pr', { maxLength: 3 }).ok).toBe(false);
  });

  it('keeps nesting within what the parser can take, whatever limits are asked for', () => {
    const deep = (n: number) => `${'('.repeat(n)}a pr${')'.repeat(n)}`;
    expect(parseFilter(deep(200), { maxDepth: 1_000_000 }).ok).toBe(true);
    expect(failure(deep(5_000), { maxLength: 1_000_000, maxDepth: 1_000_000 })).toMatch(/nest deeper than the limit of 200/);
    expect(failure(deep(51), { maxDepth: Number.NaN })).toMatch(/limit of 50/);
    expect(parseFilter('a pr', { maxLength: -1 }).ok).toBe(true);
  });

  it('names stray characters', () => {
    expect(failure('a eq "x" & b pr')).toBe('Invalid filter at position 9: unexpected character "&"');
    expect(failure('a eq "x" ; drop table')).toMatch(/position 9: unexpected character ";"/);
    // The earliest problem wins, whether the lexer or the parser finds it.
    expect(failure('userName bad "x" & y')).toMatch(/^Invalid filter at position 9: expected a comparison operator/);
    expect(failure('userName eq "x" & y')).toMatch(/^Invalid filter at position 16: unexpected character "&"/);
  });
});
