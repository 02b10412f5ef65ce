import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { createNodeHandler } from '@scimkit/node';
import { createPostgresStore, fromPGlite, migrate, type SqlClient } from '@scimkit/postgres';
import { beforeAll } from 'vitest';
import { createSeedService, GROUP_FIXTURES } from '../../examples/seed-service/src/index.js';
import { describeSeedService } from './seed-service.suite.js';

// The whole HTTP suite once more, over the PostgreSQL store: one PGlite for the file (it takes
// seconds to start), a fresh schema, with the group fixtures, for every test.
let client: SqlClient | undefined;
let schemas = 0;
beforeAll(async () => {
  client = fromPGlite(await PGlite.create());
}, 120_000);

describeSeedService('@scimkit/node with the PostgreSQL store (PGlite)', async (options) => {
  if (client === undefined) throw new Error('PGlite has not started');
  const schema = `http${++schemas}`;
  await migrate(client, { schema });
  const store = createPostgresStore({ client, schema });
  for (const fixture of GROUP_FIXTURES) await store.create('Group', fixture, { unique: [] });
  const server = createServer(createNodeHandler(createSeedService({ ...options, store }), { basePath: '/scim/v2' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/scim/v2`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
});
