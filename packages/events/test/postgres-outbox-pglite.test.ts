import { PGlite } from '@electric-sql/pglite';
import { createPostgresStore, fromPGlite, migrate } from '@scimkit/postgres';
import { describe, expect, it } from 'vitest';
import { noEventWithoutCommit, twoInstances } from './outbox-scenarios.js';

async function pglite() {
  const client = fromPGlite(await PGlite.create());
  await migrate(client);
  return client;
}

describe('the PostgreSQL outbox on PGlite', () => {
  it('two instances on one database, 500 writes spread over both (1,000 on the PostgreSQL server suite): every event delivered once, in order per resource', async () => {
    const client = await pglite();
    const result = await twoInstances([createPostgresStore({ client }), createPostgresStore({ client })], 50, 9, 30_000);
    expect(result).toEqual({ events: 500, duplicates: 0 });
  }, 60_000);

  it('a refused write, a failed compare-and-swap and a rolled-back transaction write no event', async () => {
    await noEventWithoutCommit(createPostgresStore({ client: await pglite() }));
  }, 30_000);
});
