import { describe, expect, it } from 'vitest';
import { applyPatch, type PatchOptions } from '../../src/patch/index.js';
import { validateResource } from '../../src/schema/index.js';
import type { ResourceModel } from '../../src/schema/resource-model.js';
import type { ScimResource } from '../../src/schema/scim-resource.js';
import { body, ENTERPRISE, minimalUser, sampleGroup, sampleUser, groupModel, userModel } from './patch-fixtures.js';

/** What the server does: applyPatch, then validateResource on the result with the stored resource as `existing`. */
function patchAndValidate(model: ResourceModel, existing: ScimResource, operations: unknown[], options?: PatchOptions) {
  const patched = applyPatch(model, existing, body(...operations), options);
  if (!patched.ok) return patched;
  return validateResource(model, patched.value.resource, { operation: 'patch', existing });
}

describe('applyPatch then validateResource', () => {
  it('a patched user validates and keeps id, meta and the extension', () => {
    const user = sampleUser();
    const result = patchAndValidate(userModel, user, [
      { op: 'Replace', path: 'active', value: 'False' },
      { op: 'Add', path: 'emails[type eq "work"].value', value: 'new@example.com' },
      { op: 'Add', path: `${ENTERPRISE}:manager`, value: 'boss' },
      { op: 'replace', value: { 'name.givenName': 'B' } },
    ]);
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    expect(result.value).toMatchObject({ id: user.id, meta: user.meta, active: false, name: { givenName: 'B' }, [ENTERPRISE]: { manager: { value: 'boss' } } });
    expect(result.value.schemas).toEqual(user.schemas);
  });

  it('wrong types pass through applyPatch and are rejected by validateResource (400 invalidValue)', () => {
    for (const op of [
      { op: 'replace', path: 'active', value: 'maybe' },
      { op: 'replace', path: 'nickName', value: 42 },
      { op: 'add', path: 'emails', value: [{ value: 7 }] },
    ]) {
      expect(applyPatch(userModel, sampleUser(), body(op)).ok).toBe(true);
      const result = patchAndValidate(userModel, sampleUser(), [op]);
      expect(!result.ok && result.error).toMatchObject({ status: 400, scimType: 'invalidValue' });
    }
  });

  it('a group patched by Entra member operations validates', () => {
    const result = patchAndValidate(groupModel, sampleGroup(), [
      { op: 'Add', path: 'members', value: [{ value: 'u3' }] },
      { op: 'Remove', path: 'members', value: [{ value: '902c246b-6245-4190-8e05-00816be7344a' }] },
    ]);
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    expect((result.value.members as { value: string }[]).map((m) => m.value)).toEqual(['2819c223-7f76-453a-919d-413861904646', 'u3']);
  });

  it('a required attribute cannot be removed: applyPatch answers before validation', () => {
    const result = patchAndValidate(userModel, minimalUser(), [{ op: 'remove', path: 'userName' }]);
    expect(!result.ok && result.error).toMatchObject({ status: 400, scimType: 'mutability' });
  });

  it('a path-less replace of the whole resource (as some clients echo it) validates', () => {
    const user = sampleUser();
    const { schemas: _s, ...rest } = user;
    const result = patchAndValidate(userModel, user, [{ op: 'replace', value: { ...rest, nickName: 'Echo' } }]);
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    expect(result.value.nickName).toBe('Echo');
  });
});
