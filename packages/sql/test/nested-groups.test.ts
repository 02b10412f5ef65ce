import { PGlite } from '@electric-sql/pglite';
import Database from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createScimServer, createSchemaRegistry, groupResourceType, URN, userResourceType } from '@scimkit/core';
import { createSqlStore, fromBetterSqlite3, fromPGlite, mappedSchemas, type SqlConnection, type TableMapping } from '../src/index.js';

const resourceTypes = [userResourceType, groupResourceType];
const registry = createSchemaRegistry({ resourceTypes });
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** Teams hold users and teams: one join table whose `kind` column says which. */
const nested: Record<string, TableMapping> = {
  User: { table: 'users', id: { column: 'id' }, version: { column: 'version', kind: 'counter' }, attributes: { userName: 'email', displayName: 'display_name' } },
  Group: {
    table: 'teams',
    id: { column: 'id' },
    version: { column: 'version', kind: 'counter' },
    attributes: { displayName: 'name' },
    members: { table: 'team_members', group: 'team_id', member: 'member_id', typeColumn: { column: 'kind', values: { User: 'user', Group: 'team' } } },
  },
};
const flat: Record<string, TableMapping> = { ...nested, Group: { ...nested['Group']!, members: { table: 'team_members', group: 'team_id', member: 'member_id' } } };

async function tables(db: Kysely<any>): Promise<void> {
  for (const statement of [
    'CREATE TABLE users (id VARCHAR(36) PRIMARY KEY, email VARCHAR(200) NOT NULL UNIQUE, display_name VARCHAR(200), version INTEGER NOT NULL)',
    'CREATE TABLE teams (id VARCHAR(36) PRIMARY KEY, name VARCHAR(200) NOT NULL UNIQUE, version INTEGER NOT NULL)',
    "CREATE TABLE team_members (team_id VARCHAR(36) NOT NULL, member_id VARCHAR(36) NOT NULL, kind VARCHAR(10) NOT NULL DEFAULT 'user', PRIMARY KEY (team_id, member_id))",
  ]) {
    await sql.raw(statement).execute(db);
  }
}

function serve(connection: SqlConnection, mapping: Record<string, TableMapping>, schemas = true) {
  const scim = createScimServer({ resourceTypes, store: createSqlStore({ ...connection, mapping }), ...(schemas ? { schemas: mappedSchemas(registry, mapping) } : {}) });
  return async (method: string, path: string, body?: unknown) => {
    const [p, q] = path.split('?');
    const response = await scim.handle({ method, path: p ?? '', query: Object.fromEntries(new URLSearchParams(q ?? '')), headers: { 'content-type': 'application/scim+json' }, body: body === undefined ? undefined : JSON.stringify(body), baseUrl: 'http://localhost/scim/v2' });
    return { status: response.status, body: response.body === undefined || response.body === '' ? undefined : JSON.parse(String(response.body)) };
  };
}

/** `/Schemas`' `members.$ref` referenceTypes: the member types the server accepts. */
async function memberReferenceTypes(call: ReturnType<typeof serve>): Promise<unknown> {
  const schema = await call('GET', `/Schemas/${URN.group}`);
  const members = schema.body.attributes.find((a: { name: string }) => a.name === 'members');
  return members.subAttributes.find((s: { name: string }) => s.name === '$ref').referenceTypes;
}

let pglite: PGlite | undefined;
let schemaCount = 0;
const databases: [string, () => Promise<SqlConnection>][] = [
  ['SQLite', async () => fromBetterSqlite3(new Database(':memory:'))],
  [
    'PostgreSQL (PGlite)',
    async () => {
      pglite ??= new PGlite();
      const schema = `nested_${++schemaCount}`;
      await pglite.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
      return fromPGlite(pglite);
    },
  ],
];

describe.each(databases)('nested groups on %s', (_name, open) => {
  const served = async (mapping: Record<string, TableMapping>) => {
    const connection = await open();
    await tables(connection.db);
    return { connection, call: serve(connection, mapping) };
  };
  it('with a member-type column, a team holds users and teams: rows, reads, User.groups, filters and deletes', async () => {
    const { connection, call } = await served(nested);
    expect(await memberReferenceTypes(call)).toEqual(['User', 'Group']);
    const ann = (await call('POST', '/Users', { schemas: [URN.user], userName: 'ann@example.com', displayName: 'Ann' })).body;
    const inner = await call('POST', '/Groups', { schemas: [URN.group], displayName: 'Inner', members: [{ value: ann.id }] });
    expect(inner.status).toBe(201);
    const outer = await call('POST', '/Groups', { schemas: [URN.group], displayName: 'Outer', members: [{ value: inner.body.id }] });
    expect(outer.status, JSON.stringify(outer.body)).toBe(201);
    expect(outer.body.members).toEqual([expect.objectContaining({ value: inner.body.id, type: 'Group', display: 'Inner' })]);
    const rows = await sql<{ member_id: string; kind: string }>`SELECT member_id, kind FROM team_members ORDER BY kind`.execute(connection.db);
    expect(rows.rows).toEqual([{ member_id: inner.body.id, kind: 'team' }, { member_id: ann.id, kind: 'user' }]);
    // User.groups: direct and through the nesting.
    const groups = (await call('GET', `/Users/${ann.id}`)).body.groups as { value: string; type: string }[];
    expect(groups.map((g) => `${g.value === inner.body.id ? 'Inner' : 'Outer'}:${g.type}`).sort()).toEqual(['Inner:direct', 'Outer:indirect']);
    expect((await call('GET', `/Groups?filter=${encodeURIComponent(`members.value eq "${inner.body.id}"`)}`)).body.Resources.map((g: { id: string }) => g.id)).toEqual([outer.body.id]);
    // PATCH adds a user beside the team; a cycle is refused by the core.
    const bob = (await call('POST', '/Users', { schemas: [URN.user], userName: 'bob@example.com' })).body;
    expect((await call('PATCH', `/Groups/${outer.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: bob.id }] }] })).status).toBe(200);
    const cycle = await call('PATCH', `/Groups/${inner.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: outer.body.id, type: 'Group' }] }] });
    expect(cycle.status).toBe(400);
    // Deleting the inner team takes its row out of the outer one, whose version moves.
    const before = (await call('GET', `/Groups/${outer.body.id}`)).body.meta.version;
    expect((await call('DELETE', `/Groups/${inner.body.id}`)).status).toBe(204);
    const after = (await call('GET', `/Groups/${outer.body.id}`)).body;
    expect(after.members.map((m: { value: string; type: string }) => `${m.value}:${m.type}`)).toEqual([`${bob.id}:User`]);
    expect(after.meta.version).not.toBe(before);
  });

  it('a PATCH adding and removing members answers what a GET then reads; a stale version writes no member row', async () => {
    const { connection, call } = await served(nested);
    const ids: string[] = [];
    for (const n of ['p1', 'p2', 'p3']) ids.push((await call('POST', '/Users', { schemas: [URN.user], userName: `${n}@example.com`, ...(n === 'p3' ? {} : { displayName: n.toUpperCase() }) })).body.id);
    const inner = (await call('POST', '/Groups', { schemas: [URN.group], displayName: 'Inner' })).body;
    const team = (await call('POST', '/Groups', { schemas: [URN.group], displayName: 'Team', members: [{ value: ids[0] }] })).body;
    const patched = await call('PATCH', `/Groups/${team.id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'add', path: 'members', value: [{ value: ids[1] }, { value: ids[2] }, { value: inner.id }] },
        { op: 'remove', path: `members[value eq "${ids[0]}"]` },
      ],
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const read = await call('GET', `/Groups/${team.id}`);
    expect(patched.body).toEqual(read.body);
    expect(read.body.members.map((m: { value: string; type: string; display?: string }) => `${m.type}:${m.display ?? '-'}`).sort()).toEqual(['Group:Inner', 'User:-', 'User:P2']);
    const stale = await call('PATCH', `/Groups/${team.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: ids[0] }] }] });
    expect(stale.status).toBe(200);
    const store = createSqlStore({ ...connection, mapping: nested });
    const current = (await store.get('Group', team.id))!;
    const refused = await store.replace('Group', team.id, current, 'W/"1"', { unique: [], changes: [{ attribute: 'members', added: [{ value: ids[1] }], removed: [{ value: ids[0] }] }] });
    expect(refused).toEqual({ ok: false, reason: 'versionMismatch' });
    expect((await store.get('Group', team.id))?.['members']).toEqual(current['members']);
  });

  it('without one, a Group member is a clear 400 and nothing is written: from the served schema, and from the store itself', async () => {
    const { connection, call } = await served(flat);
    expect(await memberReferenceTypes(call)).toEqual(['User']);
    const team = (await call('POST', '/Groups', { schemas: [URN.group], displayName: 'Team' })).body;
    for (const element of [{ value: team.id, type: 'Group' }, { value: team.id }]) {
      const refused = await call('POST', '/Groups', { schemas: [URN.group], displayName: 'Outer', members: [element] });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ scimType: 'invalidValue', detail: expect.stringContaining(team.id) });
    }
    // A server serving the full Group schema over the same store: the store refuses, whatever its unmapped policy.
    const full = serve(connection, flat, false);
    const refused = await full('POST', '/Groups', { schemas: [URN.group], displayName: 'Outer', members: [{ value: team.id, type: 'Group' }] });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/not Group members.*no nested-group mapping/);
    const rows = await sql<{ n: unknown }>`SELECT count(*) AS n FROM team_members`.execute(connection.db);
    expect(Number(rows.rows[0]?.n)).toBe(0);
    expect((await sql<{ n: unknown }>`SELECT count(*) AS n FROM teams`.execute(connection.db)).rows[0]?.n).toEqual(1);
  });
});
