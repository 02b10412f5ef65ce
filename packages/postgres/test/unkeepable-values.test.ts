import { createSchemaRegistry, groupResourceType, URN, userResourceType, type ResourceModel, type ScimResource, type WriteContext } from '@scimkit/core';
import { parseFilter } from '@scimkit/core/engine';
import { createPostgresStore, type SqlClient } from '@scimkit/postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSchema } from './fresh-schema.js';

// jsonb cannot hold U+0000 in a string or a key (SQLSTATE 22P05), nor text a NUL byte (22021): a
// write holding one is `invalidValue` and writes nothing; a lookup by such an id or value finds nothing.
const USER: WriteContext = { unique: [{ path: 'userName', caseExact: false }] };
const meta = (resourceType: string, version = 'W/"1"') => ({ resourceType, created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version });
const user = (id: string, userName: string, extra: Record<string, unknown> = {}, version?: string): ScimResource =>
  ({ schemas: [URN.user], id, userName, ...extra, meta: meta('User', version) }) as ScimResource;
const REFUSED = { ok: false, reason: 'invalidValue', detail: 'The resource holds U+0000 (NUL) in a string or an attribute name, which the PostgreSQL store cannot keep (jsonb)' };
const models = createSchemaRegistry({ resourceTypes: [userResourceType, groupResourceType] });
const users = models.resourceType('User') as ResourceModel;

let client: SqlClient;
let schema: string;
beforeAll(async () => {
  ({ client, schema } = await freshSchema());
}, 120_000);

async function rows(table: string, tenant: string): Promise<number> {
  const counted = await client.query<{ n: string | number }>(`SELECT count(*) AS n FROM "${schema}".${table} WHERE tenant = $1`, [tenant]);
  return Number(counted.rows[0]?.n);
}

describe('U+0000', () => {
  it('in a string or a key, create is invalidValue and writes no row, unique value or member', async () => {
    const store = createPostgresStore({ client, schema });
    const tenant = 'create';
    expect(await store.create('User', user('u1', 'bjensen', { title: 'a\u0000b' }), { ...USER, tenant })).toEqual(REFUSED);
    expect(await store.create('User', user('u2', 'bjensen', { 'urn:example:x': { 'k\u0000': 1 } }), { ...USER, tenant })).toEqual(REFUSED);
    expect(await store.create('User', user('u3', 'nul\u0000name'), { ...USER, tenant })).toEqual(REFUSED);
    const group = { schemas: [URN.group], id: 'g1', displayName: 'g', members: [{ value: 'u9', display: '\u0000' }], meta: meta('Group') } as ScimResource;
    expect(await store.create('Group', group, { unique: [], tenant })).toEqual(REFUSED);
    expect([await rows('scim_resources', tenant), await rows('scim_unique_values', tenant), await rows('scim_group_members', tenant)]).toEqual([0, 0, 0]);
    expect((await store.create('User', user('u1', 'bjensen'), { ...USER, tenant })).ok).toBe(true);
  });

  it('replace is invalidValue and keeps the stored resource, its unique values and members', async () => {
    const store = createPostgresStore({ client, schema });
    const tenant = 'replace';
    const stored = user('u1', 'bjensen', { title: 'kept' });
    await store.create('User', stored, { ...USER, tenant });
    expect(await store.replace('User', 'u1', user('u1', 'renamed', { title: '\u0000' }, 'W/"2"'), 'W/"1"', { ...USER, tenant })).toEqual(REFUSED);
    expect(await store.get('User', 'u1', { tenant })).toEqual(stored);
    expect(await store.create('User', user('u2', 'BJENSEN'), { ...USER, tenant })).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    const group = (members: unknown[], version: string) => ({ schemas: [URN.group], id: 'g1', displayName: 'g', members, meta: meta('Group', version) }) as ScimResource;
    const before = group([{ value: 'u1' }], 'W/"1"');
    await store.create('Group', before, { unique: [], tenant });
    const added = { value: 'u2', display: 'x\u0000' };
    const changes = [{ attribute: 'members', added: [added], removed: [] }];
    expect(await store.replace('Group', 'g1', group([{ value: 'u1' }, added], 'W/"2"'), 'W/"1"', { unique: [], tenant, changes })).toEqual(REFUSED);
    expect(await store.get('Group', 'g1', { tenant })).toEqual(before);
  });

  it('in an id is no resource: get finds nothing, replace and delete are notFound', async () => {
    const store = createPostgresStore({ client, schema });
    expect(await store.get('User', 'a\u0000b')).toBeUndefined();
    expect(await store.replace('User', 'a\u0000b', user('a\u0000b', 'x', {}, 'W/"2"'), 'W/"1"', USER)).toEqual({ ok: false, reason: 'notFound' });
    expect(await store.delete('User', 'a\u0000b')).toEqual({ ok: false, reason: 'notFound' });
  });

  it('in a filter value is evaluated in memory: eq finds nothing, ne everything', async () => {
    const store = createPostgresStore({ client, schema });
    const tenant = 'filter';
    await store.create('User', user('u1', 'bjensen'), { ...USER, tenant });
    const query = async (filter: string, matches: (r: ScimResource) => boolean) => {
      const parsed = parseFilter(filter);
      if (!parsed.ok) throw new Error(filter);
      const found = await store.query('User', { filter: parsed.value, semantics: { matches, attribute: (path) => users.facts(path) } }, { tenant });
      return found.resources.map((r) => r.id);
    };
    expect(await query(String.raw`userName eq "bjensen\u0000"`, () => false)).toEqual([]);
    expect(await query(String.raw`userName ne "bjensen\u0000"`, () => true)).toEqual(['u1']);
  });
});
