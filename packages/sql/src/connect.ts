import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { boundedMysqlPool, boundedPgPool, resolveBounds, type ConnectionBounds, type ResolvedBounds } from './bounded-pools.js';
import type { SqlDialectName } from './dialect.js';
import { registerSqliteFunctions, type SqliteFunctionHost } from './sqlite-functions.js';
import { cachedStatements, type SqliteStatementHost } from './sqlite-statements.js';

/** A Kysely instance and what `createSqlStore` needs to know about it. */
export interface SqlConnection {
  readonly db: Kysely<any>;
  readonly dialect: SqlDialectName;
  readonly sqliteFunctions?: boolean;
  /**
   * The longest one store call waits before it fails as unavailable (acquire timeout plus statement
   * timeout, in milliseconds), which the store declares so that the server bounds each request's
   * store calls together (`capabilities.callTimeoutMs`). The `from…` helpers set it.
   */
  readonly callTimeoutMs?: number;
}

const callTimeout = (bounds: ResolvedBounds): number => bounds.acquireTimeoutMs + bounds.statementTimeoutMs;

export interface SqliteOptions {
  /** How long a write waits for another connection's lock on the database file (`busy_timeout`) before 503. Default 5,000 ms. */
  readonly busyTimeoutMs?: number;
  /**
   * How many statement texts that repeat keep their prepared better-sqlite3 `Statement` (compiled by
   * SQLite once, then only bound and run). Default 100; 0 prepares every statement each time.
   */
  readonly preparedStatements?: number;
}

/**
 * Wraps a better-sqlite3 (`^12`) database, with the folding functions registered. A write that
 * finds the file locked by another connection waits `busyTimeoutMs` (SQLite's `busy_timeout`), then
 * fails `SQLITE_BUSY`, which the store answers 503 with `Retry-After`. The statements that repeat
 * stay prepared (`preparedStatements`, see cachedStatements).
 */
export function fromBetterSqlite3(database: SqliteFunctionHost, options: SqliteOptions = {}): SqlConnection {
  registerSqliteFunctions(database);
  const busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
  (database as { pragma?: (source: string) => unknown }).pragma?.(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  const prepared = options.preparedStatements === undefined ? 100 : Math.max(0, Math.floor(options.preparedStatements));
  const host = cachedStatements(database as unknown as SqliteStatementHost, prepared);
  return { db: new Kysely<any>({ dialect: new SqliteDialect({ database: host as never }) }), dialect: 'sqlite', sqliteFunctions: true, callTimeoutMs: busyTimeoutMs };
}

/**
 * Wraps a `pg` Pool, bounded (docs/stores/own-tables.md, "Timeouts and failures"): listeners for
 * `'error'` on the pool and on every connection (an idle or checked-out connection the server ends
 * (failover, `pg_terminate_backend`) makes pg emit `'error'`, and an `'error'` event without a
 * listener ends the Node process), a broken connection destroyed instead of returned, a connection
 * waited for at most `acquireTimeoutMs` (default 5 s) with at most `maxWaiting` (100) waiting, and
 * `statement_timeout` (default 10 s, unless the pool's own options set one) on each connection.
 * Create the pool and call this before the pool makes its first connection.
 */
export function fromPgPool(pool: unknown, bounds: ConnectionBounds = {}): SqlConnection {
  const resolved = resolveBounds(bounds);
  const bounded = boundedPgPool(pool as Parameters<typeof boundedPgPool>[0], resolved);
  return { db: new Kysely<any>({ dialect: new PostgresDialect({ pool: bounded as never }) }), dialect: 'postgres', callTimeoutMs: callTimeout(resolved) };
}

/**
 * Wraps a `mysql2` pool (created with `mysql2`'s callback API: `createPool`, not `mysql2/promise`),
 * bounded as {@link fromPgPool} is: `'error'` listeners on every connection, acquire timeout and
 * waiting bound, each statement under mysql2's query `timeout` (the statement timeout; the
 * connection is then destroyed) and `innodb_lock_wait_timeout` set to it in whole seconds.
 */
export function fromMysqlPool(pool: unknown, bounds: ConnectionBounds = {}): SqlConnection {
  const resolved = resolveBounds(bounds);
  const bounded = boundedMysqlPool(pool as Parameters<typeof boundedMysqlPool>[0], resolved);
  return { db: new Kysely<any>({ dialect: new MysqlDialect({ pool: bounded as never }) }), dialect: 'mysql', callTimeoutMs: callTimeout(resolved) };
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
