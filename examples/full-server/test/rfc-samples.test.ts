import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScimServer, type ScimServer } from '@scimkit/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { createFullServerConfig } from '../src/index.js';

/**
 * The RFC 7643/7644 examples (python-scim/scim2-models `samples/`, errata applied) against the full
 * server: the example requests are accepted, and every example resource and ListResponse validates
 * against the schemas the server serves at /Schemas (checked here, independently of the server's own
 * validation). The samples live in ../shared next to the repository (or $SCIMKIT_SHARED), never
 * copied into the project; without them the same checks run over a few payloads of the same shapes
 * written below.
 */
const SHARED = process.env['SCIMKIT_SHARED'] ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared');
const SAMPLES = join(SHARED, 'conformance/scim2-models-rfc-samples');
const PRESENT = existsSync(SAMPLES);

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const BULK = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
const BASE = 'https://example.com/v2';

type Json = any;

/** Payloads of the samples' shapes, for when ../shared is absent (written for this test). */
const FALLBACK: Record<string, Json> = {
  'user-post_request': { schemas: [USER], userName: 'kim', name: { familyName: 'Lee', givenName: 'Kim' }, emails: [{ value: 'kim@example.org', type: 'work', primary: true }] },
  'enterprise_user': { schemas: [USER, ENTERPRISE], userName: 'sam', [ENTERPRISE]: { employeeNumber: '42', manager: { value: 'nobody-yet' } } },
  'group': { schemas: [GROUP], displayName: 'Ops', members: [] },
  'list_response': { schemas: [LIST], totalResults: 1, Resources: [{ schemas: [USER], id: 'x1', userName: 'kim' }] },
  'patch_op-add_members': { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ display: 'Kim', value: 'user:kim' }] }] },
  'patch_op-remove_one_member': { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: 'members[value eq "user:kim"]' }] },
  'patch_op-replace_user_work_address': { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'addresses[type eq "work"]', value: { type: 'work', locality: 'Oslo' } }] },
  'search_request': { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'], attributes: ['userName'], filter: 'userName sw "k"', startIndex: 1, count: 10 },
  'bulk_request': { schemas: [BULK], Operations: [{ method: 'POST', path: '/Users', bulkId: 'a', data: { schemas: [USER], userName: 'bulk.kim' } }, { method: 'POST', path: '/Groups', bulkId: 'b', data: { schemas: [GROUP], displayName: 'Bulk', members: [{ type: 'User', value: 'bulkId:a' }] } }] },
};

/** The sample files by name (without `.json`), or the fallbacks. */
function samples(): Map<string, Json> {
  if (!PRESENT) return new Map(Object.entries(FALLBACK).map(([name, json]) => [name, structuredClone(json)]));
  return new Map(
    readdirSync(SAMPLES)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [file.slice(0, -'.json'.length), JSON.parse(readFileSync(join(SAMPLES, file), 'utf8'))]),
  );
}

/** Samples whose name contains `part` (one with the fallbacks). */
function named(part: string): Array<[string, Json]> {
  const found = [...samples()].filter(([name]) => name.includes(part));
  expect(found.length, `no sample named *${part}*`).toBeGreaterThan(0);
  return found;
}

/**
 * Bulk samples that do not succeed as they stand, with why and the answer the RFC text gives
 * (docs/concepts/compatibility.md lists them).
 */
const BULK_FAILURES: Record<string, { why: string; status: string; operations: number }> = {
  'rfc7644-3.7.3-bulk_request-multiple_operations': {
    why: 'its POST names the schema "urn:ietf:params:scim:api:messages:2.0:User", not the User schema urn:ietf:params:scim:schemas:core:2.0:User (RFC 7643 §8.7.1), and its PUT/PATCH/DELETE target ids no server holds; with failOnErrors 1 the server stops after that first error (RFC 7644 §3.7.3)',
    status: '400',
    operations: 1,
  },
  'rfc7644-3.7.1-bulk_request-circular_conflict': {
    why: 'two new groups that contain each other: RFC 7644 §3.7.1 lets the server answer 409 instead of resolving the cycle, and the full server refuses membership cycles',
    status: '409',
    operations: 2,
  },
};

/**
 * Samples that disagree with the RFC's own schema representation, with the problem the check finds.
 * RFC 7643 §6 makes `schemaExtensions` OPTIONAL, and the Group resource type of §8.6 has none, but the
 * ResourceType meta-schema of §8.7.2 (served as is) marks it `required: true`.
 */
const SCHEMA_CONFLICTS: Record<string, readonly string[]> = {
  // The Schema meta-schema describing itself: the sub-attribute definitions of `attributes.subAttributes`
  // would need a third level, which RFC 7643 §2.3.8 forbids (sub-attributes are not complex).
  'rfc7643-8.7.2-schema-schema': ['attributes[3].subAttributes[11].subAttributes: not declared'],
};
const RESOURCE_TYPE = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
function conflicts(name: string, resource: Json): readonly string[] {
  const resourceTypeWithoutExtensions = (resource.schemas ?? []).includes(RESOURCE_TYPE) && resource.schemaExtensions === undefined;
  return resourceTypeWithoutExtensions ? ['schemaExtensions: required, missing'] : (SCHEMA_CONFLICTS[name] ?? []);
}

interface Attribute {
  readonly name: string;
  readonly type: string;
  readonly multiValued: boolean;
  readonly required: boolean;
  readonly subAttributes?: readonly Attribute[];
}

/** Checks `value` against the served attribute definitions; returns the problems found. */
function conformance(resource: Json, schemas: Map<string, readonly Attribute[]>, partial: boolean, fallbackSchema?: string): string[] {
  const problems: string[] = [];
  const urns: string[] = Array.isArray(resource.schemas) ? resource.schemas : fallbackSchema === undefined ? [] : [fallbackSchema];
  const core = urns.find((urn) => schemas.has(urn) && !resource[urn]) ?? urns[0];
  if (core === undefined || !schemas.has(core)) return [`schemas ${JSON.stringify(urns)} names no served schema`];
  const common: Attribute[] = [
    { name: 'schemas', type: 'reference', multiValued: true, required: false },
    { name: 'id', type: 'string', multiValued: false, required: false },
    { name: 'externalId', type: 'string', multiValued: false, required: false },
    { name: 'meta', type: 'complex', multiValued: false, required: false, subAttributes: ['resourceType', 'created', 'lastModified', 'location', 'version'].map((name) => ({ name, type: name === 'created' || name === 'lastModified' ? 'dateTime' : 'string', multiValued: false, required: false })) },
  ];
  const declared = [...common, ...schemas.get(core)!.filter((a) => !common.some((c) => c.name === a.name))];
  for (const [key, value] of Object.entries(resource)) {
    if (key.startsWith('urn:')) {
      const extension = schemas.get(key);
      if (extension === undefined || !urns.includes(key)) problems.push(`${key}: not a served extension listed in schemas`);
      else checkAttributes(value, extension, key, partial, problems);
    }
  }
  checkAttributes(Object.fromEntries(Object.entries(resource).filter(([key]) => !key.startsWith('urn:'))), declared, '', partial, problems);
  return problems;
}

function checkAttributes(object: Json, attributes: readonly Attribute[], at: string, partial: boolean, problems: string[]): void {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    problems.push(`${at}: not an object`);
    return;
  }
  const byName = new Map(attributes.map((a) => [a.name.toLowerCase(), a]));
  for (const [key, value] of Object.entries(object)) {
    const attribute = byName.get(key.toLowerCase());
    const path = at === '' ? key : `${at}.${key}`;
    if (attribute === undefined) problems.push(`${path}: not declared`);
    else if (attribute.multiValued && attribute.name !== 'schemas') {
      if (!Array.isArray(value)) problems.push(`${path}: multi-valued, not an array`);
      else value.forEach((item, i) => checkValue(item, attribute, `${path}[${i}]`, partial, problems));
    } else if (attribute.name !== 'schemas') checkValue(value, attribute, path, partial, problems);
  }
  if (!partial) for (const a of attributes) if (a.required && !Object.keys(object).some((k) => k.toLowerCase() === a.name.toLowerCase())) problems.push(`${at === '' ? '' : `${at}.`}${a.name}: required, missing`);
}

function checkValue(value: Json, attribute: Attribute, path: string, partial: boolean, problems: string[]): void {
  const type = attribute.type;
  const fits =
    type === 'complex' ? typeof value === 'object' && value !== null && !Array.isArray(value)
    : type === 'boolean' ? typeof value === 'boolean'
    : type === 'integer' ? Number.isInteger(value)
    : type === 'decimal' ? typeof value === 'number'
    : type === 'dateTime' ? typeof value === 'string' && !Number.isNaN(Date.parse(value))
    : typeof value === 'string';
  if (!fits) problems.push(`${path}: ${JSON.stringify(value)} is not a ${type}`);
  else if (type === 'complex') checkAttributes(value, attribute.subAttributes ?? [], path, partial, problems);
}

let server: ScimServer;
async function send(method: string, path: string, body?: Json, query?: Record<string, string>): Promise<{ status: number; body: Json }> {
  const response = await server.handle({
    method,
    path,
    baseUrl: BASE,
    headers: { 'content-type': 'application/scim+json' },
    ...(query === undefined ? {} : { query }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: response.body === undefined || response.body === '' ? undefined : JSON.parse(response.body) };
}

/** The served schemas, by id, as the attribute definitions this test checks against. */
async function servedSchemas(): Promise<Map<string, readonly Attribute[]>> {
  const listed = await send('GET', '/Schemas');
  expect(listed.status).toBe(200);
  return new Map(listed.body.Resources.map((s: { id: string; attributes: Attribute[] }) => [s.id, s.attributes]));
}

/** A copy of `json` with every occurrence of each sample id (full or RFC-abbreviated) replaced. */
function withIds(json: Json, ids: Record<string, string>): Json {
  let text = JSON.stringify(json);
  for (const [from, to] of Object.entries(ids)) text = text.split(from).join(to);
  return JSON.parse(text);
}

beforeEach(() => {
  server = createScimServer(createFullServerConfig({ baseUrl: BASE }));
});

describe(`RFC 7643/7644 samples against the full server (${PRESENT ? 'from ../shared' : 'built-in payloads'})`, () => {
  it('serves schemas every example resource and ListResponse validates against', async () => {
    const schemas = await servedSchemas();
    let checked = 0;
    for (const [name, json] of samples()) {
      const urns: string[] = json.schemas ?? [];
      if (urns.includes(LIST)) {
        // Resources of a list need not carry `schemas`; §3.4.3's list answers a root search over Users and
        // Groups that asked for two attributes (partial), so each must fit one of the served types.
        const types = name.includes('resource_types') ? [RESOURCE_TYPE] : [USER, GROUP];
        const partial = name.includes('partial') || name.includes('post_query');
        for (const resource of json.Resources) {
          const fits = types.map((type) => conformance(resource, schemas, partial, type));
          const expected = conflicts(name, resource);
          expect(fits.find((problems) => problems.length === expected.length) ?? fits, `${name}: ${JSON.stringify(resource)}`).toEqual(expected);
          checked++;
        }
      } else if (urns.some((urn) => schemas.has(urn))) {
        expect(conformance(json, schemas, name.includes('partial')), name).toEqual(conflicts(name, json));
        checked++;
      }
    }
    // Resources, schemas, resource types and the service provider configuration, through the meta-schemas.
    expect(checked).toBeGreaterThanOrEqual(PRESENT ? 25 : 4);
    // What the server itself serves validates against the same schemas.
    const served = [
      (await send('GET', '/ServiceProviderConfig')).body,
      ...(await send('GET', '/ResourceTypes')).body.Resources,
      ...(await send('GET', '/Schemas')).body.Resources.filter((schema: { id: string }) => !schema.id.endsWith(':Schema')),
    ];
    for (const document of served) expect(conformance(document, schemas, false), document.id ?? 'ServiceProviderConfig').toEqual(conflicts('', document));
  });

  it('accepts the example users as POST and PUT bodies, and serves back what they say', async () => {
    const schemas = await servedSchemas();
    const users = [...named('user')].filter(([name, json]) => (json.schemas ?? []).includes(USER) && !name.includes('response') && !name.includes('known-resource') && !name.includes('schema'));
    for (const [name, json] of users) {
      const created = await send('POST', '/Users', json);
      expect(created.status, `${name}: ${JSON.stringify(created.body)}`).toBe(201);
      expect(created.body.userName).toBe(json.userName);
      if (json[ENTERPRISE] !== undefined) expect(created.body[ENTERPRISE]).toMatchObject({ employeeNumber: json[ENTERPRISE].employeeNumber });
      expect(conformance(created.body, schemas, false), name).toEqual([]);
      const replaced = await send('PUT', `/Users/${created.body.id}`, { ...json, displayName: 'Replaced' });
      expect(replaced.status, name).toBe(200);
      expect(replaced.body.displayName).toBe('Replaced');
      await send('DELETE', `/Users/${created.body.id}`);
    }
    for (const [name, json] of PRESENT ? named('put_request') : []) {
      const target = await send('POST', '/Users', { schemas: [USER], userName: json.userName });
      const replaced = await send('PUT', `/Users/${target.body.id}`, json);
      expect(replaced.status, `${name}: ${JSON.stringify(replaced.body)}`).toBe(200);
      expect(replaced.body.emails).toEqual(json.emails);
    }
  });

  it('applies the example PATCH requests to a group and a user', async () => {
    const babs = await send('POST', '/Users', { schemas: [USER], userName: 'bjensen', displayName: 'Babs Jensen', addresses: [{ type: 'work', locality: 'Hollywood' }], emails: [{ type: 'work', value: 'bjensen@example.com' }] });
    const james = await send('POST', '/Users', { schemas: [USER], userName: 'jsmith', displayName: 'James Smith' });
    // The samples' ids (some abbreviated with "...", as in the RFC) stand for these server-assigned ones.
    const ids = {
      '2819c223-7f76-453a-919d-413861904646': babs.body.id,
      '2819c223...413861904646': babs.body.id,
      '2819c223...919d-413861904646': babs.body.id,
      '2819c223-7f76-...413861904646': babs.body.id,
      '902c246b-6245-4190-8e05-00816be7344a': james.body.id,
      '08e1d05d...473d93df9210': james.body.id,
      '08e1d05d-121c-4561-8b96-473d93df9210': james.body.id,
      'user:kim': babs.body.id,
    };
    const patches = [...samples()].filter(([name]) => name.includes('patch_op'));
    expect(patches.length).toBeGreaterThanOrEqual(PRESENT ? 10 : 3);
    for (const [name, json] of patches) {
      const onGroup = name.includes('member');
      const target = onGroup
        ? await send('POST', '/Groups', { schemas: [GROUP], displayName: `G ${name}`, members: [{ value: babs.body.id }] })
        : await send('POST', '/Users', { schemas: [USER], userName: `u ${name}`, addresses: [{ type: 'work', streetAddress: '100 Universal City Plaza' }], emails: [{ type: 'work', value: 'a@example.com' }, { type: 'home', value: 'b@example.com' }] });
      const path = `/${onGroup ? 'Groups' : 'Users'}/${target.body.id}`;
      const patched = await send('PATCH', path, withIds(json, ids));
      expect(patched.status, `${name}: ${JSON.stringify(patched.body)}`).toBe(204);
      const read = await send('GET', path);
      const members = (read.body.members ?? []).map((m: { value: string }) => m.value);
      for (const added of json.Operations.filter((o: Json) => o.op === 'add' || o.op === 'replace').flatMap((o: Json) => (o.path === 'members' ? o.value : []))) {
        expect(members, name).toContain(withIds(added, ids).value);
      }
      if (name.includes('remove_all_members')) expect(read.body.members, name).toBeUndefined();
      if (name.includes('remove_one_member')) expect((read.body.members ?? []).map((m: { value: string }) => m.value), name).not.toContain(babs.body.id);
      if (name.includes('work_address')) expect(read.body.addresses.find((a: { type: string }) => a.type === 'work'), name).toMatchObject(json.Operations[0].value);
    }
  });

  it('answers the example search request', async () => {
    await send('POST', '/Users', { schemas: [USER], userName: 'jsmith', displayName: 'smith, j' });
    await send('POST', '/Users', { schemas: [USER], userName: 'kim', displayName: 'kim' });
    for (const [name, json] of named('search_request')) {
      const found = await send('POST', '/Users/.search', json);
      expect(found.status, name).toBe(200);
      expect(found.body.schemas).toEqual([LIST]);
      const userName = json.filter.includes('smith') ? 'jsmith' : 'kim';
      expect(found.body.Resources.map((r: { userName: string }) => r.userName), name).toEqual([userName]);
    }
  });

  it('runs the example bulk requests, each operation as its own request would', async () => {
    for (const [name, json] of named('bulk_request')) {
      // Each sample on its own server: two of them create the same "Alice".
      server = createScimServer(createFullServerConfig({ baseUrl: BASE }));
      const answered = await send('POST', '/Bulk', json);
      expect(answered.status, `${name}: ${JSON.stringify(answered.body)}`).toBe(200);
      const statuses: string[] = answered.body.Operations.map((o: { status: string }) => o.status);
      const failure = BULK_FAILURES[name];
      if (failure !== undefined) {
        expect(statuses, `${name}: ${failure.why}`).toHaveLength(failure.operations);
        expect(statuses.every((s) => s === failure.status), `${name}: ${JSON.stringify(answered.body)}`).toBe(true);
      } else expect(statuses.every((s) => s === '201'), `${name}: ${JSON.stringify(answered.body)}`).toBe(true);
    }
    // The last sample's resources are there, references resolved (bulkId:… replaced by ids).
    const groups = await send('GET', '/Groups');
    for (const group of groups.body.Resources) for (const member of group.members ?? []) expect(member.value).not.toMatch(/^bulkId:/);
  });
});
