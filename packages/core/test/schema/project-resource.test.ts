import { describe, expect, it } from 'vitest';
import type { AttrPath } from '../../src/filter/ast.js';
import { builtinResourceTypes, createSchemaRegistry, projectResource, URN } from '../../src/schema/index.js';
import { DEVICE, DEVICE_EXT, deviceExtensionSchema, deviceResourceType, deviceSchema } from './fixtures/device.js';
import { enterpriseUser, group as groupExample } from './fixtures/rfc7643-examples.js';

const registry = createSchemaRegistry({ resourceTypes: builtinResourceTypes });
const user = registry.resourceType('User')!;
const group = registry.resourceType('Group')!;
const device = createSchemaRegistry({ schemas: [deviceSchema, deviceExtensionSchema], resourceTypes: [deviceResourceType] }).resourceType('Device')!;
const ENT = URN.enterpriseUser;

const bjensen = { ...structuredClone(enterpriseUser), password: 't1meMOUT' } as Record<string, unknown>;
const paths = (...names: string[]): AttrPath[] =>
  names.map((n) => {
    const dot = n.lastIndexOf('.');
    return n.startsWith('urn:') || dot < 0 ? { attr: n } : { attr: n.slice(0, dot), subAttr: n.slice(dot + 1) };
  });

describe('projectResource (RFC 7643 §2.2 returned, RFC 7644 §3.9)', () => {
  it('returns always and default attributes, never the password', () => {
    const out = projectResource(user, bjensen);
    expect(out['password']).toBeUndefined();
    const { password: _, ...expected } = bjensen;
    void _;
    expect(out).toEqual(expected);
  });

  it('serves a given location as meta.location, following the selection, without touching the resource', () => {
    const at = 'https://scim.example.com/v2/Users/elsewhere';
    const before = structuredClone(bjensen);
    expect((projectResource(user, bjensen, {}, at)['meta'] as Record<string, unknown>)['location']).toBe(at);
    expect(bjensen).toEqual(before);
    expect(projectResource(user, bjensen, { excludedAttributes: paths('meta.location') }, at)['meta']).not.toHaveProperty('location');
    expect(projectResource(user, bjensen, { attributes: paths('userName') }, at)).not.toHaveProperty('meta');
    const { meta: _meta, ...withoutMeta } = bjensen;
    expect(projectResource(user, withoutMeta, {}, at)['meta']).toEqual({ location: at });
  });

  it('orders keys: schemas, id, externalId, core attributes in schema order, extensions, meta', () => {
    const shuffled = Object.fromEntries(Object.entries(bjensen).reverse());
    const out = projectResource(user, shuffled);
    expect(Object.keys(out)).toEqual([
      'schemas', 'id', 'externalId', 'userName', 'name', 'displayName', 'nickName', 'profileUrl', 'title', 'userType',
      'preferredLanguage', 'locale', 'timezone', 'active', 'emails', 'phoneNumbers', 'ims', 'photos', 'addresses', 'groups',
      'x509Certificates', ENT, 'meta',
    ]);
    expect(Object.keys(out['name'] as object)).toEqual(['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix']);
  });

  it('returns only id, schemas and the named attributes when attributes is given (RFC 7644 §3.9 example)', () => {
    expect(projectResource(user, bjensen, { attributes: paths('userName') })).toEqual({
      schemas: [URN.user],
      id: '2819c223-7f76-453a-919d-413861904646',
      userName: 'bjensen@example.com',
    });
  });

  it('selects sub-attributes, in any case and URN-qualified', () => {
    const out = projectResource(user, bjensen, {
      attributes: [
        { attr: 'NAME', subAttr: 'GIVENNAME' },
        { attr: 'emails', subAttr: 'value' },
        { uri: URN.user, attr: 'displayName' },
        { uri: ENT, attr: 'manager', subAttr: 'value' },
      ],
    });
    expect(out).toEqual({
      schemas: [URN.user, ENT],
      id: bjensen['id'],
      name: { givenName: 'Barbara' },
      displayName: 'Babs Jensen',
      emails: [{ value: 'bjensen@example.com' }, { value: 'babs@jensen.org' }],
      [ENT]: { manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d' } },
    });
  });

  it('selects a whole extension by its bare URN, however the parser split it', () => {
    for (const path of [{ attr: ENT }, { uri: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0', attr: 'User' }, { attr: 'urn:ietf:params:scim:schemas:extension:enterprise:2', subAttr: '0:User' }]) {
      const out = projectResource(user, bjensen, { attributes: [path] });
      expect(out).toEqual({ schemas: [URN.user, ENT], id: bjensen['id'], [ENT]: (bjensen as Record<string, unknown>)[ENT] });
    }
  });

  it('ignores unknown names and never returns a never attribute, even when asked', () => {
    expect(projectResource(user, bjensen, { attributes: paths('nope', 'password', 'name.nope', 'urn:x:y') })).toEqual({
      schemas: [URN.user],
      id: bjensen['id'],
    });
  });

  it('excludes attributes and sub-attributes, but never always-returned ones', () => {
    const out = projectResource(user, bjensen, {
      excludedAttributes: [...paths('emails', 'id', 'name.formatted', 'meta', 'schemas'), { uri: ENT, attr: 'manager' }, { attr: 'nope' }],
    });
    expect(out['id']).toBe(bjensen['id']);
    expect(out['emails']).toBeUndefined();
    expect(out['meta']).toBeUndefined();
    expect(out['schemas']).toEqual([URN.user, ENT]);
    expect((out['name'] as Record<string, unknown>)['formatted']).toBeUndefined();
    expect((out['name'] as Record<string, unknown>)['givenName']).toBe('Barbara');
    expect((out[ENT] as Record<string, unknown>)['manager']).toBeUndefined();
    expect((out[ENT] as Record<string, unknown>)['employeeNumber']).toBe('701984');
  });

  it('drops an excluded extension from schemas', () => {
    const out = projectResource(user, bjensen, { excludedAttributes: [{ attr: ENT }] });
    expect(out[ENT]).toBeUndefined();
    expect(out['schemas']).toEqual([URN.user]);
  });

  it('returns request attributes only when named', () => {
    const resource = { schemas: [DEVICE], id: 'd1', serialNumber: 's', audit: 'log', secret: 'x', location: { building: 'B', note: 'n' } };
    expect(projectResource(device, resource)).toEqual({ schemas: [DEVICE], id: 'd1', serialNumber: 's', location: { building: 'B' } });
    expect(projectResource(device, resource, { excludedAttributes: paths('serialNumber') })).toEqual({ schemas: [DEVICE], id: 'd1', location: { building: 'B' } });
    expect(projectResource(device, resource, { attributes: paths('audit', 'secret', 'location.note') })).toEqual({
      schemas: [DEVICE],
      id: 'd1',
      audit: 'log',
      location: { note: 'n' },
    });
  });

  it('lists in schemas only the extensions with data in the output', () => {
    const resource = { schemas: [DEVICE, DEVICE_EXT], id: 'd1', serialNumber: 's', [DEVICE_EXT]: {} };
    expect(projectResource(device, resource)['schemas']).toEqual([DEVICE]);
    expect(projectResource(user, { ...bjensen, schemas: ['junk'] }, { attributes: paths('userName') })['schemas']).toEqual([URN.user]);
  });

  it('reads stored keys in any case and outputs schema spelling', () => {
    const out = projectResource(user, { SCHEMAS: [URN.user], ID: 'x', USERNAME: 'a', NAME: { GIVENNAME: 'g' }, [ENT.toLowerCase()]: { DEPARTMENT: 'd' } });
    expect(out).toEqual({ schemas: [URN.user, ENT], id: 'x', userName: 'a', name: { givenName: 'g' }, [ENT]: { department: 'd' } });
  });

  it('never outputs keys no schema declares, and shares no objects with the resource', () => {
    const resource = JSON.parse('{"id":"g","displayName":"G","__proto__":{"x":1},"extra":1,"members":[{"value":"u","junk":1}]}') as Record<string, unknown>;
    const out = projectResource(group, resource);
    expect(out).toEqual({ schemas: [URN.group], id: 'g', displayName: 'G', members: [{ value: 'u' }] });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    const copy = structuredClone(groupExample) as Record<string, unknown>;
    const projected = projectResource(group, copy);
    (projected['members'] as Record<string, unknown>[])[0]!['value'] = 'changed';
    (projected['meta'] as Record<string, unknown>)['version'] = 'changed';
    expect(copy).toEqual(groupExample);
  });
});
