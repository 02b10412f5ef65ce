import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createScimServer, userResourceType } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { createSqliteStore } from './sqlite-store.js';
import { openDatabase } from './open-database.js';
import { databaseSaver } from './save-database.js';

/**
 * `npm start -w @scimkit/example-sqlite-store`: users in a SQLite file ($SCIM_DB_FILE, default
 * ./scim.sqlite), served at http://$HOST:$PORT/scim/v2. After every change the whole database is
 * written to a temporary file, flushed and renamed over the file before the client gets its answer:
 * a crash leaves the last saved state, never a torn file. A demo, not for large data (see README).
 */
const host = process.env['HOST'] ?? '127.0.0.1';
const port = Number(process.env['PORT'] ?? 8080);
const file = process.env['SCIM_DB_FILE'] ?? 'scim.sqlite';

const db = await openDatabase(existsSync(file) ? readFileSync(file) : undefined);
const scim = createScimServer({
  resourceTypes: [userResourceType],
  store: createSqliteStore(db),
  onChange: databaseSaver(file, () => db.export()),
});

const server = createServer(createNodeHandler(scim, { basePath: '/scim/v2' }));
server.listen(port, host, () => console.log(`SCIM service (SQLite: ${file}) listening at http://${host}:${port}/scim/v2`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
