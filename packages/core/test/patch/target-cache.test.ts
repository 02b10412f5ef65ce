import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { findKey } from '../../src/values/index.js';
import { cachedTarget, MAX_CACHED_PATH_LENGTH, MAX_CACHED_TARGETS } from '../../src/patch/patch-target-cache.js';
import { createSchemaRegistry, groupResourceType, userResourceType } from '../../src/schema/index.js';
import type { ResourceModel } from '../../src/schema/resource-model.js';
import { body, minimalUser, sampleUser } from './patch-fixtures.js';

/** A model of its own, so no other test has filled its cache. */
function freshUserModel(): ResourceModel {
  return createSchemaRegistry({ resourceTypes: [userResourceType, groupResourceType] }).resourceType('User') as ResourceModel;
}

describe('resolved paths remembered per resource type', () => {
  it('answers the same the second time, case-insensitive and URN-qualified paths included', () => {
    const model = freshUserModel();
    const paths = ['displayName', 'DISPLAYNAME', 'emails[type eq "work"].value', 'urn:ietf:params:scim:schemas:core:2.0:User:name.givenName', 'name.familyName'];
    for (const path of paths) {
      const first = applyPatch(model, sampleUser(), body({ op: 'replace', path, value: 'X' }));
      const second = applyPatch(model, sampleUser(), body({ op: 'replace', path, value: 'X' }));
      expect(first.ok).toBe(true);
      expect(second).toEqual(first);
      expect(cachedTarget(model, path, undefined)?.ok).toBe(true);
    }
  });

  it('never accepts a path under limits it breaks, whatever was accepted before under others', () => {
    const model = freshUserModel();
    const path = 'emails[type eq "work"].value';
    expect(applyPatch(model, sampleUser(), body({ op: 'replace', path, value: 'a@example.com' })).ok).toBe(true);
    const strict = applyPatch(model, sampleUser(), body({ op: 'replace', path, value: 'a@example.com' }), { pathLimits: { maxLength: 10 } });
    expect(strict).toMatchObject({ ok: false, error: { status: 400, scimType: 'invalidPath' } });
    // Limits given as equal values (a new object each time) use the same entries.
    expect(applyPatch(model, sampleUser(), body({ op: 'replace', path, value: 'b@example.com' }), { pathLimits: { maxLength: 100 } }).ok).toBe(true);
    expect(cachedTarget(model, path, { maxLength: 100 })?.ok).toBe(true);
    expect(cachedTarget(model, path, undefined)).toBeUndefined();
  });

  it('keeps no unknown or ignored path: the policy decides each time', () => {
    const model = freshUserModel();
    const op = { op: 'add', path: 'shoeSize', value: 42 };
    expect(applyPatch(model, minimalUser(), body(op), { unknownAttributes: 'ignore' }).ok).toBe(true);
    expect(applyPatch(model, minimalUser(), body(op))).toMatchObject({ ok: false, error: { status: 400, scimType: 'invalidPath' } });
    expect(cachedTarget(model, 'shoeSize', undefined)).toBeUndefined();
  });

  it('is bounded: it starts over when full, and long paths are not kept', () => {
    const model = freshUserModel();
    const path = (i: number) => `emails[value eq "user${i}@example.com"].type`;
    for (let i = 0; i <= MAX_CACHED_TARGETS; i++) expect(applyPatch(model, sampleUser(), body({ op: 'remove', path: path(i) })).ok).toBe(true);
    // The 257th path found the cache full: only it is left.
    expect(cachedTarget(model, path(0), undefined)).toBeUndefined();
    expect(cachedTarget(model, path(MAX_CACHED_TARGETS), undefined)?.ok).toBe(true);
    const long = `emails[value eq "${'x'.repeat(MAX_CACHED_PATH_LENGTH)}"].type`;
    expect(applyPatch(model, sampleUser(), body({ op: 'remove', path: long })).ok).toBe(true);
    expect(cachedTarget(model, long, undefined)).toBeUndefined();
  });
});

describe('findKey', () => {
  it('matches ignoring case, also where folding changes the length (U+0130 İ)', () => {
    expect(findKey({ DisplayName: 1 }, 'displayName')).toBe('DisplayName');
    expect(findKey({ displayNames: 1, nick: 2 }, 'displayName')).toBeUndefined();
    // 'İ'.toLowerCase() is 'i̇' (two code units): keys of another length can still match.
    expect(findKey({ 'i\u0307d': 1 }, '\u0130d')).toBe('i\u0307d');
    expect(findKey({ '\u0130d': 1 }, 'i\u0307d')).toBe('\u0130d');
  });
});
