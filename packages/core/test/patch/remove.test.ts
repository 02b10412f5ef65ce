import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { body, ENTERPRISE, failed, minimalUser, patched, sampleGroup, sampleUser, groupModel, userModel } from './patch-fixtures.js';

describe('remove (RFC 7644 §3.5.2.2)', () => {
  it('without a path is 400 noTarget', () => {
    expect(failed(userModel, sampleUser(), [{ op: 'remove' }])).toMatchObject({ status: 400, scimType: 'noTarget' });
    expect(failed(userModel, sampleUser(), [{ op: 'remove', value: { nickName: 'Babs' } }])).toMatchObject({ scimType: 'noTarget' });
  });

  it('unassigns a single-valued attribute', () => {
    expect(patched(userModel, sampleUser(), [{ op: 'remove', path: 'nickName' }])).not.toHaveProperty('nickName');
  });

  it('removes a sub-attribute, and the complex attribute once it is empty', () => {
    expect(patched(userModel, sampleUser(), [{ op: 'remove', path: 'name.formatted' }]).name).toEqual({ familyName: 'Jensen', givenName: 'Barbara' });
    expect(patched(userModel, { ...minimalUser(), name: { givenName: 'a' } }, [{ op: 'remove', path: 'name.givenName' }])).not.toHaveProperty('name');
  });

  it('removes all values of a multi-valued attribute', () => {
    expect(patched(userModel, sampleUser(), [{ op: 'remove', path: 'emails' }])).not.toHaveProperty('emails');
  });

  it('removes the values a filter selects', () => {
    expect(patched(userModel, sampleUser(), [{ op: 'remove', path: 'emails[type eq "work" and value ew "example.com"]' }]).emails).toEqual([
      { value: 'babs@jensen.org', type: 'home' },
    ]);
  });

  it('removing the last value unassigns the attribute', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'remove', path: 'emails[type eq "work"]' }, { op: 'remove', path: 'emails[type eq "home"]' }]);
    expect(user).not.toHaveProperty('emails');
  });

  it('removes a sub-attribute of the values a filter selects', () => {
    expect(patched(userModel, sampleUser(), [{ op: 'remove', path: 'emails[type eq "work"].primary' }]).emails).toEqual([
      { value: 'bjensen@example.com', type: 'work' },
      { value: 'babs@jensen.org', type: 'home' },
    ]);
  });

  it('removing something absent succeeds and changes nothing', () => {
    for (const path of ['title', 'name.middleName', 'ims', 'emails[type eq "other"]', 'emails[type eq "work"].display', `${ENTERPRISE}:costCenter`]) {
      const result = applyPatch(userModel, sampleUser(), body({ op: 'remove', path }));
      expect(result.ok && result.value).toEqual({ resource: sampleUser(), changed: false, touched: expect.any(Set), changes: [] });
    }
  });

  it('removing the extension root drops the extension and its URN from schemas', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'remove', path: ENTERPRISE }]);
    expect(user).not.toHaveProperty(ENTERPRISE);
    expect(user.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:User']);
  });

  it('removing the last extension attribute drops the URN from schemas', () => {
    const user = patched(userModel, sampleUser(), [
      { op: 'remove', path: `${ENTERPRISE}:employeeNumber` },
      { op: 'remove', path: `${ENTERPRISE}:department` },
      { op: 'remove', path: `${ENTERPRISE}:manager` },
    ]);
    expect(user).not.toHaveProperty(ENTERPRISE);
    expect(user.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:User']);
  });

  it('removes one member of a group by filter', () => {
    const group = patched(groupModel, sampleGroup(), [{ op: 'remove', path: 'members[value eq "2819c223-7f76-453a-919d-413861904646"]' }]);
    expect((group.members as { value: string }[]).map((m) => m.value)).toEqual(['902c246b-6245-4190-8e05-00816be7344a']);
  });

  it('a value on remove of a multi-valued attribute removes those values (removeValueArray)', () => {
    const group = patched(groupModel, sampleGroup(), [{ op: 'remove', path: 'members', value: [{ value: '902c246b-6245-4190-8e05-00816be7344a' }] }]);
    expect((group.members as { value: string }[]).map((m) => m.value)).toEqual(['2819c223-7f76-453a-919d-413861904646']);
  });

  it('schemas cannot be removed', () => {
    expect(failed(userModel, minimalUser(), [{ op: 'remove', path: 'schemas' }])).toMatchObject({ scimType: 'mutability' });
  });
});
