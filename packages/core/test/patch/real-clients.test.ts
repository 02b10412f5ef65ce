import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { ENTERPRISE, failed, minimalUser, PATCH_OP, patched, sampleGroup, sampleUser, groupModel, userModel } from './patch-fixtures.js';

/**
 * Payloads as Microsoft Entra ID and Okta send them. The Entra group and "garbage" bodies are
 * copied from the Microsoft SCIM validator's Postman collection (microsoft-scim-tests), the others
 * from Microsoft's and Okta's provisioning documentation.
 */
describe('Microsoft Entra ID', () => {
  it('replaces userName (Postman "patch user1")', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'replace', path: 'userName', value: 'ryan3' }]);
    expect(user.userName).toBe('ryan3');
  });

  it('"Replace" with a capital R (Postman "Patch user omalley new username")', () => {
    const result = applyPatch(userModel, sampleUser(), {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'userName', value: 'newusername' }],
    });
    expect(result.ok && result.value.resource.userName).toBe('newusername');
  });

  it('"Replace" active with a JSON boolean (Postman "patch user omalley active with boolean")', () => {
    expect(patched(userModel, sampleUser(), [{ op: 'Replace', path: 'active', value: false }]).active).toBe(false);
  });

  describe('stringBooleans', () => {
    it('reads "False"/"True" for boolean attributes and sub-attributes (default on)', () => {
      expect(patched(userModel, sampleUser(), [{ op: 'Replace', path: 'active', value: 'False' }]).active).toBe(false);
      expect(patched(userModel, sampleUser(), [{ op: 'Replace', value: { active: 'True' } }]).active).toBe(true);
      const user = patched(userModel, sampleUser(), [{ op: 'Add', path: 'emails[type eq "home"].primary', value: 'True' }]);
      expect(user.emails).toEqual([
        { value: 'bjensen@example.com', type: 'work', primary: false },
        { value: 'babs@jensen.org', type: 'home', primary: true },
      ]);
    });

    it('leaves the string alone when off (validation then rejects it)', () => {
      expect(patched(userModel, sampleUser(), [{ op: 'Replace', path: 'active', value: 'False' }], { stringBooleans: false }).active).toBe('False');
    });

    it('does not touch string attributes', () => {
      expect(patched(userModel, sampleUser(), [{ op: 'Replace', path: 'nickName', value: 'True' }]).nickName).toBe('True');
    });
  });

  describe('removeValueArray', () => {
    const entraRemove = { op: 'Remove', path: 'members', value: [{ value: '902c246b-6245-4190-8e05-00816be7344a' }] };

    it('removes the members listed in value, keeping the others (default on)', () => {
      const group = patched(groupModel, sampleGroup(), [entraRemove]);
      expect(group.members).toEqual([(sampleGroup().members as unknown[])[0]]);
    });

    it('several members at once, unknown ids ignored', () => {
      const group = patched(groupModel, sampleGroup(), [
        { op: 'Remove', path: 'members', value: [{ value: '902c246b-6245-4190-8e05-00816be7344a' }, { value: '2819c223-7f76-453a-919d-413861904646' }, { value: 'nobody' }] },
      ]);
      expect(group).not.toHaveProperty('members');
    });

    it('a null sub-attribute in the value must be absent on the element (scimmy fixture)', () => {
      const group = { ...sampleGroup(), members: [{ value: 'f648' }, { $ref: 'https://x/Users/f648', value: 'f648' }] };
      const result = patched(groupModel, group, [{ op: 'remove', path: 'members', value: [{ $ref: null, value: 'f648' }] }]);
      expect(result.members).toEqual([{ $ref: 'https://x/Users/f648', value: 'f648' }]);
    });

    it('an object value selects by its sub-attributes (Okta-style remove emails {type: home})', () => {
      const user = patched(userModel, sampleUser(), [{ op: 'remove', path: 'emails', value: { type: 'home' } }]);
      expect(user.emails).toEqual([{ value: 'bjensen@example.com', type: 'work', primary: true }]);
    });

    it('an empty item selects nothing rather than everything', () => {
      const result = applyPatch(groupModel, sampleGroup(), { schemas: [PATCH_OP], Operations: [{ op: 'Remove', path: 'members', value: [{}] }] });
      expect(result.ok && result.value.changed).toBe(false);
    });

    it('when off, a remove with a value is 400 invalidValue, never "remove all members"', () => {
      expect(failed(groupModel, sampleGroup(), [entraRemove], { removeValueArray: false })).toMatchObject({ status: 400, scimType: 'invalidValue' });
    });
  });

  describe('pathKeysInValue', () => {
    const entraUpdate = {
      op: 'Replace',
      value: {
        displayName: 'Updated Name',
        'name.givenName': 'Updated',
        'name.familyName': 'Name',
        [`${ENTERPRISE}:employeeNumber`]: '1234',
        [`${ENTERPRISE}:manager`]: 'mgr-1',
        'urn:ietf:params:scim:schemas:core:2.0:User:title': 'Boss',
        'emails[type eq "work"].value': 'x',
      },
    };

    it('accepts attribute paths and URN-qualified names as keys (default on)', () => {
      const { ['emails[type eq "work"].value']: _unused, ...value } = entraUpdate.value;
      const user = patched(userModel, minimalUser(), [{ op: 'Replace', value }]);
      expect(user).toMatchObject({ displayName: 'Updated Name', name: { givenName: 'Updated', familyName: 'Name' }, title: 'Boss' });
      expect(user[ENTERPRISE]).toEqual({ employeeNumber: '1234', manager: { value: 'mgr-1' } });
      expect(user.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE]);
    });

    it('a value-filter key is not an attribute name (400 invalidValue)', () => {
      expect(failed(userModel, minimalUser(), [entraUpdate])).toMatchObject({ status: 400, scimType: 'invalidValue' });
    });

    it('a dotted key on a multi-valued attribute sets that sub-attribute on every value', () => {
      expect(patched(userModel, sampleUser(), [{ op: 'replace', value: { 'phoneNumbers.display': 'p' } }]).phoneNumbers).toEqual([
        { value: '555-555-5555', type: 'work', display: 'p' },
        { value: '555-555-4444', type: 'mobile', display: 'p' },
      ]);
    });

    it('when off, such keys are unknown attributes', () => {
      expect(failed(userModel, minimalUser(), [{ op: 'Replace', value: { 'name.givenName': 'x' } }], { pathKeysInValue: false })).toMatchObject({ scimType: 'invalidValue' });
      expect(patched(userModel, minimalUser(), [{ op: 'Replace', value: { 'name.givenName': 'x' } }], { pathKeysInValue: false, unknownAttributes: 'ignore' })).toEqual(minimalUser());
    });
  });

  describe('managerAsString', () => {
    it('reads a bare manager id as {value} (default on)', () => {
      const user = patched(userModel, minimalUser(), [{ op: 'Add', path: `${ENTERPRISE}:manager`, value: '2819c223-7f76-453a-919d-413861904646' }]);
      expect(user[ENTERPRISE]).toEqual({ manager: { value: '2819c223-7f76-453a-919d-413861904646' } });
    });

    it('reads the older [{"$ref":null,"value":…}] shape', () => {
      const user = patched(userModel, minimalUser(), [{ op: 'Add', path: 'manager', value: [{ $ref: null, value: 'm-1' }] }]);
      expect(user[ENTERPRISE]).toEqual({ manager: { value: 'm-1' } });
    });

    it('replaces a manager given as an object too', () => {
      const user = patched(userModel, sampleUser(), [{ op: 'Replace', path: `${ENTERPRISE}:manager`, value: { value: 'other' } }]);
      expect((user[ENTERPRISE] as { manager: unknown }).manager).toEqual({ value: 'other' });
    });

    it('adds a member given as a bare id (Postman "Group patch add member")', () => {
      const body = { id: 'g1', Operations: [{ op: 'add', path: 'members', value: 'string id 1' }], schemas: [PATCH_OP] };
      const result = applyPatch(groupModel, { ...sampleGroup(), members: [] }, body);
      expect(result.ok && result.value.resource.members).toEqual([{ value: 'string id 1' }]);
    });

    it('when off, a string for a complex attribute is 400 invalidValue', () => {
      expect(failed(userModel, minimalUser(), [{ op: 'Add', path: `${ENTERPRISE}:manager`, value: 'm' }], { managerAsString: false })).toMatchObject({ scimType: 'invalidValue' });
    });
  });

  describe('createMissingValuePath', () => {
    const op = { op: 'Add', path: 'emails[type eq "work"].value', value: 'work@x.org' };

    it('is off by default: add creates the value (Entra), replace with no matching value is 400 noTarget', () => {
      expect(patched(userModel, minimalUser(), [op]).emails).toEqual([{ type: 'work', value: 'work@x.org' }]);
      expect(failed(userModel, minimalUser(), [{ ...op, op: 'Replace' }])).toMatchObject({ status: 400, scimType: 'noTarget' });
    });

    it('when on, creates the value the filter describes', () => {
      const options = { createMissingValuePath: true };
      expect(patched(userModel, minimalUser(), [op], options).emails).toEqual([{ type: 'work', value: 'work@x.org' }]);
      expect(patched(userModel, minimalUser(), [{ op: 'replace', path: 'addresses[type eq "work"].formatted', value: 'F' }], options).addresses).toEqual([
        { type: 'work', formatted: 'F' },
      ]);
      expect(patched(userModel, minimalUser(), [{ op: 'replace', path: 'emails[type eq "work" and primary eq true]', value: { value: 'w@x.org' } }], options).emails).toEqual([
        { type: 'work', primary: true, value: 'w@x.org' },
      ]);
    });

    it('when on, an existing value is still updated in place', () => {
      expect(patched(userModel, sampleUser(), [op], { createMissingValuePath: true }).emails).toEqual([
        { value: 'work@x.org', type: 'work', primary: true },
        { value: 'babs@jensen.org', type: 'home' },
      ]);
    });

    it('when on, a filter that does not describe one value is still 400 noTarget', () => {
      for (const path of ['emails[type eq "work" or type eq "home"].value', 'emails[type sw "w"].value', 'emails[not (type eq "work")].value']) {
        expect(failed(userModel, minimalUser(), [{ op: 'add', path, value: 'x' }], { createMissingValuePath: true })).toMatchObject({ scimType: 'noTarget' });
      }
    });
  });

  it('group member add and remove from the Postman collection', () => {
    const group = { ...sampleGroup(), members: [] };
    const id4 = 'c7b0b4a2-0f0e-4c50-9f2e-1d0b4a7a0001';
    const added = applyPatch(groupModel, group, JSON.parse(`{"schemas":["${PATCH_OP}"],"Operations":[{"name":"addMember","op":"add","path":"members","value":[{"value":"${id4}"}]}]}`));
    expect(added.ok && added.value.resource.members).toEqual([{ value: id4 }]);
    if (!added.ok) return;
    const removed = applyPatch(groupModel, added.value.resource, JSON.parse(`{"schemas":["${PATCH_OP}"],"Operations":[{"op":"remove","path":"members[value eq \\"${id4}\\"]"}]}`));
    expect(removed.ok && removed.value.resource).not.toHaveProperty('members');
  });
});

describe('Okta', () => {
  it('deactivates with a path-less replace', () => {
    const result = applyPatch(userModel, sampleUser(), { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] });
    expect(result.ok && result.value).toMatchObject({ resource: { active: false }, changed: true });
  });

  it('renames a group with a path-less replace that repeats its id', () => {
    const group = sampleGroup();
    const result = applyPatch(groupModel, group, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { id: group.id, displayName: 'Renamed' } }] });
    expect(result.ok && result.value.resource.displayName).toBe('Renamed');
  });

  it('pushes group members with add and removes them with a filter', () => {
    const group = patched(groupModel, { ...sampleGroup(), members: [] }, [
      { op: 'add', path: 'members', value: [{ value: 'u1', display: 'u1@example.com' }, { value: 'u2', display: 'u2@example.com' }] },
      { op: 'remove', path: 'members[value eq "u1"]' },
    ]);
    expect(group.members).toEqual([{ value: 'u2' }]);
  });

  it('changes a password with a path-less replace', () => {
    expect(patched(userModel, sampleUser(), [{ op: 'replace', value: { password: 'N3w-secret' } }]).password).toBe('N3w-secret');
  });
});

/** Extra check: every PATCH body in the Microsoft validator's Postman collection, when present. */
const POSTMAN = new URL('../../../../../shared/conformance/microsoft-scim-tests/PostmanCollection.json', import.meta.url);
describe('Microsoft SCIM validator PATCH bodies (when /work/shared is present)', () => {
  const bodies: { name: string; raw: string }[] = [];
  if (existsSync(POSTMAN)) {
    const walk = (items: unknown[], prefix: string): void => {
      for (const item of items as { name: string; item?: unknown[]; request?: { method?: string; body?: { raw?: string } } }[]) {
        if (item.item) walk(item.item, `${prefix}${item.name}/`);
        else if (item.request?.method === 'PATCH' && typeof item.request.body?.raw === 'string') bodies.push({ name: prefix + item.name, raw: item.request.body.raw });
      }
    };
    walk((JSON.parse(readFileSync(POSTMAN, 'utf8')) as { item: unknown[] }).item, '');
  }

  it('finds the PATCH bodies it checks', () => {
    expect(bodies.length === 0 || bodies.length >= 5).toBe(true);
  });

  for (const { name, raw } of bodies) {
    it(`accepts "${name}"`, () => {
      const text = raw.replace(/\{\{[^}]+\}\}/g, 'c7b0b4a2-0f0e-4c50-9f2e-1d0b4a7a0001');
      const isGroup = /members|group/i.test(name);
      // The validator's member payloads carry "displayName", which Group members do not have.
      const result = applyPatch(isGroup ? groupModel : userModel, isGroup ? sampleGroup() : sampleUser(), JSON.parse(text), { unknownAttributes: 'ignore' });
      expect(result.ok).toBe(true);
    });
  }
});
