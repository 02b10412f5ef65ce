/*
 * The writer of the kill -9 test (outbox-scenarios.ts killedAfterAcknowledge): opens the database
 * named by argv[2] (`sqlite:<file>`, `postgres://…`, `mysql://…`), writes one user through SCIM with
 * events on, prints `acknowledged <id>` once the write is answered, and waits to be killed.
 */
import Database from 'better-sqlite3';
import { createPool } from 'mysql2';
import pg from 'pg';
import { createScimServer, groupResourceType, URN, userResourceType } from '@scimkit/core';
import { fromBetterSqlite3, fromMysqlPool, fromPgPool, type SqlConnection } from '../src/index.js';
import { eventStore } from './outbox-store.js';

const target = process.argv[2] ?? '';
const connection: SqlConnection = target.startsWith('sqlite:')
  ? fromBetterSqlite3(new Database(target.slice('sqlite:'.length)))
  : target.startsWith('mysql:')
    ? fromMysqlPool(createPool({ uri: target, connectionLimit: 2 }))
    : fromPgPool(new pg.Pool({ connectionString: target, max: 2 }));
const store = await eventStore(connection);
const server = createScimServer({
  resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }] }, groupResourceType],
  store,
  events: {},
  logger: { log: () => undefined },
});
const created = await server.handle({ method: 'POST', path: '/Users', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [URN.user], userName: 'survivor@example.com' }) });
if (created.status !== 201) throw new Error(`the create answered ${created.status}: ${created.body}`);
process.stdout.write(`acknowledged ${JSON.parse(created.body ?? '{}').id}\n`);
setInterval(() => undefined, 60_000);
