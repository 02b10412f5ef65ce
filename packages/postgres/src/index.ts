/**
 * @scimkit/postgres: a durable {@link ScimStore} in PostgreSQL, shared by many stateless scimkit
 * instances, with filters, sorting and paging pushed down to SQL. Runs on a PostgreSQL server
 * through `pg` ({@link fromPgPool}) or embedded through PGlite ({@link fromPGlite}).
 *
 * ```ts
 * const client = fromPgPool(new Pool({ connectionString: process.env.DATABASE_URL }));
 * await migrate(client);
 * const store = createPostgresStore({ client });
 * ```
 *
 * @module @scimkit/postgres
 */
export { createPostgresStore } from './postgres-store.js';
export type { PostgresStoreOptions } from './postgres-store.js';
export { createPostgresOutbox } from './outbox/postgres-outbox.js';
export { migrate } from './migrate.js';
export type { MigrateOptions, MigrateResult } from './migrate.js';
export { recountResources } from './recount-resources.js';
export type { RecountOptions } from './recount-resources.js';
export { fromPgPool } from './from-pg-pool.js';
export type { PgPoolLike, PgPoolClientLike, PgPoolClientOptions, PgQueryConfig } from './from-pg-pool.js';
export { fromPGlite } from './from-pglite.js';
export type { PGliteLike } from './from-pglite.js';
export { openPostgresStore } from './open-postgres-store.js';
export type { OpenedStore, OpenStoreOptions } from './open-postgres-store.js';
export { postgresOptionsFromEnv } from './postgres-options-from-env.js';
export type { SqlClient, SqlQueryable, SqlResult } from './sql-client.js';
export { checkReadiness } from './check-readiness.js';
export type { Readiness, ReadinessOptions } from './check-readiness.js';
export { classifyError } from './classify-error.js';
export { waitForDatabase } from './wait-for-database.js';
export type { StartupOptions } from './wait-for-database.js';
