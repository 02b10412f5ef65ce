import { describe, expect, it } from 'vitest';
import type { ScimResource, ValidationContext } from '../../src/schema/index.js';
import { builtinResourceTypes, createSchemaRegistry, URN, userResourceType, validateResource } from '../../src/schema/index.js';
import { DEVICE, DEVICE_EXT, deviceExtensionSchema, deviceResourceType, deviceSchema } from './fixtures/device.js';

const registry = createSchemaRegistry({ resourceTypes: builtinResourceTypes });
const user = registry.resourceType('User')!;
const group = registry.resourceType('Group')!;
const devices = createSchemaRegistry({ schemas: [deviceSchema, deviceExtensionSchema], resourceTypes: [deviceResourceType] });
const device = devices.resourceType('Device')!;
const ENT = URN.enterpriseUser;
const create: ValidationContext = { operation: 'create' };

function stored(body: Record<string, unknown>): ScimResource {
  return {
    schemas: [URN.user],
    id: 'u1',
    meta: { resourceType: 'User', created: '2020-01-01T00:00:00Z', lastModified: '2020-01-01T00:00:00Z', version: 'W/"1"' },
    ...body,
  } as ScimResource;
}

function ok(result: ReturnType<typeof validateResource>): Record<string, unknown> {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.value;
}

function fails(result: ReturnType<typeof validateResource>, scimType: string, detail: string | RegExp): void {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.status).toBe(400);
  expect(result.error.scimType).toBe(scimType);
  if (typeof detail === 'string') expect(result.error.detail).toBe(detail);
  else expect(result.error.detail).toMatch(detail);
}

describe('validateResource: the body', () => {
  it.each([null, [], 'x', 42, true, undefined])('rejects %j as invalidSyntax', (body) => {
    fails(validateResource(user, body, create), 'invalidSyntax', 'The resource must be a JSON object');
  });

  it('returns schema-spelled, ordered output and leaves the input untouched', () => {
    const input = {
      emails: [{ VALUE: 'b@example.com', Type: 'work' }],
      USERNAME: 'bjensen',
      [ENT.toUpperCase()]: { DEPARTMENT: 'Tour' },
      externalid: 'x1',
      Name: { givenname: 'Barbara', FamilyName: 'Jensen' },
    };
    const copy = structuredClone(input);
    const value = ok(validateResource(user, input, create));
    expect(value).toEqual({
      schemas: [URN.user, ENT],
      externalId: 'x1',
      userName: 'bjensen',
      name: { familyName: 'Jensen', givenName: 'Barbara' },
      emails: [{ value: 'b@example.com', type: 'work' }],
      [ENT]: { department: 'Tour' },
    });
    expect(Object.keys(value)).toEqual(['schemas', 'externalId', 'userName', 'name', 'emails', ENT]);
    expect(Object.keys(value['name'] as object)).toEqual(['familyName', 'givenName']);
    expect(input).toEqual(copy);
  });
});

describe('validateResource: schemas (RFC 7643 §3)', () => {
  it('fills in schemas when absent or null', () => {
    expect(ok(validateResource(user, { userName: 'a' }, create))['schemas']).toEqual([URN.user]);
    expect(ok(validateResource(user, { schemas: null, userName: 'a' }, create))['schemas']).toEqual([URN.user]);
    expect(ok(validateResource(group, { displayName: 'g' }, create))['schemas']).toEqual([URN.group]);
  });

  it('accepts the core URN in any case and any key case', () => {
    expect(ok(validateResource(user, { SCHEMAS: [URN.user.toLowerCase()], userName: 'a' }, create))['schemas']).toEqual([URN.user]);
  });

  it.each([
    [{ schemas: URN.user }, "Attribute 'schemas' must be an array of schema URIs"],
    [{ schemas: [URN.user, 7] }, "Attribute 'schemas' must be an array of schema URIs"],
    [{ schemas: {} }, "Attribute 'schemas' must be an array of schema URIs"],
    [{ schemas: [] }, `Attribute 'schemas' must include the schema '${URN.user}'`],
    [{ schemas: [URN.group] }, `Attribute 'schemas' must include the schema '${URN.user}'`],
    [{ schemas: [ENT] }, `Attribute 'schemas' must include the schema '${URN.user}'`],
    [{ schemas: [URN.user, 'urn:example:unknown'] }, "Attribute 'schemas' lists 'urn:example:unknown', which is not a schema of resource type 'User'"],
    [{ schemas: [URN.user, URN.group] }, `Attribute 'schemas' lists '${URN.group}', which is not a schema of resource type 'User'`],
    [{ schemas: [URN.user], Schemas: [URN.user] }, "Attribute 'schemas' is given more than once"],
  ])('rejects %j', (body, detail) => {
    fails(validateResource(user, { userName: 'a', ...body }, create), 'invalidValue', detail);
  });

  it('drops unknown schema URNs when unknown attributes are ignored', () => {
    const value = ok(validateResource(user, { schemas: [URN.user, 'urn:x'], userName: 'a' }, create, { unknownAttributes: 'ignore' }));
    expect(value['schemas']).toEqual([URN.user]);
  });

  it('lists an extension only when it has data', () => {
    expect(ok(validateResource(user, { schemas: [URN.user, ENT], userName: 'a' }, create))['schemas']).toEqual([URN.user]);
    expect(ok(validateResource(user, { schemas: [URN.user, ENT], userName: 'a', [ENT]: { manager: null } }, create))['schemas']).toEqual([URN.user]);
    expect(ok(validateResource(user, { schemas: [URN.user], userName: 'a', [ENT]: { costCenter: '1' } }, create))['schemas']).toEqual([URN.user, ENT]);
  });
});

describe('validateResource: extensions (RFC 7643 §3.3)', () => {
  it('reads extension data under its URN key in any case', () => {
    const value = ok(validateResource(user, { userName: 'a', [ENT.toLowerCase()]: { employeeNumber: '7', manager: { value: 'm1' } } }, create));
    expect(value[ENT]).toEqual({ employeeNumber: '7', manager: { value: 'm1' } });
    expect(value['schemas']).toEqual([URN.user, ENT]);
  });

  it('accepts URN-qualified attribute names at the top level', () => {
    const value = ok(validateResource(user, { [`${URN.user}:userName`]: 'a', [`${ENT}:costCenter`]: 'c', [ENT]: { division: 'd' } }, create));
    expect(value).toEqual({ schemas: [URN.user, ENT], userName: 'a', [ENT]: { costCenter: 'c', division: 'd' } });
  });

  it.each([
    [{ userName: 'a', [ENT]: 'x' }, `Attribute '${ENT}' must be a JSON object`],
    [{ userName: 'a', [ENT]: ['x'] }, `Attribute '${ENT}' must be a JSON object`],
    [{ userName: 'a', [ENT]: { nope: 1 } }, `Unknown attribute '${ENT}:nope'`],
    [{ userName: 'a', [ENT]: { manager: { value: 'm', nope: 1 } } }, `Unknown attribute '${ENT}:manager.nope'`],
    [{ userName: 'a', [ENT]: { costCenter: 5 } }, `Attribute '${ENT}:costCenter' must be a string`],
    [{ userName: 'a', [ENT]: { manager: { $ref: '../Users/m1', displayName: 'readOnly, ignored' } } }, `Attribute '${ENT}:manager.value' is required`],
    [{ userName: 'a', [ENT]: { costCenter: 'a' }, [`${ENT}:COSTCENTER`]: 'b' }, `Attribute '${ENT}:costCenter' is given more than once`],
    [{ userName: 'a', [ENT]: { costCenter: 'a', CostCenter: 'b' } }, `Attribute '${ENT}:costCenter' is given more than once`],
  ])('rejects %j', (body, detail) => {
    fails(validateResource(user, body, create), 'invalidValue', detail);
  });

  it('does not accept unqualified extension attributes in a body', () => {
    fails(validateResource(user, { userName: 'a', employeeNumber: '1' }, create), 'invalidValue', "Unknown attribute 'employeeNumber'");
  });

  it('enforces a required extension, and the required attributes of an extension present', () => {
    const strict = createSchemaRegistry({
      resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: ENT, required: true }] }],
    }).resourceType('User')!;
    fails(validateResource(strict, { userName: 'a' }, create), 'invalidValue', `Schema extension '${ENT}' is required for resource type 'User'`);
    fails(validateResource(strict, { userName: 'a', [ENT]: {} }, create), 'invalidValue', `Schema extension '${ENT}' is required for resource type 'User'`);
    expect(ok(validateResource(strict, { userName: 'a', [ENT]: { division: 'x' } }, create))['schemas']).toEqual([URN.user, ENT]);

    expect(ok(validateResource(device, { serialNumber: 's' }, create))['schemas']).toEqual([DEVICE]);
    fails(validateResource(device, { serialNumber: 's', [DEVICE_EXT]: { tags: ['t'] } }, create), 'invalidValue', `Attribute '${DEVICE_EXT}:assetTag' is required`);
  });
});

describe('validateResource: attribute names and unknown attributes', () => {
  it('rejects unknown attributes by default, naming the path', () => {
    fails(validateResource(user, { userName: 'a', nickname2: 'x' }, create), 'invalidValue', "Unknown attribute 'nickname2'");
    fails(validateResource(user, { userName: 'a', name: { first: 'x' } }, create), 'invalidValue', "Unknown attribute 'name.first'");
    fails(validateResource(user, { userName: 'a', emails: [{ value: 'x' }, { value: 'y', label: 'z' }] }, create), 'invalidValue', "Unknown attribute 'emails[1].label'");
    fails(validateResource(user, { userName: 'a', 'urn:example:other:attr': 1 }, create), 'invalidValue', "Unknown attribute 'urn:example:other:attr'");
    fails(validateResource(user, { userName: 'a', 'name.givenName': 'x' }, create), 'invalidValue', "Unknown attribute 'name.givenName'");
    fails(validateResource(user, { userName: 'a', userName2: 'x' }, create, { unknownAttributes: 'reject' }), 'invalidValue', "Unknown attribute 'userName2'");
  });

  it('drops unknown attributes when configured to ignore them', () => {
    const value = ok(validateResource(user, { userName: 'a', x: 1, name: { first: 'x', givenName: 'g' }, 'urn:x:y': { z: 1 } }, create, { unknownAttributes: 'ignore' }));
    expect(value).toEqual({ schemas: [URN.user], userName: 'a', name: { givenName: 'g' } });
  });

  it('rejects one attribute given twice under two spellings', () => {
    fails(validateResource(user, { userName: 'a', USERNAME: 'b' }, create), 'invalidValue', "Attribute 'userName' is given more than once");
    fails(validateResource(user, { userName: 'a', [`${URN.user}:userName`]: 'b' }, create), 'invalidValue', "Attribute 'userName' is given more than once");
    fails(validateResource(user, { userName: 'a', name: { givenName: 'a', GIVENNAME: 'b' } }, create), 'invalidValue', "Attribute 'name.givenName' is given more than once");
  });

  it.each(['__proto__', 'constructor', 'prototype'])('treats %s as an unknown attribute, at every level', (key) => {
    const top = JSON.parse(`{"userName":"a","${key}":{"polluted":true}}`) as unknown;
    fails(validateResource(user, top, create), 'invalidValue', `Unknown attribute '${key}'`);
    const nested = JSON.parse(`{"userName":"a","name":{"${key}":{"polluted":true}}}`) as unknown;
    fails(validateResource(user, nested, create), 'invalidValue', `Unknown attribute 'name.${key}'`);
    const inExtension = JSON.parse(`{"userName":"a","${ENT}":{"${key}":{"polluted":true}}}`) as unknown;
    fails(validateResource(user, inExtension, create), 'invalidValue', `Unknown attribute '${ENT}:${key}'`);

    const ignored = ok(validateResource(user, JSON.parse(`{"userName":"a","${key}":{"polluted":true},"name":{"${key}":{"polluted":true},"givenName":"g"}}`), create, { unknownAttributes: 'ignore' }));
    expect(Object.getPrototypeOf(ignored)).toBe(Object.prototype);
    expect(Object.keys(ignored)).toEqual(['schemas', 'userName', 'name']);
    expect(Object.getPrototypeOf(ignored['name'])).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('accepts a declared attribute named constructor as an own property', () => {
    const value = ok(validateResource(device, { serialNumber: 's', constructor: 'c' }, create));
    expect(Object.prototype.hasOwnProperty.call(value, 'constructor')).toBe(true);
    expect(value['constructor']).toBe('c');
    expect(Object.keys(ok(validateResource(device, { serialNumber: 's' }, create)))).toEqual(['schemas', 'serialNumber']);
  });
});

describe('validateResource: mutability on create and replace (RFC 7643 §2.2, RFC 7644 §3.3, §3.5.1)', () => {
  it('ignores readOnly input: id, meta, groups, readOnly sub-attributes', () => {
    const value = ok(validateResource(user, {
      id: 'client-chosen',
      meta: { created: 'garbage' },
      userName: 'a',
      groups: [{ value: 'g1', display: 'G' }],
      [ENT]: { manager: { value: 'm1', displayName: 'Boss' } },
    }, create));
    expect(value).toEqual({ schemas: [URN.user, ENT], userName: 'a', [ENT]: { manager: { value: 'm1' } } });
    const members = ok(validateResource(group, { displayName: 'g', members: [{ value: 'u1', display: 'U', type: 'User' }] }, create));
    expect(members['members']).toEqual([{ value: 'u1', type: 'User' }]);
  });

  it('accepts writeOnly input (password)', () => {
    expect(ok(validateResource(user, { userName: 'a', password: 't1meMOUT' }, create))['password']).toBe('t1meMOUT');
  });

  it('drops an extension whose only data was readOnly', () => {
    const value = ok(validateResource(user, { userName: 'a', [ENT]: { manager: { displayName: 'Boss' } } }, create));
    expect(value).toEqual({ schemas: [URN.user], userName: 'a' });
  });

  it('rejects a changed immutable attribute on replace with 400 mutability', () => {
    const existing = stored({ schemas: [DEVICE], serialNumber: 'SN-1', location: { building: 'B', rack: 4 } });
    const replace: ValidationContext = { operation: 'replace', existing };
    fails(validateResource(device, { serialNumber: 'SN-2' }, replace), 'mutability', "Attribute 'serialNumber' is immutable and cannot be changed");
    fails(validateResource(device, { serialNumber: 'sn-1' }, replace), 'mutability', "Attribute 'serialNumber' is immutable and cannot be changed");
    fails(validateResource(device, { serialNumber: 'SN-1', location: { building: 'B', rack: 5 } }, replace), 'mutability', "Attribute 'location.rack' is immutable and cannot be changed");
    expect(ok(validateResource(device, { serialNumber: 'SN-1', location: { building: 'C', rack: 4 } }, replace))).toEqual({
      schemas: [DEVICE],
      serialNumber: 'SN-1',
      location: { building: 'C', rack: 4 },
    });
  });

  it('keeps a stored immutable value that a replacement leaves out', () => {
    const existing = stored({ schemas: [DEVICE], serialNumber: 'SN-1', location: { building: 'B', rack: 4 } });
    const value = ok(validateResource(device, { serialNumber: 'SN-1', location: { building: 'C' } }, { operation: 'replace', existing }));
    expect(value['location']).toEqual({ building: 'C', rack: 4 });
  });

  it('lets an immutable attribute be set when nothing is stored', () => {
    const existing = stored({ schemas: [DEVICE], serialNumber: 'SN-1' });
    const value = ok(validateResource(device, { serialNumber: 'SN-1', location: { building: 'B', rack: 9 } }, { operation: 'replace', existing }));
    expect(value['location']).toEqual({ building: 'B', rack: 9 });
  });

  it('compares immutable strings per caseExact', () => {
    const custom = createSchemaRegistry({
      schemas: [{ id: 'urn:t', attributes: [{ name: 'code', mutability: 'immutable' }, { name: 'when', type: 'dateTime', mutability: 'immutable' }] }],
      resourceTypes: [{ name: 'T', endpoint: '/T', schema: 'urn:t' }],
    }).resourceType('T')!;
    const existing = stored({ schemas: ['urn:t'], code: 'ABC', when: '2020-01-01T00:00:00Z' });
    expect(ok(validateResource(custom, { code: 'abc', when: '2020-01-01T01:00:00+01:00' }, { operation: 'replace', existing }))['code']).toBe('abc');
    fails(validateResource(custom, { code: 'abd' }, { operation: 'replace', existing }), 'mutability', "Attribute 'code' is immutable and cannot be changed");
  });

  it('lets a PUT add and remove Group members (members.value is immutable per value, not per list)', () => {
    const existing = stored({ schemas: [URN.group], displayName: 'g', members: [{ value: 'u1' }, { value: 'u2' }] });
    const value = ok(validateResource(group, { displayName: 'g', members: [{ value: 'u3' }] }, { operation: 'replace', existing }));
    expect(value['members']).toEqual([{ value: 'u3' }]);
  });

  it('keeps a stored writeOnly value (password) that a replacement leaves out, and replaces it when given', () => {
    const existing = stored({ userName: 'a', password: 'old', displayName: 'D' });
    expect(ok(validateResource(user, { userName: 'a' }, { operation: 'replace', existing }))).toEqual({ schemas: [URN.user], userName: 'a', password: 'old' });
    expect(ok(validateResource(user, { userName: 'a', password: 'new' }, { operation: 'replace', existing }))['password']).toBe('new');
  });

  it('does not return id or meta for create and replace', () => {
    const existing = stored({ userName: 'a' });
    const value = ok(validateResource(user, { id: 'u1', userName: 'b', meta: existing.meta }, { operation: 'replace', existing }));
    expect(value).toEqual({ schemas: [URN.user], userName: 'b' });
  });
});

describe('validateResource: patch results (RFC 7644 §3.5.2)', () => {
  const existing = stored({
    userName: 'a',
    groups: [{ value: 'g1', display: 'Group 1' }],
    [ENT]: { manager: { value: 'm1', displayName: 'Boss' } },
    schemas: [URN.user, ENT],
  });
  const patch: ValidationContext = { operation: 'patch', existing };

  it('keeps id, meta and readOnly values from the stored resource', () => {
    const value = ok(validateResource(user, { ...structuredClone(existing), id: 'changed', meta: { created: 'x' }, groups: [], displayName: 'New' }, patch));
    expect(value).toEqual({
      schemas: [URN.user, ENT],
      id: 'u1',
      userName: 'a',
      displayName: 'New',
      groups: [{ value: 'g1', display: 'Group 1' }],
      [ENT]: { manager: { value: 'm1', displayName: 'Boss' } },
      meta: existing.meta,
    });
    expect(Object.keys(value)).toEqual(['schemas', 'id', 'userName', 'displayName', 'groups', ENT, 'meta']);
    expect(value['meta']).not.toBe(existing.meta);
  });

  it('checks types and required attributes of the result', () => {
    fails(validateResource(user, { ...structuredClone(existing), userName: null }, patch), 'invalidValue', "Attribute 'userName' is required");
    fails(validateResource(user, { ...structuredClone(existing), active: 'yes' }, patch), 'invalidValue', "Attribute 'active' must be a boolean");
  });

  it('rejects a changed or removed immutable attribute with 400 mutability', () => {
    const existingDevice = stored({ schemas: [DEVICE], serialNumber: 'SN-1' });
    const devicePatch: ValidationContext = { operation: 'patch', existing: existingDevice };
    fails(validateResource(device, { ...existingDevice, serialNumber: 'SN-2' }, devicePatch), 'mutability', "Attribute 'serialNumber' is immutable and cannot be changed");
    const { serialNumber: _, ...removed } = existingDevice;
    void _;
    fails(validateResource(device, removed, devicePatch), 'invalidValue', "Attribute 'serialNumber' is required");
    expect(ok(validateResource(device, { ...existingDevice, displayName: 'd' }, devicePatch))['displayName']).toBe('d');
  });
});

describe('validateResource: required attributes (RFC 7643 §2.2)', () => {
  it.each([
    [{}, "Attribute 'userName' is required"],
    [{ userName: null }, "Attribute 'userName' is required"],
    [{ userName: '' }, "Attribute 'userName' is required and must not be empty"],
    [{ name: { givenName: 'x' } }, "Attribute 'userName' is required"],
  ])('User %j → %s', (body, detail) => {
    fails(validateResource(user, body, create), 'invalidValue', detail);
  });

  it('requires Group displayName', () => {
    fails(validateResource(group, { members: [] }, create), 'invalidValue', "Attribute 'displayName' is required");
  });

  it('requires sub-attributes only when the complex value is present', () => {
    expect(ok(validateResource(device, { serialNumber: 's' }, create))).toEqual({ schemas: [DEVICE], serialNumber: 's' });
    fails(validateResource(device, { serialNumber: 's', location: { rack: 1 } }, create), 'invalidValue', "Attribute 'location.building' is required");
    expect(ok(validateResource(device, { serialNumber: 's', location: {} }, create))).toEqual({ schemas: [DEVICE], serialNumber: 's' });
  });

  it('never asks the client for readOnly required attributes', () => {
    const custom = createSchemaRegistry({
      schemas: [{ id: 'urn:t', attributes: [{ name: 'serverCode', required: true, mutability: 'readOnly' }, { name: 'label' }] }],
      resourceTypes: [{ name: 'T', endpoint: '/T', schema: 'urn:t' }],
    }).resourceType('T')!;
    expect(ok(validateResource(custom, { label: 'x' }, create))).toEqual({ schemas: ['urn:t'], label: 'x' });
  });
});

describe('validateResource: data types (RFC 7643 §2.3)', () => {
  it.each([
    [{ userName: 5 }, "Attribute 'userName' must be a string"],
    [{ userName: ['a'] }, "Attribute 'userName' must be a string"],
    [{ userName: 'a', displayName: true }, "Attribute 'displayName' must be a string"],
    [{ userName: 'a', active: 1 }, "Attribute 'active' must be a boolean"],
    [{ userName: 'a', active: 'yes' }, "Attribute 'active' must be a boolean"],
    [{ userName: 'a', profileUrl: 5 }, "Attribute 'profileUrl' must be a reference (a string)"],
    [{ userName: 'a', name: 'Barbara' }, "Attribute 'name' must be a JSON object"],
    [{ userName: 'a', name: ['Barbara'] }, "Attribute 'name' must be a JSON object"],
    [{ userName: 'a', name: { givenName: 1 } }, "Attribute 'name.givenName' must be a string"],
    [{ userName: 'a', emails: { value: 'x' } }, "Attribute 'emails' is multi-valued and must be an array"],
    [{ userName: 'a', emails: 'x@example.com' }, "Attribute 'emails' is multi-valued and must be an array"],
    [{ userName: 'a', emails: ['x@example.com'] }, "Attribute 'emails[0]' must be a JSON object"],
    [{ userName: 'a', emails: [{ value: 'x' }, { value: 7 }] }, "Attribute 'emails[1].value' must be a string"],
    [{ userName: 'a', emails: [{ value: 'x', primary: 'maybe' }] }, "Attribute 'emails[0].primary' must be a boolean"],
    [{ userName: 'a', x509Certificates: [{ value: 'not base64!' }] }, "Attribute 'x509Certificates[0].value' must be a base64-encoded string"],
    [{ userName: 'a', emails: [{ value: 'a', primary: true }, { value: 'b', primary: true }] }, "Attribute 'emails' has more than one value with 'primary' true"],
    [{ userName: 'a', emails: [{ value: 'a', primary: 'True' }, { value: 'b', primary: true }] }, "Attribute 'emails' has more than one value with 'primary' true"],
  ])('User %j → %s', (body, detail) => {
    fails(validateResource(user, body, create), 'invalidValue', detail);
  });

  it.each([
    [{ ports: [1, 2.5] }, "Attribute 'ports[1]' must be an integer"],
    [{ ports: ['1'] }, "Attribute 'ports[0]' must be an integer"],
    [{ ports: 1 }, "Attribute 'ports' is multi-valued and must be an array"],
    [{ weight: '1.5' }, "Attribute 'weight' must be a number"],
    [{ weight: true }, "Attribute 'weight' must be a number"],
    [{ purchased: '2020-02-30T00:00:00Z' }, "Attribute 'purchased' must be an xsd:dateTime string such as 2008-01-23T04:56:22Z"],
    [{ purchased: 1580000000 }, "Attribute 'purchased' must be an xsd:dateTime string such as 2008-01-23T04:56:22Z"],
    [{ firmware: 'abc' }, "Attribute 'firmware' must be a base64-encoded string"],
    [{ firmware: 12 }, "Attribute 'firmware' must be a base64-encoded string"],
  ])('Device %j → %s', (body, detail) => {
    fails(validateResource(device, { serialNumber: 's', ...body }, create), 'invalidValue', detail);
  });

  it('accepts every type in its canonical JSON form', () => {
    const value = ok(validateResource(device, {
      serialNumber: 's',
      ports: [80, 443, 1e3],
      weight: 1.25,
      purchased: '2020-02-29T10:00:00.5+01:00',
      firmware: 'SGVsbG8=',
      secret: 'shh',
      audit: 'log',
    }, create));
    expect(value).toEqual({
      schemas: [DEVICE],
      serialNumber: 's',
      ports: [80, 443, 1000],
      weight: 1.25,
      purchased: '2020-02-29T10:00:00.5+01:00',
      firmware: 'SGVsbG8=',
      secret: 'shh',
      audit: 'log',
    });
    expect(ok(validateResource(device, { serialNumber: 's', weight: 3 }, create))['weight']).toBe(3);
  });

  it('accepts string booleans from Entra ID by default, in any case, and turns them into booleans', () => {
    for (const [input, output] of [['True', true], ['False', false], ['true', true], ['FALSE', false]] as const) {
      expect(ok(validateResource(user, { userName: 'a', active: input }, create))['active']).toBe(output);
    }
    expect(ok(validateResource(user, { userName: 'a', emails: [{ value: 'x', primary: 'True' }] }, create))['emails']).toEqual([{ value: 'x', primary: true }]);
  });

  it('rejects string booleans when the tolerance is off', () => {
    fails(validateResource(user, { userName: 'a', active: 'True' }, create, { stringBooleans: false }), 'invalidValue', "Attribute 'active' must be a boolean");
  });
});

describe('validateResource: unassigned values (RFC 7643 §2.5)', () => {
  it('drops null, empty arrays and empty complex values', () => {
    const value = ok(validateResource(user, {
      userName: 'a',
      displayName: null,
      name: {},
      emails: [],
      phoneNumbers: [null, { value: null }, {}],
      addresses: [{ type: null, locality: 'Here' }],
      roles: null,
      [ENT]: { manager: {}, costCenter: null },
    }, create));
    expect(value).toEqual({ schemas: [URN.user], userName: 'a', addresses: [{ locality: 'Here' }] });
  });

  it('keeps empty strings and false, which are values', () => {
    const value = ok(validateResource(user, { userName: 'a', nickName: '', active: false }, create));
    expect(value).toEqual({ schemas: [URN.user], userName: 'a', nickName: '', active: false });
  });
});
