import { PGlite } from '@electric-sql/pglite';
import { createNodeHandler } from '@scimkit/node';
import type { ScimResource, ScimServer } from '@scimkit/core';
import { createPostgresStore, fromPGlite, migrate, type SqlClient } from '@scimkit/postgres';
import { beforeAll } from 'vitest';
import { createSeedService, GROUP_FIXTURES } from '../../examples/seed-service/src/index.js';
import { describeGroups } from './groups.suite.js';
import { describeSeedService } from './seed-service.suite.js';
import type { StartedService } from './support/service-under-test.js';
import { serveAtScimV2 } from './support/serve-at-scim-v2.js';

// The whole HTTP suite and the Groups suite once more, over the PostgreSQL store: one PGlite for
// the file (it takes seconds to start), a fresh schema for every test.
let client: SqlClient | undefined;
let schemas = 0;
beforeAll(async () => {
  client = fromPGlite(await PGlite.create());
}, 120_000);

/** A fresh schema holding `initial`, written through the store. */
async function freshStore(initial: Readonly<Record<string, readonly ScimResource[]>> = {}) {
  if (client === undefined) throw new Error('PGlite has not started');
  const schema = `http${++schemas}`;
  await migrate(client, { schema });
  const store = createPostgresStore({ client, schema });
  for (const [resourceType, resources] of Object.entries(initial)) {
    for (const resource of resources) {
      const created = await store.create(resourceType, resource, { unique: [] });
      if (!created.ok) throw new Error(`cannot load ${resourceType} ${resource.id}`);
    }
  }
  return store;
}

describeSeedService('@scimkit/node with the PostgreSQL store (PGlite)', async (options) => {
  const store = await freshStore({ Group: GROUP_FIXTURES });
  return serve(createSeedService({ ...options, store }));
});

describeGroups('@scimkit/node with the PostgreSQL store (PGlite)', serve, freshStore);

function serve(scim: ScimServer): Promise<StartedService> {
  return serveAtScimV2(createNodeHandler(scim, { basePath: '/scim/v2' }));
}
