import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, createSchemaRegistry, groupResourceType, URN, userResourceType, type ScimLogRecord, type ScimResource } from '@scimkit/core';
import { compileFilter, parseFilter } from '@scimkit/core/engine';
import { createSqlStore, fromBetterSqlite3, type SqlStoreOptions, type TableMapping } from '../src/index.js';
import { describeKeyColumn } from './key-column.suite.js';

const registry = createSchemaRegistry({ resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }] }, groupResourceType] });
const userModel = registry.resourceType('User')!;
const meta = { resourceType: 'User', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' };
const user = (userName: string, extra: Record<string, unknown> = {}): ScimResource => ({ schemas: [URN.user], id: globalThis.crypto.randomUUID(), userName, ...extra, meta });
const USER = { unique: [{ path: 'userName', caseExact: false }] };

async function database(statements: string[]) {
  const connection = fromBetterSqlite3(new Database(':memory:'));
  for (const statement of statements) await sql.raw(statement).execute(connection.db);
  return connection;
}

function query(filter: string) {
  const parsed = parseFilter(filter);
  if (!parsed.ok) throw new Error(parsed.error.detail);
  const matches = compileFilter(parsed.value, userModel);
  if (!matches.ok) throw new Error(matches.error.detail);
  return { filter: parsed.value, semantics: { matches: matches.value, attribute: (path: Parameters<typeof userModel.facts>[0]) => userModel.facts(path) } };
}

const plain: TableMapping = {
  table: 'people',
  id: { column: 'id', type: 'text' },
  version: { column: 'version', kind: 'counter' },
  attributes: { userName: 'login', nickName: { column: 'nick', read: (v) => (typeof v === 'string' ? v.toLowerCase() : undefined), write: (v) => String(v).toUpperCase() } },
};
const peopleTable = 'CREATE TABLE people (id TEXT PRIMARY KEY, login TEXT NOT NULL UNIQUE, nick TEXT, version INTEGER NOT NULL, doc TEXT, tenant TEXT NOT NULL DEFAULT \'\')';

describe('@scimkit/sql features', () => {
  it('a filter it cannot translate is confirmed in batches, logged, and declined past maxScan', async () => {
    const connection = await database([peopleTable]);
    const logs: ScimLogRecord[] = [];
    const store = createSqlStore({ ...connection, mapping: { User: plain }, maxScan: 40, batchSize: 10, logger: { log: (r) => logs.push(r) } });
    for (let i = 0; i < 35; i++) expect((await store.create('User', user(`u${i}`, { nickName: i % 2 === 0 ? 'even' : 'odd' }), USER)).ok).toBe(true);
    const found = await store.query('User', query('nickName eq "EVEN"'));
    expect(found.totalResults).toBe(18);
    expect(found.declined).toBeUndefined();
    expect(logs.some((r) => /not pushed down/.test(r.message))).toBe(true);
    for (let i = 35; i < 45; i++) await store.create('User', user(`u${i}`, { nickName: 'odd' }), USER);
    const declined = await store.query('User', query('nickName eq "even"'));
    expect(declined.declined).toMatch(/nickName.*more than 40 User rows/);
    // Exact filters are not bounded: they run in SQL.
    expect((await store.query('User', query('userName sw "U1"'))).totalResults).toBe(11);
  });

  it('stops reading when the request\'s work budget is spent', async () => {
    const connection = await database([peopleTable]);
    const store = createSqlStore({ ...connection, mapping: { User: plain }, batchSize: 5 });
    for (let i = 0; i < 30; i++) await store.create('User', user(`u${i}`, { nickName: 'n' }), USER);
    let tested = 0;
    const base = query('nickName eq "n"');
    const result = await store.query('User', { ...base, semantics: { ...base.semantics, matches: (r) => (++tested, base.semantics.matches(r)), exhausted: () => tested >= 10 } });
    expect(tested).toBe(10);
    expect(result.resources).toEqual([]);
  });

  it('over HTTP: a declined filter is 400 invalidFilter naming the attribute', async () => {
    const connection = await database([peopleTable]);
    const store = createSqlStore({ ...connection, mapping: { User: plain }, maxScan: 5, batchSize: 5 });
    for (let i = 0; i < 12; i++) await store.create('User', user(`u${i}`), USER);
    const scim = createScimServer({ resourceTypes: [userResourceType], store });
    const response = await scim.handle({ method: 'GET', path: '/Users', query: { filter: 'nickName eq "x"' }, baseUrl: 'http://localhost/scim/v2' });
    expect(response.status).toBe(400);
    expect(JSON.parse(String(response.body))).toMatchObject({ scimType: 'invalidFilter', detail: expect.stringContaining('nickName') });
  });

  it('counter versions, text ids, converters; the unmapped policy rejects by default and reports under ignore', async () => {
    const connection = await database([peopleTable]);
    const strict = createSqlStore({ ...connection, mapping: { User: plain } });
    const refused = await strict.create('User', user('a', { title: 'Boss' }), USER);
    expect(refused).toMatchObject({ ok: false, reason: 'invalidValue', detail: expect.stringContaining("'title'") });
    const ignored: string[] = [];
    const lax = createSqlStore({ ...connection, mapping: { User: plain }, unmapped: 'ignore', onIgnored: (i) => ignored.push(i.path) });
    const created = await lax.create('User', user('a', { title: 'Boss', nickName: 'Nick' }), USER);
    expect(created.ok && created.resource).toMatchObject({ userName: 'a', nickName: 'nick', meta: { version: 'W/"1"' } });
    expect(ignored).toEqual(['title']);
    const row = await sql<{ nick: string }>`SELECT nick FROM people`.execute(connection.db);
    expect(row.rows[0]?.nick).toBe('NICK');
    if (!created.ok) return;
    const replaced = await lax.replace('User', created.resource.id, { ...created.resource, userName: 'b' }, 'W/"1"', USER);
    expect(replaced.ok && replaced.resource.meta.version).toBe('W/"2"');
  });

  it('a JSON column keeps what the mapping does not: the resource comes back whole', async () => {
    const connection = await database([peopleTable]);
    const store = createSqlStore({ ...connection, mapping: { User: { ...plain, attributes: { userName: 'login' }, json: 'doc' } } });
    const input = user('j', { title: 'Boss', name: { givenName: 'J', middleName: 'K' }, emails: [{ value: 'j@x.example', type: 'home', primary: true }], [URN.enterpriseUser]: { department: 'R&D' } });
    input.schemas = [URN.user, URN.enterpriseUser];
    const created = await store.create('User', input, USER);
    expect(created.ok).toBe(true);
    const read = await store.get('User', input.id);
    expect({ ...read, meta: undefined }).toEqual({ ...input, meta: undefined });
  });

  it('a tenant column keeps tenants apart; without one, the store is single-tenant and the server refuses tenancy', async () => {
    const connection = await database([peopleTable]);
    const tenanted = createSqlStore({ ...connection, mapping: { User: { ...plain, tenant: 'tenant', attributes: { userName: 'login' } } } });
    expect(tenanted.capabilities?.tenancy).toBe('multi');
    const a = user('same');
    expect((await tenanted.create('User', a, { ...USER, tenant: 'a' })).ok).toBe(true);
    expect(await tenanted.get('User', a.id, { tenant: 'b' })).toBeUndefined();
    expect(await tenanted.get('User', a.id)).toBeUndefined();
    expect((await tenanted.get('User', a.id, { tenant: 'a' }))?.userName).toBe('same');
    const single = createSqlStore({ ...connection, mapping: { User: plain } });
    expect(single.capabilities?.tenancy).toBe('single');
    await expect(single.get('User', a.id, { tenant: 'a' })).rejects.toThrow(/single-tenant/);
    expect(() => createScimServer({ resourceTypes: [userResourceType], store: single, tenancy: { path: '/tenants/{tenant}' } } as never)).toThrow(/single tenant/);
    expect(() => createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), tenancy: { path: '/tenants/{tenant}' } } as never)).not.toThrow();
  });

  it('database-generated ids are returned to the core (capabilities.ids store)', async () => {
    const connection = await database(['CREATE TABLE accounts (id INTEGER PRIMARY KEY AUTOINCREMENT, login TEXT NOT NULL UNIQUE, version INTEGER NOT NULL)']);
    const store = createSqlStore({ ...connection, mapping: { User: { table: 'accounts', id: { column: 'id', type: 'integer', generate: 'database' }, version: { column: 'version', kind: 'counter' }, attributes: { userName: 'login' } } } });
    expect(store.capabilities?.ids).toBe('store');
    const scim = createScimServer({ resourceTypes: [userResourceType], store });
    const created = await scim.handle({ method: 'POST', path: '/Users', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [URN.user], userName: 'gen' }), baseUrl: 'http://localhost/scim/v2' });
    expect(created.status).toBe(201);
    const body = JSON.parse(String(created.body));
    expect(body.id).toBe('1');
    expect(created.headers?.['Location'] ?? created.headers?.['location']).toBe('http://localhost/scim/v2/Users/1');
    expect((await scim.handle({ method: 'GET', path: '/Users/1', baseUrl: 'http://localhost/scim/v2' })).status).toBe(200);
    expect((await scim.handle({ method: 'GET', path: '/Users/x1', baseUrl: 'http://localhost/scim/v2' })).status).toBe(404);
  });

  it('membership rows SCIM does not own survive its PATCH, PUT and member removal', async () => {
    const connection = await database([
      'CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, updated_at TEXT)',
      'CREATE TABLE roles (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, updated_at TEXT)',
      "CREATE TABLE role_grants (role_id TEXT NOT NULL, user_id TEXT NOT NULL, source TEXT NOT NULL DEFAULT 'manual', PRIMARY KEY (role_id, user_id))",
    ]);
    const mapping: SqlStoreOptions['mapping'] = {
      User: { table: 'users', id: { column: 'id' }, version: { column: 'updated_at', kind: 'timestamp' }, attributes: { userName: 'email' } },
      Group: { table: 'roles', id: { column: 'id' }, version: { column: 'updated_at', kind: 'timestamp' }, attributes: { displayName: 'name' }, members: { table: 'role_grants', group: 'role_id', member: 'user_id', source: { column: 'source', value: 'scim' } } },
    };
    const store = createSqlStore({ ...connection, mapping });
    const [a, b] = [user('a@x'), user('b@x')];
    await store.create('User', a, USER);
    await store.create('User', b, USER);
    const role = { schemas: [URN.group], id: globalThis.crypto.randomUUID(), displayName: 'admins', meta: { ...meta, resourceType: 'Group' } };
    const created = await store.create('Group', role, { unique: [] });
    expect(created.ok).toBe(true);
    await sql`INSERT INTO role_grants (role_id, user_id) VALUES (${role.id}, ${a.id})`.execute(connection.db);
    const current = await store.get('Group', role.id);
    expect((current?.['members'] as { value: string }[]).map((m) => m.value)).toEqual([a.id]);
    // A PUT without the manual member, adding b; then a PATCH removing a.
    const put = await store.replace('Group', role.id, { ...current!, members: [{ value: b.id, type: 'User' }] }, current!.meta.version, { unique: [] });
    expect(put.ok).toBe(true);
    if (!put.ok) return;
    const patched = await store.replace('Group', role.id, put.resource, put.resource.meta.version, { unique: [], changes: [{ attribute: 'members', added: [], removed: [{ value: a.id, type: 'User' }] }] });
    expect(patched.ok).toBe(true);
    const rows = await sql<{ user_id: string; source: string }>`SELECT user_id, source FROM role_grants ORDER BY source`.execute(connection.db);
    expect(rows.rows).toEqual([
      { user_id: a.id, source: 'manual' },
      { user_id: b.id, source: 'scim' },
    ].sort((x, y) => x.source.localeCompare(y.source)));
  });

  it('referrers: the groups of a page of users in one statement, without their member lists', async () => {
    const connection = await database([
      'CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, updated_at TEXT)',
      'CREATE TABLE teams (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, updated_at TEXT)',
      'CREATE TABLE team_members (team_id TEXT NOT NULL, user_id TEXT NOT NULL, PRIMARY KEY (team_id, user_id))',
    ]);
    const store = createSqlStore({
      ...connection,
      mapping: {
        User: { table: 'users', id: { column: 'id' }, version: { column: 'updated_at', kind: 'timestamp' }, attributes: { userName: 'email' } },
        Group: { table: 'teams', id: { column: 'id' }, version: { column: 'updated_at', kind: 'timestamp' }, attributes: { displayName: 'name' }, members: { table: 'team_members', group: 'team_id', member: 'user_id' } },
      },
    }) as ReturnType<typeof createSqlStore> & { referrers: (lookup: { resourceType: string; attribute: string; caseExact: boolean }, resources: readonly ScimResource[]) => Promise<readonly { id: string; referrer: ScimResource }[]> };
    const [a, b, c] = [user('a@x'), user('b@x'), user('c@x')];
    for (const u of [a, b, c]) await store.create('User', u, USER);
    const group = (name: string, members: ScimResource[]) => ({ schemas: [URN.group], id: globalThis.crypto.randomUUID(), displayName: name, members: members.map((m) => ({ value: m.id, type: 'User' })), meta: { ...meta, resourceType: 'Group' } });
    const ops = group('ops', [a, b]);
    const dev = group('dev', [b]);
    await store.create('Group', ops, { unique: [] });
    await store.create('Group', dev, { unique: [] });
    const found = await store.referrers({ resourceType: 'Group', attribute: 'members', caseExact: false }, [a, b, c]);
    const pairs = found.map((f) => `${f.id === a.id ? 'a' : f.id === b.id ? 'b' : 'c'}:${f.referrer['displayName']}`).sort();
    expect(pairs).toEqual(['a:ops', 'b:dev', 'b:ops']);
    expect(found.every((f) => f.referrer['members'] === undefined)).toBe(true);
  });
});

// SQLite without the store's functions has no NFC in SQL, like MySQL/MariaDB (where .ci/run runs the same suite).
describeKeyColumn('SQLite without NFC functions', async () => fromBetterSqlite3(new Database(':memory:')), { sqliteFunctions: false });
