import fc from 'fast-check';
import type { Result } from '../../src/errors/result.js';
import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { validateResource } from '../../src/schema/index.js';
import type { ResourceModel } from '../../src/schema/resource-model.js';
import type { ScimResource } from '../../src/schema/scim-resource.js';
import { body, ENTERPRISE, groupModel, minimalUser, sampleGroup, sampleUser, userModel } from './patch-fixtures.js';

/**
 * Validating only what a PATCH changed (`touched`, `changes`) must answer exactly as validating the
 * whole patched resource: the same normalized resource, or the same error.
 */
function expectSame(incremental: Result<Record<string, unknown>> | undefined, whole: Result<Record<string, unknown>> | undefined): void {
  expect(incremental).toEqual(whole);
  // The same order of members too (schema order): at the top level and in each extension. Stored
  // values kept as they are keep their own order; the fixtures' are not all in schema order.
  if (incremental?.ok !== true || whole?.ok !== true) return;
  expect(Object.keys(incremental.value)).toEqual(Object.keys(whole.value));
  for (const key of Object.keys(whole.value).filter((k) => k.startsWith('urn:'))) {
    expect(Object.keys(incremental.value[key] as object)).toEqual(Object.keys(whole.value[key] as object));
  }
}

function bothWays(model: ResourceModel, existing: ScimResource, operations: unknown[]) {
  const patched = applyPatch(model, existing, body(...operations));
  if (!patched.ok) return undefined;
  const { resource, touched, changes } = patched.value;
  const whole = validateResource(model, resource, { operation: 'patch', existing });
  const incremental = validateResource(model, resource, { operation: 'patch', existing, touched, changes });
  return { whole, incremental };
}

const text = fc.string({ minLength: 0, maxLength: 6 });
/** Any JSON-ish value, valid for some attributes and wrong for most. */
const anyValue = fc.oneof(
  text,
  fc.boolean(),
  fc.integer(),
  fc.constant(null),
  fc.constant('False'),
  fc.constant('2011-05-13T04:42:34Z'),
  fc.constant([]),
  fc.array(fc.record({ value: fc.oneof(text, fc.integer()), type: fc.constantFrom('work', 'home'), primary: fc.boolean() }, { requiredKeys: ['value'] }), { maxLength: 2 }),
  fc.record({ givenName: fc.oneof(text, fc.integer()), value: text }, { requiredKeys: [] }),
);
const userPath = fc.constantFrom(
  'nickName', 'active', 'userName', 'name', 'name.givenName', 'emails', 'emails.value', 'emails[type eq "work"]',
  'emails[type eq "work"].value', 'emails[type eq "home"].primary', 'phoneNumbers', 'addresses', 'x509Certificates',
  'timezone', 'locale', 'profileUrl', 'groups', 'meta.created', `${ENTERPRISE}:manager`, `${ENTERPRISE}:department`, ENTERPRISE,
);
const userOperation = fc.oneof(
  fc.record({ op: fc.constantFrom('add', 'replace', 'remove'), path: userPath, value: anyValue }, { requiredKeys: ['op', 'path'] }),
  fc.record({ op: fc.constantFrom('add', 'replace'), value: fc.dictionary(fc.constantFrom('title', 'active', 'nickName', 'emails', 'name', ENTERPRISE), anyValue, { maxKeys: 3 }) }),
);
const memberOperation = fc.oneof(
  fc.record({ op: fc.constantFrom('add', 'remove'), path: fc.constant('members'), value: fc.array(fc.record({ value: fc.oneof(fc.constantFrom('m1', 'm2', 'new'), fc.integer()), display: text }, { requiredKeys: [] }), { maxLength: 3 }) }),
  fc.record({ op: fc.constant('remove'), path: fc.constantFrom('members[value eq "m1"]', 'members[value eq "none"]') }),
  fc.record({ op: fc.constantFrom('replace', 'add'), path: fc.constant('displayName'), value: anyValue }),
);

describe('incremental validation after PATCH', () => {
  it('gives the same result as validating the whole user, for any operations', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(userOperation, { minLength: 1, maxLength: 4 }), (full, ops) => {
        const outcome = bothWays(userModel, full ? sampleUser() : minimalUser(), ops);
        if (outcome !== undefined) expectSame(outcome.incremental, outcome.whole);
      }),
      { numRuns: 1500 },
    );
  });

  it('gives the same result as validating the whole group, for member adds and removes', () => {
    const group = { ...sampleGroup(), members: [{ value: 'm1', display: 'One' }, { value: 'm2' }, { value: 'm3', type: 'User' }] };
    fc.assert(
      fc.property(fc.array(memberOperation, { minLength: 1, maxLength: 4 }), (ops) => {
        const outcome = bothWays(groupModel, group, ops);
        if (outcome !== undefined) expectSame(outcome.incremental, outcome.whole);
      }),
      { numRuns: 800 },
    );
  });

  it('checks only the added member of a large group, and still refuses a bad one', () => {
    const members = Array.from({ length: 50_000 }, (_, i) => ({ value: `m-${i}` }));
    const group = { ...sampleGroup(), members };
    const good = bothWays(groupModel, group, [{ op: 'add', path: 'members', value: [{ value: 'new', display: 'New' }] }]);
    expectSame(good?.incremental, good?.whole);
    expect(good?.incremental.ok && (good.incremental.value.members as unknown[]).length).toBe(50_001);
    const bad = bothWays(groupModel, group, [{ op: 'add', path: 'members', value: [{ value: 8 }] }]);
    expect(bad?.incremental.ok).toBe(false);
    expectSame(bad?.incremental, bad?.whole);
  });
});
