import { PGlite } from '@electric-sql/pglite';
import { isStoreUnavailable } from '@scimkit/core';
import { checkReadiness, createPostgresStore, fromPGlite, migrate, openPostgresStore } from '@scimkit/postgres';
import { describe, expect, it } from 'vitest';

describe('readiness (checkReadiness, OpenedStore.ready)', () => {
  it('is ready once migrated, not before, and says why', async () => {
    const db = await PGlite.create();
    const client = fromPGlite(db);
    expect(await checkReadiness(client, { schema: 'fresh' })).toEqual({ ready: false, reason: 'migrations', detail: 'the store schema is not created: run migrate()' });
    await migrate(client, { schema: 'fresh' });
    const latest = (await migrate(client, { schema: 'fresh' })).version;
    expect(await checkReadiness(client, { schema: 'fresh' })).toEqual({ ready: true, version: latest });
    await client.query('DELETE FROM fresh.scim_migrations WHERE version = $1', [latest]);
    expect(await checkReadiness(client, { schema: 'fresh' })).toEqual({
      ready: false,
      reason: 'migrations',
      detail: `the store schema is at version ${latest - 1}, this package needs ${latest}: run migrate()`,
    });

    // A closed instance: not ready, never a throw; and the store answers it as unavailable (503).
    const store = createPostgresStore({ client, schema: 'fresh' });
    await db.close();
    expect(await checkReadiness(client, { schema: 'fresh' })).toMatchObject({ ready: false, reason: 'unreachable' });
    expect(isStoreUnavailable(await store.get('User', 'x').catch((error: unknown) => error))).toBe(true);
  }, 60_000);

  it('openPostgresStore returns ready()', async () => {
    const opened = await openPostgresStore('pglite:memory');
    expect(await opened.ready()).toMatchObject({ ready: true });
    await opened.close();
  }, 60_000);
});
