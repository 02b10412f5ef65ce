import { createSchemaRegistry, groupResourceType, URN, userResourceType, type ResourceModel, type ScimResource, type ScimStore } from '@scimkit/core';
import { parseFilter } from '@scimkit/core/engine';
import { createPostgresStore, migrate, type SqlClient } from '@scimkit/postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { bootstrapStatements, MIGRATIONS } from '../src/migrations.js';
import { storeTables } from '../src/sql-names.js';
import { sharedClient } from './fresh-schema.js';

// Version 2 turns `data` and the members' `element` from json into jsonb, in place. A schema at
// version 1 holding what the version 1 store wrote (JSON.stringify text in json columns) upgrades,
// and the store reads, finds, sorts and writes it afterwards. Version 1 could not hold U+0000
// either (its expression indexes read strings of the document), so every row it holds converts.
const SCHEMA = 'from_v1';
const registry = createSchemaRegistry({ resourceTypes: [userResourceType, groupResourceType] });
const users = registry.resourceType('User') as ResourceModel;
const groups = registry.resourceType('Group') as ResourceModel;
const meta = (resourceType: string) => ({ resourceType, created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' });

const migrated: ScimResource = {
  schemas: [URN.user],
  id: 'u1',
  externalId: 'ext-1',
  userName: 'Migrated.User',
  name: { givenName: 'Zoë', familyName: '名前 🎉' },
  title: 'a backslash then u0000 is text: \\u0000',
  emails: [
    { value: 'other@example.com', type: 'home' },
    { value: 'b@example.com', type: 'work', primary: true },
  ],
  numbers: { int: 9007199254740991, tiny: 5e-324, huge: 1.7976931348623157e308, exponent: 1e21, fraction: 0.1, small: 1.5e-7 },
  'urn:example:unknown': { 'key with spaces': 'ключ', nested: [1, { deeper: null }], empty: {}, emptyList: [] },
  meta: meta('User'),
};
const plain: ScimResource = { schemas: [URN.user], id: 'u2', userName: 'zed', emails: [{ value: 'a@example.com' }], meta: meta('User') };
const members = [
  { value: 'u1', type: 'User', display: 'Migrated User' },
  { value: 'u2', type: 'User' },
];
const group: ScimResource = { schemas: [URN.group], id: 'g1', displayName: 'Migrated Group', members: [], meta: meta('Group') };

let client: SqlClient;
let store: ScimStore;

/** Creates the schema at version 1 and writes rows as the version 1 store did. */
async function versionOne(): Promise<void> {
  const t = storeTables(SCHEMA);
  const [first] = MIGRATIONS;
  if (first === undefined) throw new Error('no version 1');
  await client.transaction(async (tx) => {
    for (const statement of [...bootstrapStatements(t), ...first.statements(t)]) await tx.query(statement);
    await tx.query(`INSERT INTO ${t.migrations} (version, name) VALUES (1, $1)`, [first.name]);
  });
  const insert = (type: string, resource: ScimResource) =>
    client.query(
      `INSERT INTO ${t.resources} (tenant, resource_type, id, version, created, last_modified, data) VALUES ('', $1, $2, 'W/"1"', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', $3::json)`,
      [type, resource.id, JSON.stringify(resource)],
    );
  // The expression indexes read every string of the document: a U+0000 anywhere fails the write.
  await expect(insert('User', { ...plain, id: 'nul', userName: 'nul', title: 'a\u0000b' })).rejects.toThrow('unsupported Unicode escape sequence');
  for (const [type, resource] of [['User', migrated], ['User', plain], ['Group', group]] as const) await insert(type, resource);
  await client.query(`INSERT INTO ${t.uniqueValues} (tenant, resource_type, attribute, key, id) VALUES ('', 'User', 'userName', 's:migrated.user', 'u1'), ('', 'User', 'userName', 's:zed', 'u2')`);
  for (const [position, element] of members.entries()) {
    await client.query(
      `INSERT INTO ${t.members} (tenant, resource_type, group_id, position, member_id, type, element) VALUES ('', 'Group', 'g1', $1, $2, 'User', $3::json)`,
      [position, element.value, JSON.stringify(element)],
    );
  }
}

async function ids(model: ResourceModel, filter: string | undefined, sort?: { attr: string; order: 'ascending' | 'descending' }): Promise<string[]> {
  const parsed = filter === undefined ? undefined : parseFilter(filter);
  if (parsed !== undefined && !parsed.ok) throw new Error(filter);
  const found = await store.query(model.definition.name, {
    ...(parsed === undefined ? {} : { filter: parsed.value }),
    semantics: { matches: () => true, attribute: (path) => model.facts(path) },
    ...(sort === undefined ? {} : { sort: { path: { attr: sort.attr }, order: sort.order } }),
    startIndex: 1,
    count: 10,
  });
  return found.resources.map((resource) => resource.id);
}

beforeAll(async () => {
  client = await sharedClient();
  await versionOne();
  const migrated = await migrate(client, { schema: SCHEMA });
  // Version 2 is this test's; later versions (3: the events outbox) follow it.
  expect(migrated.applied[0]).toBe(2);
  expect(migrated.version).toBe(MIGRATIONS.length);
  store = createPostgresStore({ client, schema: SCHEMA });
}, 120_000);

describe('migrating a version 1 schema to version 2 (jsonb)', () => {
  it('turns data and element into jsonb, and the pick helper with them', async () => {
    const columns = await client.query<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND column_name IN ('data', 'element') ORDER BY table_name`,
      [SCHEMA],
    );
    expect(columns.rows).toEqual([
      { table_name: 'scim_group_members', column_name: 'element', data_type: 'jsonb' },
      { table_name: 'scim_resources', column_name: 'data', data_type: 'jsonb' },
    ]);
    const pick = await client.query<{ signature: string }>(
      `SELECT pg_get_function_identity_arguments(p.oid) AS signature FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 AND p.proname = 'scim_pick'`,
      [SCHEMA],
    );
    expect(pick.rows).toEqual([{ signature: 'v jsonb' }]);
  });

  it('reads back every value, numbers as the same numbers, escapes as the same text', async () => {
    const read = await store.get('User', 'u1');
    expect(read).toEqual(migrated);
    expect(read?.['title']).toBe('a backslash then u0000 is text: \\u0000');
    expect(await store.get('User', 'u2')).toEqual(plain);
    expect((await store.get('Group', 'g1'))?.['members']).toEqual(members);
  });

  it('finds, sorts and pages the migrated rows in SQL', async () => {
    expect(await ids(users, 'userName eq "MIGRATED.user"')).toEqual(['u1']);
    expect(await ids(users, 'externalId eq "ext-1"')).toEqual(['u1']);
    expect(await ids(users, 'name.familyName co "🎉"')).toEqual(['u1']);
    expect(await ids(users, 'emails[type eq "work" and value sw "b@"]')).toEqual(['u1']);
    expect(await ids(users, 'title pr')).toEqual(['u1']);
    expect(await ids(users, undefined, { attr: 'emails', order: 'ascending' })).toEqual(['u2', 'u1']);
    expect(await ids(users, undefined, { attr: 'userName', order: 'descending' })).toEqual(['u2', 'u1']);
    expect(await ids(groups, 'members.value eq "u2"')).toEqual(['g1']);
    expect(await ids(groups, 'members[display co "Migrated"]')).toEqual(['g1']);
  });

  it('writes after the upgrade: replace, and a delete that removes the member from its group', async () => {
    const next = { ...migrated, title: 'written as jsonb', meta: { ...migrated.meta, version: 'W/"2"' } };
    expect(await store.replace('User', 'u1', next, 'W/"1"', { unique: [{ path: 'userName', caseExact: false }] })).toEqual({ ok: true, resource: next });
    expect(await store.get('User', 'u1')).toEqual(next);
    const touched = { ...meta('Group'), version: 'W/"2"' };
    const deleted = await store.delete('User', 'u2', undefined, { references: [{ resourceType: 'Group', attribute: 'members' }], touch: () => touched });
    expect(deleted.ok && deleted.cascaded?.map((c) => c.after['members'])).toEqual([members.slice(0, 1)]);
    expect((await store.get('Group', 'g1'))?.meta).toEqual(touched);
  });
});
