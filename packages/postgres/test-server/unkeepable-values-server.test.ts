import { URN, type ScimResource } from '@scimkit/core';
import { createPostgresStore, fromPgPool, migrate, type SqlClient } from '@scimkit/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDatabase } from './server-database.js';

// U+0000 through `pg` on a PostgreSQL server (the PGlite tests cover the same on the embedded
// engine): the driver's error carries the SQLSTATE the store maps to `invalidValue`, and the
// transaction on the pooled connection rolls back, leaving the connection usable.
let pool: pg.Pool;
let client: SqlClient;
let drop: () => Promise<void>;
beforeAll(async () => {
  const database = await serverDatabase();
  drop = database.drop;
  pool = new pg.Pool({ connectionString: database.url, max: 2, statement_timeout: 10_000 });
  client = fromPgPool(pool);
  await migrate(client);
}, 60_000);
afterAll(async () => {
  await pool.end();
  await drop();
});

const meta = (version = 'W/"1"') => ({ resourceType: 'User', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version });
const user = (id: string, extra: Record<string, unknown>, version?: string): ScimResource =>
  ({ schemas: [URN.user], id, userName: id, ...extra, meta: meta(version) }) as ScimResource;
const USER = { unique: [{ path: 'userName', caseExact: false }] };

describe('U+0000 on a PostgreSQL server', () => {
  it('create and replace are invalidValue, nothing is written, and the pool goes on', async () => {
    const store = createPostgresStore({ client });
    const refused = { ok: false, reason: 'invalidValue', detail: expect.stringContaining('U+0000') };
    expect(await store.create('User', user('nul', { title: 'a\u0000b' }), USER)).toEqual(refused);
    expect(await store.get('User', 'nul')).toBeUndefined();
    const kept = user('kept', { title: 'kept', numbers: { tiny: 5e-324, huge: 1.7976931348623157e308, exponent: 1e21, fraction: 0.1 } });
    expect((await store.create('User', kept, USER)).ok).toBe(true);
    expect(await store.replace('User', 'kept', user('kept', { title: '\u0000' }, 'W/"2"'), 'W/"1"', USER)).toEqual(refused);
    expect(await store.get('User', 'kept')).toEqual(kept);
    expect(await store.get('User', 'a\u0000b')).toBeUndefined();
    // Both connections of the pool still work.
    await Promise.all([store.get('User', 'kept'), store.get('User', 'kept')]);
    expect(Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM scim_resources')).rows[0]?.n)).toBe(1);
  });
});
