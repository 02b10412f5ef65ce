import type { ScimStore } from '@scimkit/core';
import { checkReadiness, type Readiness } from './check-readiness.js';
import { fromPGlite } from './from-pglite.js';
import { fromPgPool } from './from-pg-pool.js';
import { migrate } from './migrate.js';
import { createPostgresStore } from './postgres-store.js';
import type { SqlClient, SqlQueryable } from './sql-client.js';
import { waitForDatabase, type StartupOptions } from './wait-for-database.js';

export interface OpenStoreOptions {
  /** PostgreSQL schema for the tables. Default `public`. */
  readonly schema?: string;
  /** Server only: statement timeout in milliseconds; a statement running longer fails with 503 (`Retry-After`). Default 10,000. */
  readonly statementTimeoutMs?: number;
  /** Server only: how long a store call waits for a free pooled connection (or a new one to connect) before 503. Default 5,000. */
  readonly acquireTimeoutMs?: number;
  /** Server only: how long a statement waits for a row or table lock before 503 (`lock_timeout`). Default: the statement timeout. */
  readonly lockTimeoutMs?: number;
  /** Server only: connections in the pool. Default 10. */
  readonly poolSize?: number;
  /** Server only: store calls allowed to wait for a connection; more are answered 503 at once. Default 10 × `poolSize`. */
  readonly maxWaiting?: number;
  /** Server only: the statement timeout of migrations (which may rewrite every row), in milliseconds; 0 for none. Default 0. */
  readonly migrationTimeoutMs?: number;
  /** Start-up: keep retrying while the database is unreachable, with backoff (default: up to 60 s). */
  readonly startup?: StartupOptions;
  /** Server only: every connection error reported outside a statement (a connection the server closed). Default: ignored. */
  readonly onConnectionError?: (error: Error) => void;
}

export interface OpenedStore {
  readonly store: ScimStore;
  readonly client: SqlClient;
  /** Whether the database answers and the schema is current: for a readiness probe. Never throws. */
  ready(): Promise<Readiness>;
  /** Closes the pool or the PGlite instance. */
  close(): Promise<void>;
}

/**
 * Opens a migrated store from a URL: `postgres://…` / `postgresql://…` (a `pg` Pool), or
 * `pglite:./data` (PGlite in that directory; `pglite:` alone or `pglite:memory` keeps it in memory).
 * Runs {@link migrate} before returning, waiting for an unreachable database with bounded backoff
 * (`options.startup`). Throws for any other URL, and when the database stays unreachable.
 *
 * The pool is bounded (docs/stores/postgres.md, "Timeouts and failures"): a store call waits at
 * most `acquireTimeoutMs` for a connection and `statementTimeoutMs` for each statement, and a
 * transient failure is a `StoreUnavailableError` (503 with `Retry-After`).
 */
export async function openPostgresStore(url: string, options: OpenStoreOptions = {}): Promise<OpenedStore> {
  const schema = options.schema ?? 'public';
  let client: SqlClient;
  let close: () => Promise<void>;
  let migrationClient: SqlClient;
  let callTimeoutMs: number | undefined;
  if (/^postgres(?:ql)?:\/\//i.test(url)) {
    const { default: pg } = await import('pg');
    const statementTimeout = options.statementTimeoutMs ?? 10_000;
    const poolSize = options.poolSize ?? 10;
    callTimeoutMs = (options.acquireTimeoutMs ?? 5_000) + statementTimeout;
    const pool = new pg.Pool({
      connectionString: url,
      max: poolSize,
      connectionTimeoutMillis: options.acquireTimeoutMs ?? 5_000,
      statement_timeout: statementTimeout,
      lock_timeout: options.lockTimeoutMs ?? statementTimeout,
      // A transaction left open by a stalled process is ended by the server, releasing its locks.
      idle_in_transaction_session_timeout: Math.max(statementTimeout, 5_000),
      // A statement whose answer never arrives (a silent network partition) fails on the client too.
      query_timeout: statementTimeout + 2_000,
      keepAlive: true,
    });
    client = fromPgPool(pool, { maxWaiting: options.maxWaiting ?? 10 * poolSize, ...(options.onConnectionError === undefined ? {} : { onConnectionError: options.onConnectionError }) });
    migrationClient = withStatementTimeout(client, options.migrationTimeoutMs ?? 0);
    close = () => pool.end();
  } else if (/^pglite:/i.test(url)) {
    const where = url.slice('pglite:'.length);
    const { PGlite } = await import('@electric-sql/pglite');
    const db = where === '' || where === 'memory' ? await PGlite.create() : await PGlite.create(where);
    client = fromPGlite(db);
    migrationClient = client;
    close = () => db.close();
  } else {
    throw new TypeError(`unsupported store URL '${redact(url)}': use postgres://… or pglite:<directory>`);
  }
  try {
    // Several instances starting during an outage each wait here; migrate() serializes them under an advisory lock.
    await waitForDatabase(() => migrate(migrationClient, { schema }), options.startup);
  } catch (error) {
    await close();
    throw error;
  }
  return { store: createPostgresStore({ client, schema, ...(callTimeoutMs === undefined ? {} : { callTimeoutMs }) }), client, ready: () => checkReadiness(client, { schema }), close };
}

/** The client with every transaction under its own statement timeout (`SET LOCAL`), for migrations. */
function withStatementTimeout(client: SqlClient, timeoutMs: number): SqlClient {
  return {
    query: (text, params) => client.query(text, params),
    transaction: <T>(work: (tx: SqlQueryable) => Promise<T>) =>
      client.transaction(async (tx) => {
        await tx.query(`SET LOCAL statement_timeout = ${Math.max(0, Math.floor(timeoutMs))}`);
        await tx.query('SET LOCAL lock_timeout = 0');
        return work(tx);
      }),
  };
}

/** A URL without its password, for messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}
