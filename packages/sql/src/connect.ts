import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import type { SqlDialectName } from './dialect.js';
import { registerSqliteFunctions, type SqliteFunctionHost } from './sqlite-functions.js';

/** A Kysely instance and what `createSqlStore` needs to know about it. */
export interface SqlConnection {
  readonly db: Kysely<any>;
  readonly dialect: SqlDialectName;
  readonly sqliteFunctions?: boolean;
}

/** Wraps a better-sqlite3 (`^12`) database, with the folding functions registered. */
export function fromBetterSqlite3(database: SqliteFunctionHost): SqlConnection {
  registerSqliteFunctions(database);
  return { db: new Kysely<any>({ dialect: new SqliteDialect({ database: database as never }) }), dialect: 'sqlite', sqliteFunctions: true };
}

/**
 * Wraps a `pg` Pool. An idle pooled connection that the server ends (failover, `pg_terminate_backend`,
 * a dropped database) makes the Pool emit `'error'`, and an `'error'` event without a listener ends
 * the Node process: a listener is attached. The Pool has already discarded that connection and the
 * next query opens a fresh one (docs/operations/database-failures.md).
 */
export function fromPgPool(pool: unknown): SqlConnection {
  (pool as { on?: (event: 'error', listener: (error: unknown) => void) => unknown }).on?.('error', () => undefined);
  return { db: new Kysely<any>({ dialect: new PostgresDialect({ pool: pool as never }) }), dialect: 'postgres' };
}

/** Wraps a `mysql2` pool (created with `mysql2`'s callback API: `createPool`, not `mysql2/promise`). */
export function fromMysqlPool(pool: unknown): SqlConnection {
  return { db: new Kysely<any>({ dialect: new MysqlDialect({ pool: pool as never }) }), dialect: 'mysql' };
}

/** The part of a PGlite instance used here. */
export interface PGliteLike {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
}

/**
 * Wraps an embedded PGlite database as a one-connection `pg`-style pool: queries and transactions
 * take turns (PGlite has a single session).
 */
export function fromPGlite(pglite: PGliteLike): SqlConnection {
  let queue: Promise<void> = Promise.resolve();
  const client = {
    async query(text: string, params: unknown[] = []) {
      const result = await pglite.query<Record<string, unknown>>(text, params);
      const command = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? '';
      return { command, rowCount: result.affectedRows ?? result.rows.length, rows: result.rows };
    },
    release() {},
  };
  const pool = {
    async connect() {
      let release!: () => void;
      const turn = new Promise<void>((resolve) => (release = resolve));
      const previous = queue;
      queue = previous.then(() => turn);
      await previous;
      return { ...client, release };
    },
    async end() {},
  };
  return { db: new Kysely<any>({ dialect: new PostgresDialect({ pool: pool as never }) }), dialect: 'postgres' };
}
