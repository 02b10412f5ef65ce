import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { body, ENTERPRISE, failed, minimalUser, patched, sampleGroup, sampleUser, groupModel, userModel } from './patch-fixtures.js';

describe('mutability and required attributes (RFC 7644 §3.5.2, RFC 7643 §2.2)', () => {
  it.each([
    ['id', 'x'],
    ['meta', { created: '2020-01-01T00:00:00Z' }],
    ['meta.lastModified', '2020-01-01T00:00:00Z'],
    ['groups', [{ value: 'g' }]],
    ['groups[value eq "e9e30dba-f08f-4109-8486-d5c6a331660a"].display', 'x'],
  ])('a path to the readOnly %s is 400 mutability', (path, value) => {
    for (const op of ['add', 'replace']) {
      expect(failed(userModel, sampleUser(), [{ op, path, value }])).toMatchObject({ status: 400, scimType: 'mutability' });
    }
    expect(failed(userModel, sampleUser(), [{ op: 'remove', path }])).toMatchObject({ status: 400, scimType: 'mutability' });
  });

  it('a path-less value changing a readOnly attribute is 400 mutability', () => {
    expect(failed(userModel, sampleUser(), [{ op: 'replace', value: { id: 'other', nickName: 'x' } }])).toMatchObject({ scimType: 'mutability' });
    expect(failed(userModel, sampleUser(), [{ op: 'add', value: { groups: [{ value: 'g2' }] } }])).toMatchObject({ scimType: 'mutability' });
  });

  it('a path-less value repeating a readOnly attribute unchanged is accepted', () => {
    const user = sampleUser();
    const result = applyPatch(userModel, user, body({ op: 'replace', value: { id: user.id, meta: user.meta, nickName: 'x' } }));
    expect(result.ok && result.value.resource).toEqual({ ...user, nickName: 'x' });
  });

  it('readOnly sub-attributes given inside a value are ignored (members.display)', () => {
    const group = patched(groupModel, { ...sampleGroup(), members: [] }, [{ op: 'add', path: 'members', value: [{ value: 'u1', display: 'Someone' }] }]);
    expect(group.members).toEqual([{ value: 'u1' }]);
  });

  it('an immutable sub-attribute may be added while unset but not changed', () => {
    const group = { ...sampleGroup(), members: [{ value: 'u1' }] };
    expect(patched(groupModel, group, [{ op: 'add', path: 'members[value eq "u1"].type', value: 'User' }]).members).toEqual([{ value: 'u1', type: 'User' }]);
    expect(failed(groupModel, group, [{ op: 'replace', path: 'members[value eq "u1"].value', value: 'u2' }])).toMatchObject({ status: 400, scimType: 'mutability' });
    expect(failed(groupModel, group, [{ op: 'replace', path: 'members[value eq "u1"]', value: { value: 'u2' } }])).toMatchObject({ scimType: 'mutability' });
    expect(failed(groupModel, group, [{ op: 'remove', path: 'members[value eq "u1"].value' }])).toMatchObject({ scimType: 'mutability' });
  });

  it('elements of a readWrite attribute with immutable sub-attributes can still be added, removed and replaced as a whole', () => {
    const group = sampleGroup();
    expect(patched(groupModel, group, [{ op: 'replace', path: 'members', value: [{ value: 'a' }] }]).members).toEqual([{ value: 'a' }]);
    expect(patched(groupModel, group, [{ op: 'remove', path: 'members' }])).not.toHaveProperty('members');
  });

  it('an immutable attribute may be added while unassigned, written unchanged, but not modified or removed', () => {
    const immutable = userModel.resolve({ attr: 'members' });
    expect(immutable).toBeUndefined();
    // members.value is immutable in the Group schema; so is `value` of the only member here.
    const group = { ...sampleGroup(), members: [{ value: 'u1' }] };
    const same = applyPatch(groupModel, group, body({ op: 'replace', path: 'members[value eq "u1"].value', value: 'u1' }));
    expect(same.ok && same.value.changed).toBe(false);
  });

  it('removing a required attribute is 400 mutability (RFC 7644 §3.5.2.2)', () => {
    const e = failed(userModel, sampleUser(), [{ op: 'remove', path: 'userName' }]);
    expect(e).toMatchObject({ status: 400, scimType: 'mutability' });
    expect(e.detail).toContain('userName');
    expect(failed(userModel, sampleUser(), [{ op: 'replace', path: 'userName', value: null }])).toMatchObject({ scimType: 'mutability' });
    expect(failed(groupModel, sampleGroup(), [{ op: 'remove', path: 'displayName' }])).toMatchObject({ scimType: 'mutability' });
  });

  it('an error leaves the input untouched and applies none of the earlier operations', () => {
    const user = sampleUser();
    const before = structuredClone(user);
    const result = applyPatch(userModel, user, body({ op: 'replace', path: 'nickName', value: 'changed' }, { op: 'remove', path: `${ENTERPRISE}:employeeNumber` }, { op: 'replace', path: 'id', value: 'x' }));
    expect(result.ok).toBe(false);
    expect(user).toEqual(before);
  });

  it('never mutates its input on success either', () => {
    const user = sampleUser();
    const before = structuredClone(user);
    const result = applyPatch(userModel, user, body({ op: 'add', path: 'emails', value: [{ value: 'n@x.org', primary: true }] }, { op: 'remove', path: 'name.givenName' }));
    expect(result.ok).toBe(true);
    expect(user).toEqual(before);
    expect(result.ok && result.value.resource).not.toBe(user);
  });

  it('a minimal user patched to set then remove an attribute reports no change', () => {
    const result = applyPatch(userModel, minimalUser(), body({ op: 'add', path: 'nickName', value: 'x' }, { op: 'remove', path: 'nickName' }));
    expect(result.ok && result.value).toEqual({ resource: minimalUser(), changed: false, touched: expect.any(Set), changes: [] });
  });
});
