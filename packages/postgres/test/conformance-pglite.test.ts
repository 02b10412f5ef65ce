import { describeStoreConformance } from '@scimkit/core/testing';
import { createPostgresStore } from '@scimkit/postgres';
import { beforeAll } from 'vitest';
import { freshSchema } from './fresh-schema.js';

// Starting PGlite takes seconds on a busy machine: once, before the kit's per-test hooks.
beforeAll(() => freshSchema(), 120_000);

describeStoreConformance('PostgreSQL store on PGlite', async () => createPostgresStore(await freshSchema()), { timeout: 30_000 });
