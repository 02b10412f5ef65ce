import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { body, ENTERPRISE, failed, minimalUser, patched, sampleGroup, sampleUser, groupModel, userModel } from './patch-fixtures.js';

describe('add (RFC 7644 §3.5.2.1)', () => {
  it('sets an absent single-valued attribute and replaces a present one', () => {
    expect(patched(userModel, minimalUser(), [{ op: 'add', path: 'nickName', value: 'Babs' }]).nickName).toBe('Babs');
    expect(patched(userModel, sampleUser(), [{ op: 'add', path: 'nickName', value: 'Barbie' }]).nickName).toBe('Barbie');
  });

  it('resolves attribute names ignoring case and writes the schema spelling', () => {
    const user = patched(userModel, minimalUser(), [{ op: 'add', path: 'NICKNAME', value: 'Babs' }, { op: 'add', path: 'Name.GivenName', value: 'B' }]);
    expect(user.nickName).toBe('Babs');
    expect(user.name).toEqual({ givenName: 'B' });
    expect(Object.keys(user)).not.toContain('NICKNAME');
  });

  it('accepts URN-qualified paths for core and extension attributes', () => {
    const user = patched(userModel, minimalUser(), [
      { op: 'add', path: 'urn:ietf:params:scim:schemas:core:2.0:User:displayName', value: 'Alice' },
      { op: 'add', path: `${ENTERPRISE}:employeeNumber`, value: '42' },
      { op: 'add', path: `${ENTERPRISE}:manager.value`, value: 'boss' },
    ]);
    expect(user.displayName).toBe('Alice');
    expect(user[ENTERPRISE]).toEqual({ employeeNumber: '42', manager: { value: 'boss' } });
  });

  it('adding an extension attribute adds the extension URN to schemas (RFC 7644 §3.5.2)', () => {
    const user = patched(userModel, minimalUser(), [{ op: 'add', path: `${ENTERPRISE}:department`, value: 'Ops' }]);
    expect(user.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE]);
  });

  it('merges sub-attributes into a complex attribute', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'add', path: 'name', value: { middleName: 'Jane', givenName: 'Barb' } }]);
    expect(user.name).toEqual({ formatted: 'Ms. Barbara J Jensen, III', familyName: 'Jensen', givenName: 'Barb', middleName: 'Jane' });
  });

  it('appends to a multi-valued attribute', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'add', path: 'emails', value: [{ value: 'b@x.org', type: 'other' }] }]);
    expect(user.emails).toEqual([...(sampleUser().emails as unknown[]), { value: 'b@x.org', type: 'other' }]);
  });

  it('creates a multi-valued attribute that had no value', () => {
    expect(patched(userModel, minimalUser(), [{ op: 'add', path: 'emails', value: [{ value: 'a@x.org' }] }]).emails).toEqual([{ value: 'a@x.org' }]);
  });

  it('accepts a single value for a multi-valued attribute', () => {
    expect(patched(userModel, minimalUser(), [{ op: 'add', path: 'emails', value: { value: 'a@x.org', type: 'work' } }]).emails).toEqual([
      { value: 'a@x.org', type: 'work' },
    ]);
  });

  it('does not add a value that is already present, and reports no change', () => {
    const group = sampleGroup();
    const result = applyPatch(groupModel, group, body({ op: 'add', path: 'members', value: [{ value: '2819c223-7f76-453a-919d-413861904646' }] }));
    expect(result.ok && result.value).toEqual({ resource: group, changed: false, touched: expect.any(Set), changes: [] });
    const again = applyPatch(userModel, sampleUser(), body({ op: 'add', path: 'emails', value: [{ value: 'BJENSEN@example.com', type: 'work' }] }));
    expect(again.ok && again.value.changed).toBe(false);
  });

  it('merges the sub-attributes of a value already present instead of duplicating it', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'add', path: 'phoneNumbers', value: [{ value: '555-555-4444', type: 'mobile', display: '(555) 555-4444' }] }]);
    expect(user.phoneNumbers).toEqual([
      { value: '555-555-5555', type: 'work' },
      { value: '555-555-4444', type: 'mobile', display: '(555) 555-4444' },
    ]);
  });

  it('the same value with another type is a new value', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'add', path: 'emails', value: [{ value: 'babs@jensen.org', type: 'other' }] }]);
    expect((user.emails as unknown[]).length).toBe(3);
  });

  it('without a path merges the attributes of the value into the resource', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'add', value: { emails: [{ value: 'babs@jensen.org', type: 'home' }, { value: 'b@x.org' }], nickName: 'B', Title: 'Tour Guide' } }]);
    expect((user.emails as unknown[]).length).toBe(3);
    expect(user.nickName).toBe('B');
    expect(user.title).toBe('Tour Guide');
  });

  it('without a path, an extension URN key carries the extension attributes', () => {
    const user = patched(userModel, minimalUser(), [{ op: 'add', value: { [ENTERPRISE.toLowerCase()]: { EmployeeNumber: '7', manager: { value: 'm' } } } }]);
    expect(user[ENTERPRISE]).toEqual({ employeeNumber: '7', manager: { value: 'm' } });
    expect(user.schemas).toContain(ENTERPRISE);
  });

  it('the extension root as path takes an object of extension attributes', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'add', path: ENTERPRISE, value: { costCenter: '4130', department: 'Sales' } }]);
    expect(user[ENTERPRISE]).toEqual({ employeeNumber: '701984', department: 'Sales', costCenter: '4130', manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d' } });
  });

  it('the core schema URN as path means the resource itself', () => {
    expect(patched(userModel, minimalUser(), [{ op: 'add', path: 'urn:ietf:params:scim:schemas:core:2.0:User', value: { nickName: 'n' } }]).nickName).toBe('n');
  });

  it('an add with a value filter merges into the matching elements', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'add', path: 'emails[type eq "home"]', value: { display: 'Home mail' } }]);
    expect(user.emails).toEqual([
      { value: 'bjensen@example.com', type: 'work', primary: true },
      { value: 'babs@jensen.org', type: 'home', display: 'Home mail' },
    ]);
  });

  it('an add to a sub-attribute of filtered elements sets it (Okta: members[value eq …].$ref)', () => {
    const group = { ...sampleGroup(), members: [{ value: 'f648f8d5ea4e4cd38e9c' }, { value: '123abc' }] };
    expect(patched(groupModel, group, [{ op: 'add', path: 'members[value eq "123abc"].$ref', value: 'https://example.com/v2/Users/123abc' }]).members).toEqual([
      { value: 'f648f8d5ea4e4cd38e9c' },
      { value: '123abc', $ref: 'https://example.com/v2/Users/123abc' },
    ]);
  });

  it('an add whose value filter matches nothing creates the element from the eq conditions (RFC 7644 §3.5.2.1, docs/concepts/patch.md)', () => {
    expect(patched(userModel, sampleUser(), [{ op: 'add', path: 'emails[type eq "other"].value', value: 'x@y.z' }]).emails).toEqual([
      ...(sampleUser().emails as unknown[]),
      { type: 'other', value: 'x@y.z' },
    ]);
    expect(patched(userModel, minimalUser(), [{ op: 'add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555' }]).phoneNumbers).toEqual([
      { type: 'mobile', value: '+1 555' },
    ]);
    expect(patched(userModel, minimalUser(), [{ op: 'add', path: 'emails[type eq "work" and primary eq true]', value: { value: 'w@x.org' } }]).emails).toEqual([
      { type: 'work', primary: true, value: 'w@x.org' },
    ]);
  });

  it('an add whose value filter matches nothing and describes no single element is 400 noTarget', () => {
    for (const path of ['emails[type eq "work" or type eq "home"].value', 'emails[type sw "w"].value', 'emails[not (type eq "work")].value']) {
      expect(failed(userModel, minimalUser(), [{ op: 'add', path, value: 'x' }])).toMatchObject({ status: 400, scimType: 'noTarget' });
    }
  });

  it('a replace whose value filter matches nothing stays 400 noTarget (createMissingValuePath off)', () => {
    expect(failed(userModel, sampleUser(), [{ op: 'replace', path: 'emails[type eq "other"].value', value: 'x@y.z' }])).toMatchObject({ status: 400, scimType: 'noTarget' });
  });

  it('a value that is not an object for a complex attribute is 400 invalidValue', () => {
    expect(failed(userModel, sampleUser(), [{ op: 'add', path: 'name', value: 'Barbara' }])).toMatchObject({ status: 400, scimType: 'invalidValue' });
    expect(failed(userModel, sampleUser(), [{ op: 'add', value: 'Barbara' }])).toMatchObject({ status: 400, scimType: 'invalidValue' });
  });

  it('an unknown attribute in a path-less value is 400 invalidValue naming it, or dropped with unknownAttributes: ignore', () => {
    const e = failed(userModel, minimalUser(), [{ op: 'add', value: { nickName: 'n', shoeSize: 42 } }]);
    expect(e).toMatchObject({ status: 400, scimType: 'invalidValue' });
    expect(e.detail).toContain('shoeSize');
    const user = patched(userModel, minimalUser(), [{ op: 'add', value: { nickName: 'n', shoeSize: 42 } }], { unknownAttributes: 'ignore' });
    expect(user).toEqual({ ...minimalUser(), nickName: 'n' });
  });

  it('an unknown sub-attribute in a value is 400 invalidValue, or dropped with unknownAttributes: ignore', () => {
    expect(failed(userModel, minimalUser(), [{ op: 'add', path: 'name', value: { givenName: 'a', nick: 'b' } }])).toMatchObject({ scimType: 'invalidValue' });
    expect(patched(userModel, minimalUser(), [{ op: 'add', path: 'name', value: { givenName: 'a', nick: 'b' } }], { unknownAttributes: 'ignore' }).name).toEqual({ givenName: 'a' });
  });

  it('an add of null changes nothing', () => {
    const result = applyPatch(userModel, sampleUser(), body({ op: 'add', path: 'nickName', value: null }));
    expect(result.ok && result.value.changed).toBe(false);
  });

  it('primary: true on an added value clears primary on the others (RFC 7643 §2.4)', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'add', path: 'emails', value: [{ value: 'new@x.org', type: 'other', primary: true }] }]);
    expect(user.emails).toEqual([
      { value: 'bjensen@example.com', type: 'work', primary: false },
      { value: 'babs@jensen.org', type: 'home' },
      { value: 'new@x.org', type: 'other', primary: true },
    ]);
  });

  it('two values with primary: true in one operation are 400 invalidValue', () => {
    const e = failed(userModel, minimalUser(), [{ op: 'add', path: 'emails', value: [{ value: 'a@x.org', primary: true }, { value: 'b@x.org', primary: true }] }]);
    expect(e).toMatchObject({ status: 400, scimType: 'invalidValue' });
  });
});

describe('unknown attributes in paths', () => {
  it('are 400 invalidPath by default, and skipped with unknownAttributes: ignore', () => {
    const op = { op: 'add', path: 'urn:ietf:params:scim:schemas:extension:Custom:2.0:User:costCode', value: '1' };
    expect(failed(userModel, minimalUser(), [op])).toMatchObject({ status: 400, scimType: 'invalidPath' });
    const result = applyPatch(userModel, minimalUser(), body(op, { op: 'add', path: 'nickName', value: 'n' }), { unknownAttributes: 'ignore' });
    expect(result.ok && result.value.resource).toEqual({ ...minimalUser(), nickName: 'n' });
  });

  it('a name that could reach a prototype is refused even with unknownAttributes: ignore', () => {
    for (const path of ['__proto__', 'name.constructor', 'prototype.x']) {
      expect(failed(userModel, minimalUser(), [{ op: 'add', path, value: '1' }], { unknownAttributes: 'ignore' })).toMatchObject({ status: 400 });
    }
  });
});
