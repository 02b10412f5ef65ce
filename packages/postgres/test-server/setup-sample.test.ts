import { createScimServer, groupResourceType, userResourceType } from '@scimkit/core';
import { createPostgresStore, fromPgPool, migrate } from '@scimkit/postgres';
import pg from 'pg';
import { expect, it } from 'vitest';
import { serverDatabase } from './server-database.js';

// The server set-up of docs/stores/postgres.md, as quoted there, against a database of its own.
it('the pg Pool set-up of the docs serves SCIM from PostgreSQL', async () => {
  const database = await serverDatabase();
  process.env.DATABASE_URL = database.url;
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10, statement_timeout: 10_000 });
  const client = fromPgPool(pool);
  await migrate(client); // or once per deploy: DATABASE_URL=postgres://… npx scimkit-postgres migrate
  const scim = createScimServer({ resourceTypes: [userResourceType, groupResourceType], store: createPostgresStore({ client }) });
  try {
    const created = await scim.handle({
      method: 'POST',
      path: '/Users',
      headers: { 'content-type': 'application/scim+json' },
      body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'docs' }),
    });
    expect(created.status).toBe(201);
    const found = await pool.query(`SELECT data->>'userName' AS user_name FROM scim_resources WHERE resource_type = 'User'`);
    expect(found.rows).toEqual([{ user_name: 'docs' }]);
  } finally {
    delete process.env.DATABASE_URL;
    await pool.end();
    await database.drop();
  }
}, 60_000);
