import { describe, expect, it } from 'vitest';
import {
  builtinResourceTypes,
  createSchemaRegistry,
  groupResourceType,
  URN,
  userResourceType,
  validateResource,
} from '../../src/schema/index.js';
import { DEVICE, DEVICE_EXT, deviceExtensionSchema, deviceResourceType, deviceSchema } from './fixtures/device.js';

describe('createSchemaRegistry', () => {
  it('builds the User and Group resource types with the Enterprise User extension', () => {
    const registry = createSchemaRegistry({ resourceTypes: builtinResourceTypes });
    expect(registry.resourceTypes.map((m) => m.definition.name)).toEqual(['User', 'Group']);
    expect(registry.schemas.map((s) => s.id)).toEqual([URN.user, URN.group, URN.enterpriseUser]);
    const user = registry.resourceType('User')!;
    expect(user.definition).toEqual({
      id: 'User',
      name: 'User',
      description: 'User Account',
      endpoint: '/Users',
      schema: URN.user,
      schemaExtensions: [{ schema: URN.enterpriseUser, required: false }],
    });
    expect(user.core.id).toBe(URN.user);
    expect(user.extensions.map((e) => [e.schema.id, e.required])).toEqual([[URN.enterpriseUser, false]]);
    expect(user.unique).toEqual([{ path: 'userName', caseExact: false }]);
    expect(registry.resourceType('Group')!.unique).toEqual([]);
  });

  it('finds schemas and resource types case-insensitively, by id or name', () => {
    const registry = createSchemaRegistry({ resourceTypes: [userResourceType, { ...groupResourceType, id: 'grp' }] });
    expect(registry.schema(URN.user.toUpperCase())?.id).toBe(URN.user);
    expect(registry.schema('urn:nope')).toBeUndefined();
    expect(registry.resourceType('USER')?.definition.name).toBe('User');
    expect(registry.resourceType('GRP')?.definition.name).toBe('Group');
    expect(registry.resourceType('group')?.definition.id).toBe('grp');
    expect(registry.resourceType('__proto__')).toBeUndefined();
    expect(registry.resourceType('constructor')).toBeUndefined();
  });

  it('lists only the schemas of configured resource types', () => {
    const registry = createSchemaRegistry({ resourceTypes: [groupResourceType] });
    expect(registry.schemas.map((s) => s.id)).toEqual([URN.group]);
    expect(registry.schema(URN.user)).toBeUndefined();
  });

  it('defaults a resource type id to its name and spells schema URNs as the schema does', () => {
    const registry = createSchemaRegistry({
      resourceTypes: [{ name: 'Person', endpoint: '/People', schema: URN.user.toLowerCase() }],
    });
    const model = registry.resourceType('Person')!;
    expect(model.definition).toMatchObject({ id: 'Person', schema: URN.user, schemaExtensions: [], description: '' });
  });

  it('replaces a built-in schema by id', () => {
    const registry = createSchemaRegistry({
      schemas: [{ id: URN.group, name: 'Group', attributes: [{ name: 'displayName', required: true }, { name: 'code' }] }],
      resourceTypes: [groupResourceType],
    });
    expect(registry.schema(URN.group)!.attributes.map((a) => a.name)).toEqual(['displayName', 'code']);
    expect(registry.resourceType('Group')!.resolve({ attr: 'members' })).toBeUndefined();
  });

  it.each([
    ['an unknown core schema', { resourceTypes: [{ name: 'X', endpoint: '/X', schema: 'urn:unknown' }] }, /unknown schema 'urn:unknown'/],
    ['an unknown extension', { resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: 'urn:nope', required: false }] }] }, /unknown schema extension/],
    ['an extension listed twice', { resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }, { schema: URN.enterpriseUser, required: true }] }] }, /listed twice/],
    ['the core schema as its own extension', { resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: URN.user, required: false }] }] }, /listed twice/],
    ['two resource types with one name', { resourceTypes: [userResourceType, { ...groupResourceType, name: 'user', id: 'G' }] }, /already used/],
    ['two resource types with one endpoint', { resourceTypes: [userResourceType, { ...groupResourceType, endpoint: '/users' }] }, /endpoint/],
    ['an endpoint without a slash', { resourceTypes: [{ ...groupResourceType, endpoint: 'Groups' }] }, /endpoint/],
    ['duplicate attribute names (any case)', { schemas: [{ id: 'urn:x', attributes: [{ name: 'a' }, { name: 'A' }] }], resourceTypes: [{ name: 'X', endpoint: '/X', schema: 'urn:x' }] }, /duplicate attribute 'A'/],
    ['duplicate sub-attribute names', { schemas: [{ id: 'urn:x', attributes: [{ name: 'c', type: 'complex', subAttributes: [{ name: 'v' }, { name: 'V' }] }] }], resourceTypes: [{ name: 'X', endpoint: '/X', schema: 'urn:x' }] }, /duplicate attribute 'V'/],
    ['an invalid attribute name', { schemas: [{ id: 'urn:x', attributes: [{ name: '__proto__' }] }], resourceTypes: [] }, /invalid attribute name/],
    ['an unknown type', { schemas: [{ id: 'urn:x', attributes: [{ name: 'a', type: 'date' }] }], resourceTypes: [] }, /unknown type/],
    ['sub-attributes on a simple type', { schemas: [{ id: 'urn:x', attributes: [{ name: 'a', subAttributes: [{ name: 'b' }] }] }], resourceTypes: [] }, /only complex/],
    ['a complex attribute without sub-attributes', { schemas: [{ id: 'urn:x', attributes: [{ name: 'a', type: 'complex' }] }], resourceTypes: [] }, /needs subAttributes/],
    ['a schema declared twice', { schemas: [{ id: 'urn:x', attributes: [] }, { id: 'URN:X', attributes: [] }], resourceTypes: [] }, /declared twice/],
    ['a schema without id', { schemas: [{ id: '', attributes: [] }], resourceTypes: [] }, /invalid id/],
    ['no resource types array', {}, /resourceTypes must be an array/],
    ['a core schema attribute named schemas', { schemas: [{ id: 'urn:x', attributes: [{ name: 'Schemas' }] }], resourceTypes: [{ name: 'X', endpoint: '/X', schema: 'urn:x' }] }, /reserved/],
  ])('throws a TypeError for %s', (_, options, message) => {
    expect(() => createSchemaRegistry(options as never)).toThrow(TypeError);
    expect(() => createSchemaRegistry(options as never)).toThrow(message);
  });

  it('keeps two registries in one process independent', () => {
    const withDevices = createSchemaRegistry({
      schemas: [deviceSchema, deviceExtensionSchema],
      resourceTypes: [userResourceType, deviceResourceType],
    });
    const plain = createSchemaRegistry({ resourceTypes: builtinResourceTypes });

    expect(withDevices.resourceType('Device')?.definition.endpoint).toBe('/Devices');
    expect(withDevices.schema(DEVICE)?.name).toBe('Device');
    expect(withDevices.schema(DEVICE_EXT)?.name).toBe('AcmeDevice');
    expect(plain.resourceType('Device')).toBeUndefined();
    expect(plain.schema(DEVICE)).toBeUndefined();
    expect(plain.schema(DEVICE_EXT)).toBeUndefined();
    expect(plain.resourceTypes.map((m) => m.definition.name)).toEqual(['User', 'Group']);

    const device = withDevices.resourceType('Device')!;
    expect(device.unique).toEqual([{ path: 'serialNumber', caseExact: true }]);
    const created = validateResource(device, { serialNumber: 'SN1', [DEVICE_EXT]: { assetTag: 'A-1' } }, { operation: 'create' });
    expect(created).toEqual({ ok: true, value: { schemas: [DEVICE, DEVICE_EXT], serialNumber: 'SN1', [DEVICE_EXT]: { assetTag: 'A-1' } } });
    // The same User resource type object serves both registries without sharing compiled state.
    expect(withDevices.resourceType('User')).not.toBe(plain.resourceType('User'));
  });

  it('hands out frozen definitions', () => {
    const registry = createSchemaRegistry({ resourceTypes: builtinResourceTypes });
    const schema = registry.schema(URN.user)!;
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen(schema.attributes[0])).toBe(true);
    expect(Object.isFrozen(registry.resourceTypes)).toBe(true);
  });
});
