import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import type { ScimResource } from '../../src/schema/scim-resource.js';
import { body, ENTERPRISE, groupModel, sampleGroup, sampleUser, userModel } from './patch-fixtures.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

function patched(resource: ScimResource, ...operations: unknown[]) {
  const result = applyPatch(resource.schemas.includes('urn:ietf:params:scim:schemas:core:2.0:Group') ? groupModel : userModel, resource, body(...operations));
  if (!result.ok) throw new Error(result.error.detail);
  return result.value;
}

describe('copy-on-write PATCH', () => {
  it('cleans up the elements a PATCH adds (unassigned sub-attributes dropped) and keeps the stored ones as they are', () => {
    const group = deepFreeze({ ...sampleGroup(), members: [{ value: 'a' }, { value: 'b' }, { value: 'c' }] } as ScimResource);
    const stored = group.members as unknown[];
    const result = patched(group, { op: 'remove', path: 'members[value eq "b"]' }, { op: 'add', path: 'members', value: [{ value: 'd', display: null }] });
    const members = result.resource.members as unknown[];
    expect(members).toEqual([{ value: 'a' }, { value: 'c' }, { value: 'd' }]);
    expect(members[0]).toBe(stored[0]);
    expect(members[1]).toBe(stored[2]);
    expect(result.changes).toEqual([{ attribute: 'members', added: [{ value: 'd' }], removed: [{ value: 'b' }] }]);
  });

  it('patches a deeply frozen resource without touching it, sharing what it did not write', () => {
    const user = deepFreeze(sampleUser());
    const copy = structuredClone(user);
    const result = patched(
      user,
      { op: 'replace', path: 'name.givenName', value: 'Barb' },
      { op: 'replace', path: 'emails[type eq "work"].value', value: 'barb@example.com' },
      { op: 'add', path: `${ENTERPRISE}:department`, value: 'Sales' },
    );
    expect(user).toEqual(copy);
    const out = result.resource as Record<string, Record<string, unknown>>;
    expect(out.name).toEqual({ ...copy.name as object, givenName: 'Barb' });
    expect(out[ENTERPRISE]?.department).toBe('Sales');
    // Untouched attributes, the untouched email and the manager are the stored objects themselves.
    expect(result.resource.addresses).toBe(user.addresses);
    expect(result.resource.meta).toBe(user.meta);
    expect((result.resource.emails as unknown[])[1]).toBe((user.emails as unknown[])[1]);
    expect(out[ENTERPRISE]?.manager).toBe((user[ENTERPRISE] as Record<string, unknown>).manager);
    expect([...result.touched].sort()).toEqual(['emails', 'name', ENTERPRISE].sort());
  });

  it('writes two sub-attributes of one complex value into one copy', () => {
    const user = deepFreeze(sampleUser());
    const result = patched(user, { op: 'replace', path: 'name.givenName', value: 'B' }, { op: 'replace', path: 'name.familyName', value: 'J' });
    expect(result.resource.name).toEqual({ formatted: 'Ms. Barbara J Jensen, III', familyName: 'J', givenName: 'B' });
    expect(user.name).toEqual({ formatted: 'Ms. Barbara J Jensen, III', familyName: 'Jensen', givenName: 'Barbara' });
  });

  it('reports the members added and removed by value, as element-level changes', () => {
    const group = deepFreeze({ ...sampleGroup(), members: [{ value: 'a' }, { value: 'b' }, { value: 'c' }] });
    const result = patched(
      group,
      { op: 'add', path: 'members', value: [{ value: 'd' }, { value: 'a' }] },
      { op: 'remove', path: 'members', value: [{ value: 'b' }] },
      { op: 'remove', path: 'members[value eq "c"]' },
    );
    expect(result.resource.members).toEqual([{ value: 'a' }, { value: 'd' }]);
    expect((result.resource.members as unknown[])[0]).toBe((group.members as unknown[])[0]);
    expect(result.changes).toEqual([{ attribute: 'members', added: [{ value: 'd' }], removed: [{ value: 'b' }, { value: 'c' }] }]);
    expect([...result.touched]).toEqual(['members']);
  });

  it('an element added then removed in the same request is no change at all', () => {
    const group = deepFreeze({ ...sampleGroup(), members: [{ value: 'a' }] });
    const result = patched(group, { op: 'add', path: 'members', value: [{ value: 'x' }] }, { op: 'remove', path: 'members[value eq "x"]' });
    expect(result.changed).toBe(false);
    expect(result.changes).toEqual([]);
  });

  it('leaves out attributes whose change is not element-level', () => {
    const user = deepFreeze(sampleUser());
    const replaced = patched(user, { op: 'replace', path: 'emails', value: [{ value: 'x@example.com' }] });
    expect(replaced.changes).toEqual([]);
    const edited = patched(user, { op: 'replace', path: 'emails[type eq "home"].value', value: 'y@example.com' });
    expect(edited.changes).toEqual([]);
    // A primary value added clears `primary` on the others: more than an append.
    const primary = patched(user, { op: 'add', path: 'emails', value: [{ value: 'z@example.com', primary: true }] });
    expect(primary.changes).toEqual([]);
    const group = deepFreeze({ ...sampleGroup(), members: [{ value: 'a' }] });
    const thenReplaced = patched(group, { op: 'add', path: 'members', value: [{ value: 'b' }] }, { op: 'replace', path: 'members', value: [{ value: 'c' }] });
    expect(thenReplaced.changes).toEqual([]);
  });

  it('an email appended without primary is an element-level change', () => {
    const user = deepFreeze(sampleUser());
    const result = patched(user, { op: 'add', path: 'emails', value: [{ value: 'new@example.com', type: 'other' }] });
    expect(result.changes).toEqual([{ attribute: 'emails', added: [{ value: 'new@example.com', type: 'other' }], removed: [] }]);
  });

  it('adding one member to a 100,000-member group copies the array and shares every member', () => {
    const members = Array.from({ length: 100_000 }, (_, i) => Object.freeze({ value: `m-${i}` }));
    const group = Object.freeze({ ...sampleGroup(), members: Object.freeze(members) });
    const result = patched(group, { op: 'add', path: 'members', value: [{ value: 'new' }] });
    const out = result.resource.members as unknown[];
    expect(out.length).toBe(100_001);
    expect(out[99_999]).toBe(members[99_999]);
    expect(result.changes).toEqual([{ attribute: 'members', added: [{ value: 'new' }], removed: [] }]);
  });
});
