/**
 * @scimkit/sql: a {@link ScimStore} over the application's own tables (users, groups, a membership
 * join table) on Kysely, for PostgreSQL, MySQL/MariaDB and SQLite with one mapping
 * (docs/stores/own-tables.md).
 *
 * ```ts
 * const store = createSqlStore({ ...fromBetterSqlite3(new Database('app.db')), mapping: { User: {...}, Group: {...} } });
 * ```
 *
 * @module @scimkit/sql
 */
export { createSqlStore } from './sql-store.js';
export type { SqlStoreOptions } from './sql-store.js';
export type { TableMapping, IdMapping, ColumnMapping, MembersMapping, UnmappedPolicy, IgnoredAttribute } from './mapping.js';
export { mappedSchemas } from './schema-subset.js';
export { translateFilter } from './translate-filter.js';
export type { ColumnResolver, ColumnTarget, TranslateOptions, TranslatedFilter } from './translate-filter.js';
export { translateSort } from './translate-sort.js';
export { dialectSql, detectDialect } from './dialect.js';
export type { SqlDialectName, DialectSql } from './dialect.js';
export { fromBetterSqlite3, fromPgPool, fromMysqlPool, fromPGlite } from './connect.js';
export type { SqlConnection, PGliteLike, SqliteOptions } from './connect.js';
export type { ConnectionBounds } from './bounded-pools.js';
export { classifySqlError } from './classify-sql-error.js';
export { registerSqliteFunctions } from './sqlite-functions.js';
export type { SqliteFunctionHost } from './sqlite-functions.js';
export { createSqlOutboxTables, SQL_OUTBOX_TABLES } from './outbox/sql-outbox-tables.js';
export { createSqlOutbox } from './outbox/sql-outbox.js';
