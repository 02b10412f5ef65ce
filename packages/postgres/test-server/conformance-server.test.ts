import { describeStoreConformance } from '@scimkit/core/testing';
import { createPostgresStore, fromPgPool, migrate, type SqlClient } from '@scimkit/postgres';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { serverDatabase } from './server-database.js';

// The store conformance kit on the PostgreSQL server: a database for the file, a schema per test.
let pool: pg.Pool | undefined;
let client: SqlClient | undefined;
let drop: (() => Promise<void>) | undefined;
let schemas = 0;

beforeAll(async () => {
  const database = await serverDatabase();
  drop = database.drop;
  pool = new pg.Pool({ connectionString: database.url, max: 8, statement_timeout: 10_000 });
  client = fromPgPool(pool);
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await drop?.();
});

describeStoreConformance('PostgreSQL store on a PostgreSQL server', async () => {
  if (client === undefined) throw new Error('no database');
  const schema = `s${++schemas}`;
  await migrate(client, { schema });
  return createPostgresStore({ client, schema });
});
