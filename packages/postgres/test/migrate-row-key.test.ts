import { createScimServer, userResourceType, type ScimResource, type WriteContext } from '@scimkit/core';
import { createPostgresStore, migrate } from '@scimkit/postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { bootstrapStatements, MIGRATIONS } from '../src/migrations.js';
import { storeTables } from '../src/sql-names.js';
import { sharedClient } from './fresh-schema.js';

const SCHEMA = 'row_key_v5';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const t = storeTables(SCHEMA);
/** externalId made unique as well: its values stay in scim_unique_values. */
const CTX: WriteContext = { unique: [{ path: 'userName', caseExact: false }, { path: 'externalId', caseExact: true }] };

const user = (id: string, userName: string, externalId: string, version = 'W/"1"'): ScimResource => ({
  schemas: [USER],
  id,
  userName,
  externalId,
  meta: { resourceType: 'User', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version },
});

beforeAll(async () => {
  const client = await sharedClient();
  // Version 5, with rows as its store wrote them: each value a row of scim_unique_values.
  await client.transaction(async (tx) => {
    for (const statement of bootstrapStatements(t)) await tx.query(statement);
    for (const migration of MIGRATIONS.filter((m) => m.version <= 5)) {
      for (const statement of migration.statements(t)) await tx.query(statement);
      await tx.query(`INSERT INTO ${t.migrations} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
    }
  });
  for (const resource of [user('u1', 'Ann', 'ext-1'), user('u2', 'bob', 'ext-2')]) {
    await client.query(
      `INSERT INTO ${t.resources} (tenant, resource_type, id, version, created, last_modified, data) VALUES ('', 'User', $1, 'W/"1"', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', $2::jsonb)`,
      [resource.id, JSON.stringify(resource)],
    );
  }
  await client.query(
    `INSERT INTO ${t.uniqueValues} (tenant, resource_type, attribute, key, id) VALUES
      ('', 'User', 'userName', 's:ann', 'u1'), ('', 'User', 'externalId', 's:ext-1', 'u1'),
      ('', 'User', 'userName', 's:bob', 'u2'), ('', 'User', 'externalId', 's:ext-2', 'u2'),
      ('', 'User', 'userName', 's:gone', 'deleted-by-hand')`,
  );
  const migrated = await migrate(client, { schema: SCHEMA });
  expect(migrated.applied).toEqual(MIGRATIONS.filter((m) => m.version > 5).map((m) => m.version));
}, 120_000);

describe('migration 6: the userName key in the resource row', () => {
  it('moves every userName value into its row, drops those whose holder is gone, keeps the other values', async () => {
    const client = await sharedClient();
    const keys = await client.query<{ id: string; unique_key: string | null }>(`SELECT id, unique_key FROM ${t.resources} ORDER BY id`);
    expect(keys.rows).toEqual([
      { id: 'u1', unique_key: 's:ann' },
      { id: 'u2', unique_key: 's:bob' },
    ]);
    const values = await client.query<{ attribute: string; key: string; id: string }>(`SELECT attribute, key, id FROM ${t.uniqueValues} ORDER BY key`);
    expect(values.rows).toEqual([
      { attribute: 'externalId', key: 's:ext-1', id: 'u1' },
      { attribute: 'externalId', key: 's:ext-2', id: 'u2' },
    ]);
  });

  it('refuses a migrated userName in any case, frees the one whose holder was gone, and keeps the other values unique', async () => {
    const store = createPostgresStore({ client: await sharedClient(), schema: SCHEMA });
    expect(await store.create('User', user('u3', 'ANN', 'ext-3'), CTX)).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    expect(await store.create('User', user('u3', 'carl', 'ext-2'), CTX)).toEqual({ ok: false, reason: 'uniqueness', attribute: 'externalId' });
    expect((await store.create('User', user('u3', 'Gone', 'ext-3'), CTX)).ok).toBe(true);
    // A rename of a migrated user moves its key; its old value is free at once.
    expect((await store.replace('User', 'u2', user('u2', 'bobby', 'ext-2', 'W/"2"'), 'W/"1"', CTX)).ok).toBe(true);
    expect((await store.create('User', user('u4', 'Bob', 'ext-4'), CTX)).ok).toBe(true);
    expect(await store.replace('User', 'u1', user('u1', 'BOBBY', 'ext-1', 'W/"2"'), 'W/"1"', CTX)).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    expect((await store.get('User', 'u1'))?.userName).toBe('Ann');
  });

  it('serves a migrated user through the server: PATCH of displayName keeps its key, a second POST of its userName is 409', async () => {
    const client = await sharedClient();
    const server = createScimServer({ resourceTypes: [userResourceType], store: createPostgresStore({ client, schema: SCHEMA }), logger: { log: () => undefined } });
    const json = { 'content-type': 'application/scim+json' };
    const patched = await server.handle({
      method: 'PATCH',
      path: '/Users/u1',
      headers: json,
      body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'displayName', value: 'Ann A.' }] }),
    });
    expect(patched.status).toBe(200);
    expect((await client.query<{ unique_key: string }>(`SELECT unique_key FROM ${t.resources} WHERE id = 'u1'`)).rows).toEqual([{ unique_key: 's:ann' }]);
    const again = await server.handle({ method: 'POST', path: '/Users', headers: json, body: JSON.stringify({ schemas: [USER], userName: 'ann' }) });
    expect([again.status, JSON.parse(again.body ?? '{}').scimType]).toEqual([409, 'uniqueness']);
  });
});
