import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  builtinResourceTypes,
  createSchemaRegistry,
  resourceTypeDocument,
  schemaDocument,
  URN,
} from '../../src/schema/index.js';
import { DEVICE, DEVICE_EXT, deviceExtensionSchema, deviceResourceType, deviceSchema } from './fixtures/device.js';

const registry = createSchemaRegistry({ resourceTypes: builtinResourceTypes });
const SAMPLES = '/work/shared/conformance/scim2-models-rfc-samples';

describe('schemaDocument (RFC 7643 §7, §8.7)', () => {
  it('describes a schema with schemas, id, name, description, attributes and meta', () => {
    const doc = schemaDocument(registry.schema(URN.group)!, 'https://example.com/v2/');
    expect(Object.keys(doc)).toEqual(['schemas', 'id', 'name', 'description', 'attributes', 'meta']);
    expect(doc['schemas']).toEqual([URN.schema]);
    expect(doc['meta']).toEqual({ resourceType: 'Schema', location: `https://example.com/v2/Schemas/${URN.group}` });
    expect(schemaDocument(registry.schema(URN.group)!)['meta']).toEqual({ resourceType: 'Schema' });
  });

  it('gives every characteristic of every attribute, and canonicalValues/referenceTypes only where defined', () => {
    const doc = schemaDocument(registry.schema(URN.group)!) as { attributes: Record<string, unknown>[] };
    expect(doc.attributes[0]).toEqual({
      name: 'displayName',
      type: 'string',
      multiValued: false,
      description: 'A human-readable name for the Group. REQUIRED.',
      required: true,
      caseExact: false,
      mutability: 'readWrite',
      returned: 'default',
      uniqueness: 'none',
    });
    const members = doc.attributes[1]!;
    expect(members).toMatchObject({ name: 'members', type: 'complex', multiValued: true, required: false, mutability: 'readWrite', returned: 'default' });
    const subs = members['subAttributes'] as Record<string, unknown>[];
    expect(subs.map((s) => s['name'])).toEqual(['value', '$ref', 'type', 'display']);
    expect(subs[1]).toMatchObject({ type: 'reference', referenceTypes: ['User', 'Group'], mutability: 'immutable' });
    expect(subs[2]).toMatchObject({ canonicalValues: ['User', 'Group'] });
    expect('canonicalValues' in subs[0]!).toBe(false);
    expect('referenceTypes' in subs[0]!).toBe(false);
    for (const sub of subs) {
      expect(Object.keys(sub).slice(0, 9)).toEqual(['name', 'type', 'multiValued', 'description', 'required', 'caseExact', 'mutability', 'returned', 'uniqueness']);
    }
  });

  it('is plain JSON that survives serialization', () => {
    const doc = schemaDocument(registry.schema(URN.user)!, 'https://x');
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('describes custom schemas with their defaults filled in', () => {
    const devices = createSchemaRegistry({ schemas: [deviceSchema, deviceExtensionSchema], resourceTypes: [deviceResourceType] });
    const doc = schemaDocument(devices.schema(DEVICE_EXT)!) as { name: string; attributes: Record<string, unknown>[] };
    expect(doc.name).toBe('AcmeDevice');
    expect(doc.attributes[1]).toEqual({
      name: 'tags',
      type: 'string',
      multiValued: true,
      description: '',
      required: false,
      caseExact: false,
      mutability: 'readWrite',
      returned: 'default',
      uniqueness: 'none',
    });
    expect(devices.schema(DEVICE)).toBeDefined();
  });
});

describe('resourceTypeDocument (RFC 7643 §6, §8.6)', () => {
  const expectedUser = {
    schemas: [URN.resourceType],
    id: 'User',
    name: 'User',
    description: 'User Account',
    endpoint: '/Users',
    schema: URN.user,
    schemaExtensions: [{ schema: URN.enterpriseUser, required: false }],
    meta: { resourceType: 'ResourceType', location: 'https://example.com/v2/ResourceTypes/User' },
  };
  const expectedGroup = {
    schemas: [URN.resourceType],
    id: 'Group',
    name: 'Group',
    description: 'Group',
    endpoint: '/Groups',
    schema: URN.group,
    meta: { resourceType: 'ResourceType', location: 'https://example.com/v2/ResourceTypes/Group' },
  };

  it('describes the User and Group resource types', () => {
    expect(resourceTypeDocument(registry.resourceType('User')!, 'https://example.com/v2')).toEqual(expectedUser);
    expect(resourceTypeDocument(registry.resourceType('Group')!, 'https://example.com/v2/')).toEqual(expectedGroup);
    expect(resourceTypeDocument(registry.resourceType('Group')!)['meta']).toEqual({ resourceType: 'ResourceType' });
  });

  const samples = [
    ['rfc7643-8.6-resource_type-user.json', 'User'],
    ['rfc7643-8.6-resource_type-group.json', 'Group'],
  ].filter(([file]) => existsSync(`${SAMPLES}/${file}`));
  it.runIf(samples.length > 0).each(samples)('matches %s (the User extension is optional here)', (file, name) => {
    const sample = JSON.parse(readFileSync(`${SAMPLES}/${file}`, 'utf8')) as Record<string, unknown>;
    const doc = resourceTypeDocument(registry.resourceType(name!)!, 'https://example.com/v2');
    // RFC 7643 §8.6 marks the enterprise extension required for its example service; ours is optional.
    const sampleExtensions = (sample['schemaExtensions'] as { schema: string }[] | undefined)?.map((e) => e.schema);
    const docExtensions = (doc['schemaExtensions'] as { schema: string }[] | undefined)?.map((e) => e.schema);
    expect(docExtensions).toEqual(sampleExtensions);
    const strip = ({ schemaExtensions: _, ...rest }: Record<string, unknown>) => rest;
    expect(strip(doc)).toEqual(strip(sample));
  });
});
