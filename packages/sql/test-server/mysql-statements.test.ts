import { randomUUID } from 'node:crypto';
import { createPool, type Pool } from 'mysql2';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createSqlStore, fromMysqlPool, type TableMapping } from '../src/index.js';
import { createAppSchema } from '../../../examples/own-tables/src/app-schema.js';
import { mapping } from '../../../examples/own-tables/src/mapping.js';

// On the MariaDB/MySQL server (SCIMKIT_MYSQL_URL): what a common request sends, read from the one
// connection's own status counters (a pool of one, so the store and the check share a session).
const admin = process.env['SCIMKIT_MYSQL_URL'];
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const meta = () => ({ resourceType: 'User', created: new Date().toISOString(), lastModified: new Date().toISOString(), version: 'W/"0"' });
const unique = [{ path: 'userName', caseExact: false }];

if (admin !== undefined && admin !== '') describe('@scimkit/sql on the MariaDB/MySQL server: statements', () => {
  const root = createPool({ uri: admin, connectionLimit: 1 });
  const run = (text: string) => new Promise<void>((resolve, reject) => root.query(text, (error) => (error ? reject(error) : resolve())));
  const names: string[] = [];
  const pools: Pool[] = [];
  afterAll(async () => {
    for (const pool of pools) await new Promise<void>((resolve) => pool.end(() => resolve()));
    for (const name of names) await run(`DROP DATABASE IF EXISTS ${name}`);
    await new Promise<void>((resolve) => root.end(() => resolve()));
  });

  /** The example's mapping, `userName` with a key column (docs/stores/own-tables.md: the comparison key MySQL has no NFC for). */
  const keyed: Record<string, TableMapping> = {
    ...mapping,
    User: { ...(mapping['User'] as TableMapping), attributes: { ...(mapping['User'] as TableMapping).attributes, userName: { column: 'email', key: 'email_key' } } },
  };

  const open = async (options: { preparedStatements?: number; key?: boolean } = {}) => {
    const { preparedStatements, key = true } = options;
    const name = `scimkit_sqlstmt_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await run(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
    names.push(name);
    const url = new URL(admin as string);
    url.pathname = `/${name}`;
    const pool = createPool({ uri: url.toString(), connectionLimit: 1, timezone: 'Z' });
    pools.push(pool);
    const connection = fromMysqlPool(pool, preparedStatements === undefined ? {} : { preparedStatements });
    await createAppSchema(connection.db, 'mysql');
    if (key) await sql.raw('ALTER TABLE users ADD COLUMN email_key VARCHAR(320) NULL, ADD UNIQUE INDEX users_email_key (email_key)').execute(connection.db);
    const status = async (): Promise<Record<string, number>> => {
      const rows = await new Promise<{ Variable_name: string; Value: string }[]>((resolve, reject) =>
        pool.query("SHOW SESSION STATUS WHERE Variable_name IN ('Com_begin', 'Com_commit', 'Com_stmt_prepare', 'Com_stmt_execute')", (error, result) => (error ? reject(error) : resolve(result as never))),
      );
      return Object.fromEntries(rows.map((r) => [r.Variable_name, Number(r.Value)]));
    };
    return { store: createSqlStore({ ...connection, mapping: key ? keyed : mapping, unmapped: 'ignore' }), status };
  };

  it('with a key column, a create and a replace are single statements, without a transaction; repeated shapes run prepared', async () => {
    const { store, status } = await open();
    const before = await status();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = randomUUID();
      const created = await store.create('User', { schemas: [USER], id, userName: `u${i}@example.com`, displayName: `U ${i}`, meta: meta() }, { unique });
      expect(created.ok).toBe(true);
      ids.push(id);
    }
    for (const id of ids) {
      const current = await store.get('User', id);
      const replaced = await store.replace('User', id, { ...(current as never), displayName: 'Renamed' }, current?.meta?.version as string, { unique });
      expect(replaced.ok && replaced.resource['displayName']).toBe('Renamed');
      // A stale version is still refused (the transaction path tells which).
      expect(await store.replace('User', id, { ...(current as never), displayName: 'Stale' }, current?.meta?.version as string, { unique })).toEqual({ ok: false, reason: 'versionMismatch' });
    }
    // A taken userName is refused (the one statement writes nothing, the transaction path tells why).
    expect(await store.create('User', { schemas: [USER], id: randomUUID(), userName: 'U0@EXAMPLE.COM', meta: meta() }, { unique })).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    const after = await status();
    // Only the refusals (four stale replaces, one taken userName) open a transaction.
    expect((after['Com_begin'] ?? 0) - (before['Com_begin'] ?? 0)).toBe(5);
    expect((after['Com_stmt_execute'] ?? 0) - (before['Com_stmt_execute'] ?? 0)).toBeGreaterThanOrEqual(12);
    // Each shape prepared once on the connection: far fewer prepares than executions.
    expect((after['Com_stmt_prepare'] ?? 0) - (before['Com_stmt_prepare'] ?? 0)).toBeLessThanOrEqual(8);
    expect((await store.get('User', ids[0] as string))?.['displayName']).toBe('Renamed');
  });

  it('preparedStatements: 0 sends every statement as text', async () => {
    const { store, status } = await open({ preparedStatements: 0 });
    const id = randomUUID();
    expect((await store.create('User', { schemas: [USER], id, userName: 'only@example.com', meta: meta() }, { unique })).ok).toBe(true);
    const before = await status();
    for (let i = 0; i < 3; i++) expect((await store.get('User', id))?.['userName']).toBe('only@example.com');
    const after = await status();
    expect((after['Com_stmt_execute'] ?? 0) - (before['Com_stmt_execute'] ?? 0)).toBe(0);
  });

  it('without a key column (a LOWER() scan, which would lock every row it reads in the write), a write stays a transaction', async () => {
    const { store, status } = await open({ key: false });
    const before = await status();
    const id = randomUUID();
    const created = await store.create('User', { schemas: [USER], id, userName: 'plain@example.com', meta: meta() }, { unique });
    expect(created.ok).toBe(true);
    const current = await store.get('User', id);
    const replaced = await store.replace('User', id, { ...(current as never), displayName: 'Renamed' }, current?.meta?.version as string, { unique });
    expect(replaced.ok && replaced.resource['displayName']).toBe('Renamed');
    expect(await store.create('User', { schemas: [USER], id: randomUUID(), userName: 'PLAIN@example.com', meta: meta() }, { unique })).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    const after = await status();
    expect((after['Com_begin'] ?? 0) - (before['Com_begin'] ?? 0)).toBe(3);
  });
});
