import { PGlite } from '@electric-sql/pglite';
import { createPostgresStore, fromPGlite, migrate, type SqlClient } from '@scimkit/postgres';
import { describe, expect, it } from 'vitest';
import { noEventFromTheStore, noEventWithoutCommit, retentionAndBound, twoInstances } from './outbox-scenarios.js';

// One PGlite for the file (starting one takes seconds), a schema of its own per test.
let database: Promise<SqlClient> | undefined;
let schemas = 0;
async function store() {
  database ??= PGlite.create().then((db) => fromPGlite(db));
  const client = await database;
  const schema = `outbox${++schemas}`;
  await migrate(client, { schema });
  return { client, schema };
}

describe('the PostgreSQL outbox on PGlite', () => {
  it('two instances on one database, 500 writes spread over both (1,000 on the PostgreSQL server suite): every event delivered once, in order per resource', async () => {
    const { client, schema } = await store();
    const result = await twoInstances([createPostgresStore({ client, schema }), createPostgresStore({ client, schema })], 50, 9, 30_000);
    expect(result).toEqual({ events: 500, duplicates: 0 });
  }, 60_000);

  it('a refused write, a failed compare-and-swap and a rolled-back transaction write no event', async () => {
    await noEventWithoutCommit(createPostgresStore(await store()));
  }, 30_000);

  it("the store's own compare-and-swap, and a transaction failing after the write, write no event", async () => {
    await noEventFromTheStore(createPostgresStore(await store()));
  }, 30_000);

  it('prunes what every consumer passed after the retention, and drops the oldest past the bound', async () => {
    await retentionAndBound(createPostgresStore(await store()));
  }, 30_000);
});
