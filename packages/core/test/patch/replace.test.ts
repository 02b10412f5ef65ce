import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { body, ENTERPRISE, failed, minimalUser, patched, sampleGroup, sampleUser, groupModel, userModel } from './patch-fixtures.js';

describe('replace (RFC 7644 §3.5.2.3)', () => {
  it('replaces a single-valued attribute, or adds it when absent', () => {
    expect(patched(userModel, sampleUser(), [{ op: 'replace', path: 'displayName', value: 'B' }]).displayName).toBe('B');
    expect(patched(userModel, minimalUser(), [{ op: 'replace', path: 'title', value: 'T' }]).title).toBe('T');
  });

  it('replaces the given sub-attributes of a complex attribute and leaves the others unchanged', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'replace', path: 'name', value: { givenName: 'Barb' } }]);
    expect(user.name).toEqual({ formatted: 'Ms. Barbara J Jensen, III', familyName: 'Jensen', givenName: 'Barb' });
  });

  it('replaces all values of a multi-valued attribute', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'replace', path: 'emails', value: [{ value: 'only@x.org', type: 'work' }] }]);
    expect(user.emails).toEqual([{ value: 'only@x.org', type: 'work' }]);
  });

  it('replaces the matching elements with a value filter', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'replace', path: 'phoneNumbers[type eq "mobile"]', value: { value: '555-000-0000', type: 'mobile' } }]);
    expect(user.phoneNumbers).toEqual([
      { value: '555-555-5555', type: 'work' },
      { value: '555-000-0000', type: 'mobile' },
    ]);
  });

  it('sets a sub-attribute of every matching element', () => {
    const user = { ...minimalUser(), emails: [{ value: 'a@x.org', type: 'work' }, { value: 'b@x.org', type: 'work' }, { value: 'c@x.org', type: 'home' }] };
    expect(patched(userModel, user, [{ op: 'replace', path: 'emails[type eq "work"].display', value: 'W' }]).emails).toEqual([
      { value: 'a@x.org', type: 'work', display: 'W' },
      { value: 'b@x.org', type: 'work', display: 'W' },
      { value: 'c@x.org', type: 'home' },
    ]);
  });

  it('a value filter matching nothing is 400 noTarget', () => {
    const e = failed(userModel, sampleUser(), [{ op: 'replace', path: 'emails[type eq "other"]', value: { value: 'x@y.z', type: 'other' } }]);
    expect(e).toMatchObject({ status: 400, scimType: 'noTarget' });
    expect(e.detail).toContain('Operations[0]');
    expect(failed(userModel, minimalUser(), [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'x@y.z' }])).toMatchObject({ scimType: 'noTarget' });
  });

  it('value filters compare strings by caseExact and support the RFC operators', () => {
    expect(patched(userModel, sampleUser(), [{ op: 'replace', path: 'emails[TYPE EQ "WORK"].display', value: 'w' }]).emails).toEqual([
      { value: 'bjensen@example.com', type: 'work', primary: true, display: 'w' },
      { value: 'babs@jensen.org', type: 'home' },
    ]);
    const user = patched(userModel, sampleUser(), [
      { op: 'replace', path: 'emails[value ew ".org" and not (type eq "work")].display', value: 'org' },
      { op: 'replace', path: 'emails[primary eq true].display', value: 'primary' },
      { op: 'replace', path: 'phoneNumbers[value sw "555-555-4" or type pr].display', value: 'p' },
    ]);
    expect(user.emails).toEqual([
      { value: 'bjensen@example.com', type: 'work', primary: true, display: 'primary' },
      { value: 'babs@jensen.org', type: 'home', display: 'org' },
    ]);
    expect((user.phoneNumbers as { display?: string }[]).every((p) => p.display === 'p')).toBe(true);
  });

  it('ordering operators on a boolean in a value filter are 400 invalidPath', () => {
    expect(failed(userModel, sampleUser(), [{ op: 'replace', path: 'emails[primary gt true].display', value: 'x' }])).toMatchObject({ scimType: 'invalidPath' });
  });

  it('value filters follow the caseExact of the sub-attribute the schema declares', () => {
    const members = groupModel.resolve({ attr: 'members', subAttr: 'value' });
    const upper = '2819C223-7F76-453A-919D-413861904646';
    const r = applyPatch(groupModel, sampleGroup(), body({ op: 'remove', path: `members[value eq "${upper}"]` }));
    expect(r.ok && r.value.changed).toBe(members?.target.caseExact === false);
  });

  it('without a path replaces each attribute of the value (Okta deactivation)', () => {
    const result = applyPatch(userModel, sampleUser(), { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value: { active: false } }] });
    expect(result.ok && result.value.resource.active).toBe(false);
    expect(result.ok && result.value.changed).toBe(true);
  });

  it('without a path, a multi-valued attribute is replaced whole', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'replace', value: { emails: [{ value: 'n@x.org', type: 'work', primary: true }], nickName: 'Babs' } }]);
    expect(user.emails).toEqual([{ value: 'n@x.org', type: 'work', primary: true }]);
  });

  it('replace with null unassigns the attribute', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'replace', path: 'nickName', value: null }, { op: 'replace', path: 'emails', value: [] }]);
    expect(user).not.toHaveProperty('nickName');
    expect(user).not.toHaveProperty('emails');
  });

  it('replace with null on a sub-attribute unassigns it, and an emptied complex attribute goes', () => {
    const user = patched(userModel, { ...minimalUser(), name: { givenName: 'a' } }, [{ op: 'replace', path: 'name.givenName', value: null }]);
    expect(user).not.toHaveProperty('name');
  });

  it('replacing the extension root merges its attributes', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'replace', path: ENTERPRISE, value: { department: 'X' } }]);
    expect(user[ENTERPRISE]).toMatchObject({ employeeNumber: '701984', department: 'X' });
  });

  it('setting primary: true through a filter clears primary on the other values', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'replace', path: 'emails[type eq "home"].primary', value: true }]);
    expect(user.emails).toEqual([
      { value: 'bjensen@example.com', type: 'work', primary: false },
      { value: 'babs@jensen.org', type: 'home', primary: true },
    ]);
  });

  it('replacing a multi-valued attribute with two primary values is 400 invalidValue', () => {
    expect(failed(userModel, sampleUser(), [{ op: 'replace', path: 'emails', value: [{ value: 'a@b.c', primary: true }, { value: 'd@e.f', primary: true }] }])).toMatchObject({
      scimType: 'invalidValue',
    });
  });

  it('writing the value an attribute already has reports no change', () => {
    const result = applyPatch(userModel, sampleUser(), body({ op: 'replace', path: 'userName', value: 'bjensen@example.com' }, { op: 'replace', value: { name: { givenName: 'Barbara' } } }));
    expect(result.ok && result.value.changed).toBe(false);
  });

  it('a sub-attribute path without a filter on a multi-valued attribute applies to every value', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'replace', path: 'phoneNumbers.display', value: 'x' }]);
    expect((user.phoneNumbers as { display?: string }[]).map((p) => p.display)).toEqual(['x', 'x']);
  });

  it('schemas may be written with URNs of the resource type; it stays derived from the data', () => {
    const user = patched(userModel, minimalUser(), [{ op: 'replace', path: 'schemas', value: ['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE] }]);
    expect(user.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:User']);
    expect(failed(userModel, minimalUser(), [{ op: 'replace', path: 'schemas', value: ['urn:x:y'] }])).toMatchObject({ scimType: 'invalidValue' });
  });
});
