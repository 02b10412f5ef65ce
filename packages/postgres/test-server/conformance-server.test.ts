import { describeStoreConformance } from '@scimkit/core/testing';
import { createPostgresStore, fromPgPool, migrate, type SqlClient } from '@scimkit/postgres';
import pg from 'pg';
import { afterAll } from 'vitest';
import { faultyPgPool, StepFaults } from '../test/faulty-backend.js';
import { serverDatabase } from './server-database.js';

// The store conformance kit on the PostgreSQL server: a database for the file (created on first use:
// the kit calls the factory while collecting tests), a schema per test.
let opened: Promise<{ pool: pg.Pool; client: SqlClient; drop: () => Promise<void> }> | undefined;
let schemas = 0;

function database() {
  opened ??= serverDatabase().then(({ url, drop }) => {
    const pool = new pg.Pool({ connectionString: url, max: 8, statement_timeout: 10_000 });
    return { pool, client: fromPgPool(pool), drop };
  });
  return opened;
}

afterAll(async () => {
  if (opened === undefined) return;
  const { pool, drop } = await opened;
  await pool.end();
  await drop();
});

describeStoreConformance(
  'PostgreSQL store on a PostgreSQL server',
  async () => {
    const { client } = await database();
    const schema = `s${++schemas}`;
    await migrate(client, { schema });
    return createPostgresStore({ client, schema });
  },
  {
    // Each statement of a write (BEGIN and COMMIT included) failing in turn as a terminated connection.
    faults: async () => {
      const { pool } = await database();
      const faults = new StepFaults();
      const client = fromPgPool(faultyPgPool(pool, faults));
      const schema = `s${++schemas}`;
      await migrate(client, { schema });
      return { store: createPostgresStore({ client, schema }), failAt: (step) => faults.failAt(step), heal: () => faults.heal() };
    },
  },
);
