import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AttributeDefinition, SchemaDefinition } from '../../src/schema/index.js';
import {
  builtinResourceTypes,
  createSchemaRegistry,
  enterpriseUserSchema,
  groupSchema,
  normalizeSchema,
  resourceTypeSchema,
  schemaDocument,
  schemaSchema,
  serviceProviderConfigSchema,
  URN,
  userSchema,
} from '../../src/schema/index.js';

const registry = createSchemaRegistry({ resourceTypes: builtinResourceTypes });
const user = registry.schema(URN.user)!;
const group = registry.schema(URN.group)!;
const enterprise = registry.schema(URN.enterpriseUser)!;

function attr(schema: SchemaDefinition, path: string): AttributeDefinition {
  const [name, sub] = path.split('.');
  const top = schema.attributes.find((a) => a.name === name);
  const found = sub === undefined ? top : top?.subAttributes?.find((a) => a.name === sub);
  if (found === undefined) throw new Error(`no attribute ${path} in ${schema.id}`);
  return found;
}

describe('built-in schemas (RFC 7643 §4, §8.7.1)', () => {
  it('declares the User, Group and Enterprise User schema ids, names and descriptions', () => {
    expect([user.id, user.name, user.description]).toEqual([URN.user, 'User', 'User Account']);
    expect([group.id, group.name, group.description]).toEqual([URN.group, 'Group', 'Group']);
    expect([enterprise.id, enterprise.name, enterprise.description]).toEqual([URN.enterpriseUser, 'EnterpriseUser', 'Enterprise User']);
  });

  it('lists every User attribute in RFC order', () => {
    expect(user.attributes.map((a) => a.name)).toEqual([
      'userName', 'name', 'displayName', 'nickName', 'profileUrl', 'title', 'userType', 'preferredLanguage', 'locale',
      'timezone', 'active', 'password', 'emails', 'phoneNumbers', 'ims', 'photos', 'addresses', 'groups', 'entitlements',
      'roles', 'x509Certificates',
    ]);
    expect(attr(user, 'name').subAttributes!.map((a) => a.name)).toEqual([
      'formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix',
    ]);
    expect(attr(user, 'addresses').subAttributes!.map((a) => a.name)).toEqual([
      'formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'type', 'primary',
    ]);
  });

  it.each([
    // path, type, multiValued, required, caseExact, mutability, returned, uniqueness
    ['userName', 'string', false, true, false, 'readWrite', 'default', 'server'],
    ['name', 'complex', false, false, false, 'readWrite', 'default', 'none'],
    ['profileUrl', 'reference', false, false, false, 'readWrite', 'default', 'none'],
    ['active', 'boolean', false, false, false, 'readWrite', 'default', 'none'],
    ['password', 'string', false, false, false, 'writeOnly', 'never', 'none'],
    ['emails', 'complex', true, false, false, 'readWrite', 'default', 'none'],
    ['emails.primary', 'boolean', false, false, false, 'readWrite', 'default', 'none'],
    ['photos.value', 'reference', false, false, true, 'readWrite', 'default', 'none'],
    ['groups', 'complex', true, false, false, 'readOnly', 'default', 'none'],
    ['groups.$ref', 'reference', false, false, false, 'readOnly', 'default', 'none'],
    ['x509Certificates.value', 'binary', false, false, true, 'readWrite', 'default', 'none'],
  ] as const)('User %s: %s multiValued=%s required=%s caseExact=%s %s returned=%s uniqueness=%s', (path, type, multiValued, required, caseExact, mutability, returned, uniqueness) => {
    expect(attr(user, path)).toMatchObject({ type, multiValued, required, caseExact, mutability, returned, uniqueness });
  });

  it('carries canonical values and reference types as the RFC states them', () => {
    expect(attr(user, 'emails.type').canonicalValues).toEqual(['work', 'home', 'other']);
    expect(attr(user, 'phoneNumbers.type').canonicalValues).toEqual(['work', 'home', 'mobile', 'fax', 'pager', 'other']);
    expect(attr(user, 'ims.type').canonicalValues).toEqual(['aim', 'gtalk', 'icq', 'xmpp', 'msn', 'skype', 'qq', 'yahoo']);
    expect(attr(user, 'photos.type').canonicalValues).toEqual(['photo', 'thumbnail']);
    expect(attr(user, 'groups.type').canonicalValues).toEqual(['direct', 'indirect']);
    expect(attr(user, 'profileUrl').referenceTypes).toEqual(['external']);
    expect(attr(user, 'groups.$ref').referenceTypes).toEqual(['Group']);
    expect(attr(group, 'members.$ref').referenceTypes).toEqual(['User', 'Group']);
    expect(attr(group, 'members.type').canonicalValues).toEqual(['User', 'Group']);
    expect(attr(enterprise, 'manager.$ref').referenceTypes).toEqual(['User']);
    expect(attr(user, 'userName').canonicalValues).toBeUndefined();
    expect(attr(user, 'userName').referenceTypes).toBeUndefined();
  });

  it('describes Group members as immutable values and a readOnly display (errata)', () => {
    expect(attr(group, 'displayName')).toMatchObject({ required: true, uniqueness: 'none' });
    expect(attr(group, 'members')).toMatchObject({ multiValued: true, mutability: 'readWrite' });
    expect(attr(group, 'members').subAttributes!.map((a) => [a.name, a.mutability])).toEqual([
      ['value', 'immutable'], ['$ref', 'immutable'], ['type', 'immutable'], ['display', 'readOnly'],
    ]);
  });

  it('describes the Enterprise User extension', () => {
    expect(enterprise.attributes.map((a) => a.name)).toEqual(['employeeNumber', 'costCenter', 'organization', 'division', 'department', 'manager']);
    expect(attr(enterprise, 'manager.value')).toMatchObject({ type: 'string', required: true, caseExact: true });
    expect(attr(enterprise, 'manager.displayName').mutability).toBe('readOnly');
    // Deliberate: $ref is not enforced (RFC 7643 §8.7.1 text says false; Entra and Okta omit it).
    expect(attr(enterprise, 'manager.$ref').required).toBe(false);
  });

  it('gives User descriptions from the RFC text', () => {
    expect(attr(user, 'userName').description).toMatch(/^Unique identifier for the User, typically used by the user to directly authenticate/);
    expect(attr(user, 'password').description).toMatch(/^The User's cleartext password/);
  });

  it('declares the §8.7.2 meta-schemas', () => {
    const spc = normalizeSchema(serviceProviderConfigSchema);
    expect(spc.id).toBe(URN.serviceProviderConfig);
    expect(spc.attributes.map((a) => a.name)).toEqual([
      'documentationUri', 'patch', 'bulk', 'filter', 'changePassword', 'sort', 'etag', 'authenticationSchemes',
    ]);
    expect(spc.attributes.every((a) => a.mutability === 'readOnly')).toBe(true);
    const rt = normalizeSchema(resourceTypeSchema);
    expect(rt.attributes.map((a) => a.name)).toEqual(['id', 'name', 'description', 'endpoint', 'schema', 'schemaExtensions']);
    const schema = normalizeSchema(schemaSchema);
    expect(schema.attributes.map((a) => a.name)).toEqual(['id', 'name', 'description', 'attributes']);
    const attributes = schema.attributes.find((a) => a.name === 'attributes')!;
    expect(attributes.subAttributes!.find((a) => a.name === 'type')!.canonicalValues).toEqual([
      'string', 'complex', 'boolean', 'decimal', 'integer', 'dateTime', 'reference', 'binary',
    ]);
  });
});

/**
 * RFC 7643 §8.7.1 with errata, as published in the scim2-models samples: every characteristic the
 * sample states must equal ours; characteristics the sample leaves out must be the §2.2 defaults.
 */
const SAMPLES = '/work/shared/conformance/scim2-models-rfc-samples';
const sampleFiles = [
  ['rfc7643-8.7.1-schema-user.json', userSchema],
  ['rfc7643-8.7.1-schema-group.json', groupSchema],
  ['rfc7643-8.7.1-schema-enterprise_user.json', enterpriseUserSchema],
  ['rfc7643-8.7.2-schema-service_provider_configuration.json', serviceProviderConfigSchema],
  ['rfc7643-8.7.2-schema-resource_type.json', resourceTypeSchema],
  ['rfc7643-8.7.2-schema-schema.json', schemaSchema],
] as const;
const present = sampleFiles.filter(([file]) => existsSync(`${SAMPLES}/${file}`));
/** Where we deliberately differ from the samples, with the reason in enterprise-user-schema.ts. */
const DEVIATIONS = new Set(['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.$ref.required']);
const DEFAULTS: Record<string, unknown> = { required: false, caseExact: false, mutability: 'readWrite', returned: 'default', uniqueness: 'none', multiValued: false };

describe.runIf(present.length > 0)('generated Schema documents match the RFC 7643 §8.7 samples', () => {
  it.each(present.map(([file, input]) => [file, input] as const))('%s', (file, input) => {
    const sample = JSON.parse(readFileSync(`${SAMPLES}/${file}`, 'utf8')) as { id: string; name: string; description: string; attributes: Record<string, unknown>[] };
    const doc = schemaDocument(normalizeSchema(input)) as { id: string; name: string; description: string; attributes: Record<string, unknown>[] };
    expect([doc.id, doc.name, doc.description]).toEqual([sample.id, sample.name, sample.description]);
    compareAttributes(`${sample.id}:`, sample.attributes, doc.attributes);
  });
});

function compareAttributes(prefix: string, expected: Record<string, unknown>[], actual: Record<string, unknown>[]): void {
  expect(actual.map((a) => a['name']), prefix).toEqual(expected.map((a) => a['name']));
  expected.forEach((want, i) => {
    const got = actual[i]!;
    const path = `${prefix}${String(want['name'])}`;
    for (const key of new Set([...Object.keys(want), ...Object.keys(got)])) {
      if (key === 'subAttributes' || DEVIATIONS.has(`${path}.${key}`)) continue;
      const expectation = key in want ? want[key] : DEFAULTS[key];
      // Characteristics meaningless for complex attributes (RFC 7643 §8.7.1 omits them) take the defaults.
      expect(got[key], `${path}.${key}`).toEqual(expectation);
    }
    if (want['subAttributes'] !== undefined) {
      compareAttributes(`${path}.`, want['subAttributes'] as Record<string, unknown>[], got['subAttributes'] as Record<string, unknown>[]);
    }
  });
}
