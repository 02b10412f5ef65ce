import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPostgresStore, fromPGlite, migrate } from '@scimkit/postgres';
import { URN } from '@scimkit/core';
import { expect, it } from 'vitest';

// The embedded set-up of docs/stores/postgres.md, as quoted there.
it('the PGlite set-up of the docs stores in a directory', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'scimkit-docs-'));
  try {
    const client = fromPGlite(await PGlite.create(directory)); // a directory such as './data'
    await migrate(client);
    const store = createPostgresStore({ client });
    const meta = { resourceType: 'User', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' };
    expect((await store.create('User', { schemas: [URN.user], id: 'x', userName: 'x', meta }, { unique: [] })).ok).toBe(true);
    expect((await store.get('User', 'x'))?.userName).toBe('x');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}, 120_000);
