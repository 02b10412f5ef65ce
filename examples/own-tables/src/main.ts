import { createAppSchema } from './app-schema.js';
import { createOwnTablesApp } from './create-app.js';
import { openDatabase } from './open-database.js';
import { waitForDatabase } from './wait-for-database.js';

/**
 * `npm run start:own-tables`: SCIM at http://$HOST:$PORT/scim/v2 (defaults 127.0.0.1:8080) over the
 * app's own users, teams and team_members. SCIMKIT_STORE picks the database (SQLite in memory by
 * default; `sqlite:<file>`, `postgres://…`, `mysql://…`); the tables are created when absent.
 * SCIM_TOKEN, when set, is the bearer token every request needs. GET /livez and /readyz are the
 * probes of docs/operations/database-failures.md.
 */
const host = process.env['HOST'] ?? '127.0.0.1';
const port = Number(process.env['PORT'] ?? 8080);
const token = process.env['SCIM_TOKEN'];
if (token === undefined || token === '') console.warn('WARNING: SCIM_TOKEN is not set: this SCIM server is OPEN, anyone who can reach it can read and change every user and team.');

const connection = await openDatabase(process.env['SCIMKIT_STORE']);
// A database that is briefly unreachable at start-up is waited for (SCIMKIT_SQL_STARTUP_TIMEOUT_MS, default 60 s).
await waitForDatabase(() => createAppSchema(connection.db, connection.dialect), Number(process.env['SCIMKIT_SQL_STARTUP_TIMEOUT_MS'] || 60_000));
const app = createOwnTablesApp({
  connection,
  ...(token === undefined || token === '' ? {} : { token }),
  logger: { log: ({ level, message, ...fields }) => (level === 'warn' || level === 'error' ? console.error(`scimkit: ${message}`, fields) : undefined) },
});
const server = app.listen(port, host, () => {
  const address = server.address();
  const shown = typeof address === 'object' && address !== null ? address.port : port;
  console.log(`SCIM over your own tables (${connection.description}) listening at http://${host.includes(':') ? `[${host}]` : host}:${shown}/scim/v2`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => void connection.db.destroy().finally(() => process.exit(0))));
