import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { body, minimalUser, PATCH_OP, userModel } from './patch-fixtures.js';

function error(input: unknown, options?: Parameters<typeof applyPatch>[3]) {
  const result = applyPatch(userModel, minimalUser(), input, options);
  if (result.ok) throw new Error('expected an error');
  return result.error;
}

describe('PatchOp message validation (RFC 7644 §3.5.2)', () => {
  it.each([null, 'text', 42, [], true])('a body that is not an object (%j) is 400 invalidSyntax', (input) => {
    expect(error(input)).toMatchObject({ status: 400, scimType: 'invalidSyntax' });
  });

  it('schemas must contain the PatchOp URN', () => {
    expect(error({ Operations: [{ op: 'add', path: 'nickName', value: 'x' }] })).toMatchObject({ status: 400, scimType: 'invalidValue' });
    expect(error({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], Operations: [{ op: 'add', path: 'nickName', value: 'x' }] })).toMatchObject({
      scimType: 'invalidValue',
    });
    expect(error({ schemas: PATCH_OP, Operations: [{ op: 'add', path: 'nickName', value: 'x' }] })).toMatchObject({ scimType: 'invalidValue' });
  });

  it('the schemas URN and the Operations member name are matched ignoring case', () => {
    const result = applyPatch(userModel, minimalUser(), { SCHEMAS: [PATCH_OP.toUpperCase()], operations: [{ OP: 'ADD', Path: 'nickName', Value: 'x' }] });
    expect(result.ok && result.value.resource.nickName).toBe('x');
  });

  it('Operations must be an array', () => {
    expect(error({ schemas: [PATCH_OP] })).toMatchObject({ status: 400, scimType: 'invalidSyntax' });
    expect(error({ schemas: [PATCH_OP], Operations: { op: 'add' } })).toMatchObject({ scimType: 'invalidSyntax' });
  });

  it('an empty Operations array is 400 invalidValue unless allowEmptyOperations', () => {
    expect(error(body())).toMatchObject({ status: 400, scimType: 'invalidValue' });
    const result = applyPatch(userModel, minimalUser(), body(), { allowEmptyOperations: true });
    expect(result.ok && result.value).toEqual({ resource: minimalUser(), changed: false, touched: expect.any(Set), changes: [] });
  });

  it('each operation must be an object', () => {
    expect(error(body({ op: 'add', path: 'nickName', value: 'x' }, 'remove'))).toMatchObject({ scimType: 'invalidSyntax', detail: expect.stringContaining('Operations[1]') });
  });

  it.each(['move', 'copy', 'test', '', 'ad d', 'constructor', '__proto__'])('op %j is 400 invalidSyntax naming the operation', (op) => {
    const e = error(body({ op: 'add', path: 'nickName', value: 'x' }, { op: 'replace', path: 'nickName', value: 'y' }, { op, path: 'nickName', value: 'z' }));
    expect(e).toMatchObject({ status: 400, scimType: 'invalidSyntax' });
    expect(e.detail).toBe('Operations[2].op must be "add", "replace" or "remove"');
  });

  it('a missing or non-string op is 400 invalidSyntax', () => {
    expect(error(body({ path: 'nickName', value: 'x' }))).toMatchObject({ scimType: 'invalidSyntax' });
    expect(error(body({ op: 1, path: 'nickName', value: 'x' }))).toMatchObject({ scimType: 'invalidSyntax' });
  });

  it.each(['add', 'Add', 'ADD', 'replace', 'Replace', 'REPLACE'])('op %s is accepted in any case', (op) => {
    const result = applyPatch(userModel, minimalUser(), body({ op, path: 'nickName', value: 'x' }));
    expect(result.ok && result.value.resource.nickName).toBe('x');
  });

  it('remove is accepted in any case', () => {
    const user = { ...minimalUser(), nickName: 'n' };
    for (const op of ['remove', 'Remove', 'REMOVE']) {
      const result = applyPatch(userModel, user, body({ op, path: 'nickName' }));
      expect(result.ok && result.value.resource.nickName).toBeUndefined();
    }
  });

  it('path must be a string', () => {
    expect(error(body({ op: 'add', path: 42, value: 'x' }))).toMatchObject({ status: 400, scimType: 'invalidPath' });
    expect(error(body({ op: 'add', path: ['nickName'], value: 'x' }))).toMatchObject({ scimType: 'invalidPath' });
  });

  it('a path that does not parse is 400 invalidPath naming the operation', () => {
    const e = error(body({ op: 'replace', path: 'emails[type eq "work"', value: 'x' }));
    expect(e).toMatchObject({ status: 400, scimType: 'invalidPath' });
    expect(e.detail).toMatch(/^Operations\[0\]\.path: /);
  });

  it('a path naming no attribute is 400 invalidPath naming it', () => {
    const e = error(body({ op: 'replace', path: 'nickname2', value: 'x' }));
    expect(e).toMatchObject({ status: 400, scimType: 'invalidPath' });
    expect(e.detail).toContain('nickname2');
    expect(error(body({ op: 'replace', path: 'name.middle', value: 'x' }))).toMatchObject({ scimType: 'invalidPath' });
    expect(error(body({ op: 'replace', path: 'emails[type eq "work"].nope', value: 'x' }))).toMatchObject({ scimType: 'invalidPath' });
    expect(error(body({ op: 'replace', path: 'emails[nope eq "work"].value', value: 'x' }))).toMatchObject({ scimType: 'invalidPath' });
  });

  it('a value filter on a single-valued attribute is 400 invalidPath', () => {
    expect(error(body({ op: 'replace', path: 'name[givenName eq "x"]', value: {} }))).toMatchObject({ scimType: 'invalidPath' });
  });

  it('add and replace need a value (400 invalidValue)', () => {
    expect(error(body({ op: 'add', path: 'nickName' }))).toMatchObject({ status: 400, scimType: 'invalidValue', detail: 'Operations[0].value is required for "add"' });
    expect(error(body({ op: 'replace', path: 'nickName' }))).toMatchObject({ scimType: 'invalidValue' });
  });

  it('maxOperations bounds the number of operations (400 invalidValue with the counts)', () => {
    const ops = Array.from({ length: 1001 }, () => ({ op: 'add', path: 'nickName', value: 'x' }));
    expect(error(body(...ops))).toMatchObject({ status: 400, scimType: 'invalidValue', detail: 'Too many operations: 1001 > 1000' });
    expect(error(body(...ops.slice(0, 3)), { maxOperations: 2 })).toMatchObject({ detail: 'Too many operations: 3 > 2' });
    expect(applyPatch(userModel, minimalUser(), body(...ops.slice(0, 1000))).ok).toBe(true);
  });

  it('path limits are passed to the path parser', () => {
    expect(error(body({ op: 'add', path: 'nickName', value: 'x' }), { pathLimits: { maxLength: 4 } })).toMatchObject({ scimType: 'invalidPath' });
  });

  it('a value nested absurdly deep is refused before it is copied', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(error(body({ op: 'add', path: 'nickName', value: deep }))).toMatchObject({ status: 400, scimType: 'invalidValue' });
  });
});
