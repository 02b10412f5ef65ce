import { createPostgresStore, fromPgPool, migrate } from '@scimkit/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDatabase } from '../../postgres/test-server/server-database.js';
import { noEventFromTheStore, noEventWithoutCommit, retentionAndBound, twoInstances } from '../test/outbox-scenarios.js';

let database: { url: string; drop: () => Promise<void> };
const pools: pg.Pool[] = [];

beforeAll(async () => {
  database = await serverDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  pool.on('error', () => undefined);
  pools.push(pool);
  await migrate(fromPgPool(pool));
});
afterAll(async () => {
  for (const pool of pools) await pool.end();
  await database.drop();
});

/** A store over a pool of its own: one instance. */
function instance(schema = 'public') {
  const pool = new pg.Pool({ connectionString: database.url, max: 6 });
  pool.on('error', () => undefined);
  pools.push(pool);
  return createPostgresStore({ client: fromPgPool(pool), schema });
}

describe('the PostgreSQL outbox on a PostgreSQL server', () => {
  it('two instances (two pools) on one database, 1,000 writes spread over both: every event delivered once, in order per resource', async () => {
    expect(await twoInstances([instance(), instance()], 100, 9, 30_000)).toEqual({ events: 1000, duplicates: 0 });
  }, 60_000);

  it('a refused write, a failed compare-and-swap and a rolled-back transaction write no event', async () => {
    const store = instance('no_event');
    await migrate(fromPgPool(pools[0]!), { schema: 'no_event' });
    await noEventWithoutCommit(store);
  });

  it("the store's own compare-and-swap, a transaction failing after the write: no event; retention and the bound", async () => {
    await migrate(fromPgPool(pools[0]!), { schema: 'from_store' });
    await noEventFromTheStore(instance('from_store'));
    await migrate(fromPgPool(pools[0]!), { schema: 'retained' });
    await retentionAndBound(instance('retained'));
  });
});
