import { describe, expect, it } from 'vitest';
import { builtinResourceTypes, createSchemaRegistry, URN, userResourceType } from '../../src/schema/index.js';
import { DEVICE, DEVICE_EXT, deviceExtensionSchema, deviceResourceType, deviceSchema } from './fixtures/device.js';

const registry = createSchemaRegistry({ resourceTypes: builtinResourceTypes });
const user = registry.resourceType('User')!;
const group = registry.resourceType('Group')!;
const ENT = URN.enterpriseUser;

describe('ResourceModel.resolve', () => {
  it.each([
    [{ attr: 'userName' }, ['userName']],
    [{ attr: 'USERNAME' }, ['userName']],
    [{ attr: 'name', subAttr: 'givenName' }, ['name', 'givenName']],
    [{ attr: 'NAME', subAttr: 'GIVENNAME' }, ['name', 'givenName']],
    [{ attr: 'emails', subAttr: 'value' }, ['emails', 'value']],
    [{ uri: URN.user, attr: 'name', subAttr: 'givenName' }, ['name', 'givenName']],
    [{ uri: URN.user.toUpperCase(), attr: 'userName' }, ['userName']],
    [{ attr: `${URN.user}:name.givenName` }, ['name', 'givenName']],
    [{ attr: `${URN.user}:name`, subAttr: 'givenName' }, ['name', 'givenName']],
    [{ uri: ENT, attr: 'manager', subAttr: 'value' }, [ENT, 'manager', 'value']],
    [{ attr: `${ENT}:manager.value` }, [ENT, 'manager', 'value']],
    // A parser that split the URN at the dot of "2.0" still resolves.
    [{ attr: 'urn:ietf:params:scim:schemas:extension:enterprise:2', subAttr: '0:User:employeeNumber' }, [ENT, 'employeeNumber']],
    [{ uri: ENT.toLowerCase(), attr: 'EMPLOYEENUMBER' }, [ENT, 'employeeNumber']],
    // RFC 7644 §3.10: extension attributes SHOULD be qualified; unambiguous unqualified names resolve.
    [{ attr: 'employeeNumber' }, [ENT, 'employeeNumber']],
    [{ attr: 'manager', subAttr: 'displayName' }, [ENT, 'manager', 'displayName']],
    // RFC 7643 §3.1 common attributes.
    [{ attr: 'id' }, ['id']],
    [{ attr: 'externalId' }, ['externalId']],
    [{ attr: 'meta', subAttr: 'lastModified' }, ['meta', 'lastModified']],
    [{ uri: URN.user, attr: 'meta', subAttr: 'Version' }, ['meta', 'version']],
    [{ attr: 'groups', subAttr: '$ref' }, ['groups', '$ref']],
  ])('%j → %j', (path, keys) => {
    expect(user.resolve(path)?.keys).toEqual(keys);
  });

  it.each([
    [{ attr: 'nope' }],
    [{ attr: 'name', subAttr: 'nope' }],
    [{ attr: 'userName', subAttr: 'x' }],
    [{ attr: 'name.givenName.x' }],
    [{ attr: ENT }],
    [{ uri: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0', attr: 'User' }],
    [{ uri: ENT, attr: '' }],
    [{ uri: 'urn:unknown', attr: 'userName' }],
    [{ uri: URN.group, attr: 'displayName' }],
    [{ uri: URN.user, attr: 'employeeNumber' }],
    [{ attr: '__proto__' }],
    [{ attr: 'constructor' }],
    [{ attr: 'prototype' }],
    [{ attr: 'name', subAttr: '__proto__' }],
    [{ attr: 'toString' }],
    [{ attr: 'hasOwnProperty' }],
    [{ uri: ENT, attr: 'constructor' }],
  ])('%j is not an attribute', (path) => {
    expect(user.resolve(path)).toBeUndefined();
    expect(user.facts(path)).toBeUndefined();
  });

  it('returns the schema, the extension flag and the definitions', () => {
    const resolved = user.resolve({ uri: ENT, attr: 'manager', subAttr: 'value' })!;
    expect(resolved.schema).toBe(ENT);
    expect(resolved.extension).toBe(true);
    expect(resolved.attribute.name).toBe('manager');
    expect(resolved.subAttribute?.name).toBe('value');
    expect(resolved.target).toBe(resolved.subAttribute);
    const id = user.resolve({ attr: 'id' })!;
    expect(id).toMatchObject({ schema: URN.user, extension: false });
    expect(id.target).toMatchObject({ caseExact: true, mutability: 'readOnly', returned: 'always', uniqueness: 'server' });
    expect(user.resolve({ attr: 'externalId' })!.target).toMatchObject({ caseExact: true, mutability: 'readWrite' });
    const meta = user.resolve({ attr: 'meta' })!.target;
    expect(meta).toMatchObject({ type: 'complex', mutability: 'readOnly', returned: 'default' });
    expect(meta.subAttributes!.map((s) => [s.name, s.type, s.mutability])).toEqual([
      ['resourceType', 'string', 'readOnly'],
      ['created', 'dateTime', 'readOnly'],
      ['lastModified', 'dateTime', 'readOnly'],
      ['location', 'reference', 'readOnly'],
      ['version', 'string', 'readOnly'],
    ]);
  });

  it('does not resolve an unqualified name two extensions share', () => {
    const registry2 = createSchemaRegistry({
      schemas: [
        { id: 'urn:a', attributes: [{ name: 'badge' }] },
        { id: 'urn:b', attributes: [{ name: 'badge' }] },
      ],
      resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: 'urn:a', required: false }, { schema: 'urn:b', required: false }] }],
    });
    const model = registry2.resourceType('User')!;
    expect(model.resolve({ attr: 'badge' })).toBeUndefined();
    expect(model.resolve({ attr: 'urn:a:badge' })?.keys).toEqual(['urn:a', 'badge']);
    expect(model.resolve({ uri: 'urn:b', attr: 'BADGE' })?.keys).toEqual(['urn:b', 'badge']);
  });

  it('resolves names a schema declares, even constructor', () => {
    const registry2 = createSchemaRegistry({ schemas: [deviceSchema, deviceExtensionSchema], resourceTypes: [deviceResourceType] });
    const device = registry2.resourceType('Device')!;
    expect(device.resolve({ attr: 'constructor' })?.keys).toEqual(['constructor']);
    expect(device.resolve({ attr: 'location', subAttr: 'building' })?.keys).toEqual(['location', 'building']);
    expect(device.resolve({ attr: 'assetTag' })?.keys).toEqual([DEVICE_EXT, 'assetTag']);
    expect(device.resolve({ uri: DEVICE, attr: 'serialNumber' })?.schema).toBe(DEVICE);
    expect(device.resolve({ attr: 'userName' })).toBeUndefined();
  });

  it('keeps the core schema attribute when an extension has the same name', () => {
    const registry2 = createSchemaRegistry({
      schemas: [{ id: 'urn:x', attributes: [{ name: 'userName' }] }],
      resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: 'urn:x', required: false }] }],
    });
    expect(registry2.resourceType('User')!.resolve({ attr: 'userName' })?.keys).toEqual(['userName']);
    expect(registry2.resourceType('User')!.resolve({ attr: 'urn:x:userName' })?.keys).toEqual(['urn:x', 'userName']);
  });

  it('resolves Group attributes', () => {
    expect(group.resolve({ attr: 'members', subAttr: 'value' })?.target.mutability).toBe('immutable');
    expect(group.resolve({ attr: 'displayname' })?.keys).toEqual(['displayName']);
    expect(group.resolve({ attr: 'userName' })).toBeUndefined();
  });
});

describe('ResourceModel.facts', () => {
  it('reduces a path to what a store needs', () => {
    expect(user.facts({ attr: 'USERNAME' })).toEqual({ fullPath: `${URN.user}:userName`, type: 'string', caseExact: false, multiValued: false });
    expect(user.facts({ attr: 'emails', subAttr: 'VALUE' })).toEqual({ fullPath: `${URN.user}:emails.value`, type: 'string', caseExact: false, multiValued: true });
    expect(user.facts({ attr: 'emails' })).toMatchObject({ type: 'complex', multiValued: true });
    expect(user.facts({ attr: 'meta', subAttr: 'created' })).toEqual({ fullPath: `${URN.user}:meta.created`, type: 'dateTime', caseExact: false, multiValued: false });
    expect(user.facts({ attr: 'id' })).toMatchObject({ caseExact: true });
    expect(user.facts({ uri: ENT, attr: 'manager', subAttr: 'value' })).toEqual({ fullPath: `${ENT}:manager.value`, type: 'string', caseExact: true, multiValued: false });
    expect(user.facts({ attr: 'active' })).toMatchObject({ type: 'boolean' });
  });
});
