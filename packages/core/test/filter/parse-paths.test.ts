import { describe, expect, it } from 'vitest';
import { parseAttrPath, parseAttrPathList, parsePatchPath, printPatchPath } from '../../src/filter/index.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

function pathFailure(result: { ok: boolean; error?: { status: number; scimType?: string; detail: string } }): string {
  expect(result.ok).toBe(false);
  expect(result.error?.status).toBe(400);
  expect(result.error?.scimType).toBe('invalidPath');
  return result.error?.detail ?? '';
}

describe('parsePatchPath (RFC 7644 §3.5.2, Figure 5)', () => {
  it('parses attrPath', () => {
    expect(parsePatchPath('userName')).toEqual({ ok: true, value: { attrPath: { attr: 'userName' } } });
    expect(parsePatchPath('name.familyName')).toEqual({ ok: true, value: { attrPath: { attr: 'name', subAttr: 'familyName' } } });
    expect(parsePatchPath(`${ENTERPRISE}:manager.value`)).toEqual({
      ok: true,
      value: { attrPath: { uri: ENTERPRISE, attr: 'manager', subAttr: 'value' } },
    });
    expect(parsePatchPath(`${ENTERPRISE}:employeeNumber`)).toEqual({ ok: true, value: { attrPath: { uri: ENTERPRISE, attr: 'employeeNumber' } } });
  });

  it('parses valuePath and valuePath.subAttr', () => {
    expect(parsePatchPath('members[value eq "2819c223-7f76-453a-919d-413861904646"]')).toEqual({
      ok: true,
      value: {
        attrPath: { attr: 'members' },
        valueFilter: { kind: 'compare', path: { attr: 'value' }, op: 'eq', value: '2819c223-7f76-453a-919d-413861904646' },
      },
    });
    expect(parsePatchPath('emails[type eq "work"].value')).toEqual({
      ok: true,
      value: {
        attrPath: { attr: 'emails' },
        valueFilter: { kind: 'compare', path: { attr: 'type' }, op: 'eq', value: 'work' },
        subAttr: 'value',
      },
    });
    expect(parsePatchPath('members[value eq "x"].$ref')).toMatchObject({ ok: true, value: { subAttr: '$ref' } });
    expect(parsePatchPath('addresses[type eq "work" and primary eq true].streetAddress')).toMatchObject({
      ok: true,
      value: { attrPath: { attr: 'addresses' }, subAttr: 'streetAddress', valueFilter: { kind: 'and' } },
    });
  });

  it('round-trips through printPatchPath', () => {
    for (const text of ['userName', 'emails[type eq "work"].value', `${ENTERPRISE}:manager.value`, 'members[value eq "x" or value eq "y"]']) {
      const parsed = parsePatchPath(text);
      if (!parsed.ok) throw new Error(parsed.error.detail);
      expect(parsePatchPath(printPatchPath(parsed.value))).toEqual(parsed);
    }
  });

  it('tolerates surrounding whitespace', () => {
    expect(parsePatchPath('  members[value eq "x"]  ').ok).toBe(true);
  });

  it('answers invalidPath for malformed paths', () => {
    expect(pathFailure(parsePatchPath(''))).toBe('Invalid path: the path is empty');
    expect(pathFailure(parsePatchPath('a.b.c'))).toBe("Invalid path at position 3: expected the end of the path but found '.c'");
    expect(pathFailure(parsePatchPath('emails[type eq "work"'))).toMatch(/expected '\]'/);
    expect(pathFailure(parsePatchPath('emails[type eq work]'))).toMatch(/position 15: expected a value/);
    expect(pathFailure(parsePatchPath('emails[type eq "work"].value.x'))).toMatch(/position 28/);
    expect(pathFailure(parsePatchPath('emails[]'))).toMatch(/position 7/);
    expect(pathFailure(parsePatchPath('userName eq "x"'))).toMatch(/position 9/);
    expect(pathFailure(parsePatchPath('1bad'))).toMatch(/position 0/);
    expect(pathFailure(parsePatchPath(`x[${'('.repeat(100)}`))).toMatch(/nest deeper/);
    expect(pathFailure(parsePatchPath(null as unknown as string))).toMatch(/must be a string/);
  });
});

describe('parseAttrPath (sortBy)', () => {
  it('parses names, sub-attributes and URN-qualified names, keeping the spelling', () => {
    expect(parseAttrPath('userName')).toEqual({ ok: true, value: { attr: 'userName' } });
    expect(parseAttrPath(' Name.FamilyName ')).toEqual({ ok: true, value: { attr: 'Name', subAttr: 'FamilyName' } });
    expect(parseAttrPath('meta.lastModified')).toEqual({ ok: true, value: { attr: 'meta', subAttr: 'lastModified' } });
    expect(parseAttrPath(`${ENTERPRISE}:manager.displayName`)).toEqual({
      ok: true,
      value: { uri: ENTERPRISE, attr: 'manager', subAttr: 'displayName' },
    });
  });

  it('answers invalidPath for anything else', () => {
    for (const text of ['', ' ', 'a b', 'a.b.c', 'userName,emails', '1a', 'a[b eq 1]', '"userName"', 'a.', '.a', 'urn:x:']) {
      expect(pathFailure(parseAttrPath(text))).toMatch(/^Invalid attribute path /);
    }
    expect(pathFailure(parseAttrPath('x'.repeat(20_000)))).toMatch(/limit is 10000/);
  });
});

describe('parseAttrPathList (attributes, excludedAttributes)', () => {
  it('splits on commas and tolerates whitespace and empty entries', () => {
    expect(parseAttrPathList('userName, name.givenName ,emails')).toEqual({
      ok: true,
      value: [{ attr: 'userName' }, { attr: 'name', subAttr: 'givenName' }, { attr: 'emails' }],
    });
    expect(parseAttrPathList('userName,,')).toEqual({ ok: true, value: [{ attr: 'userName' }] });
    expect(parseAttrPathList('')).toEqual({ ok: true, value: [] });
  });

  it('keeps unknown names (the schema decides) and URN-qualified names', () => {
    expect(parseAttrPathList(`noSuchThing,${ENTERPRISE}:employeeNumber`)).toEqual({
      ok: true,
      value: [{ attr: 'noSuchThing' }, { uri: ENTERPRISE, attr: 'employeeNumber' }],
    });
  });

  it('answers invalidPath naming a garbage entry', () => {
    expect(pathFailure(parseAttrPathList('userName,emails[type eq "work"]'))).toMatch(/"emails\[type eq \\"work\\"\]" is not an attribute path/);
    expect(pathFailure(parseAttrPathList('userName;emails'))).toMatch(/not an attribute path/);
    expect(pathFailure(parseAttrPathList('user name'))).toMatch(/"user name"/);
  });
});
