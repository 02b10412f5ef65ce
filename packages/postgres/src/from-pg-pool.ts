import { StoreUnavailableError } from '@scimkit/core';
import { breaksConnection, isRetryableConflict, storeError } from './classify-error.js';
import type { SqlClient, SqlQueryable, SqlResult } from './sql-client.js';

/** The part of a `pg` Pool the store uses (structural, so `pg` stays an implementation detail). */
export interface PgPoolLike {
  query(text: string | PgQueryConfig, params?: unknown[]): Promise<{ rows: unknown[] }>;
  connect(): Promise<PgPoolClientLike>;
  /**
   * The pool's `'error'` event (an idle connection the server closed: a failover,
   * `pg_terminate_backend`) and `'connect'` event (a new connection).
   */
  // pg types each event's listener differently; `any` lets a pg Pool fit.
  on?(event: 'error' | 'connect', listener: (value: any) => void): unknown;
  /** Requests waiting for a connection (`pg` Pool's `waitingCount`). */
  readonly waitingCount?: number;
}

export interface PgPoolClientLike {
  query(text: string | PgQueryConfig, params?: unknown[]): Promise<{ rows: unknown[] }>;
  /** Pass an error to destroy the connection instead of returning it to the pool. */
  release(error?: Error | boolean): void;
  /** The connection's `'error'` event: it broke while checked out. */
  on?(event: 'error', listener: (error: Error) => void): unknown;
  removeListener?(event: 'error', listener: (error: Error) => void): unknown;
}

export interface PgPoolClientOptions {
  /**
   * Called with every error the pool or a checked-out connection reports outside a statement (the
   * server closed an idle connection). The pool has already discarded the connection; the default
   * ignores the error (the next request gets a fresh connection).
   */
  readonly onConnectionError?: (error: Error) => void;
  /**
   * Store calls allowed to wait for a free connection; one more is refused at once as unavailable
   * (503), so a stalled database cannot pile up requests. Default 100.
   */
  readonly maxWaiting?: number;
  /** Runs of a transaction that fails with a serialization failure or deadlock (40001, 40P01) before it is answered 503. Default 3. */
  readonly transactionAttempts?: number;
}

/** A named (prepared) statement, as `pg` takes it: prepared once per connection, then executed by name. */
export interface PgQueryConfig {
  readonly name: string;
  readonly text: string;
  readonly values: unknown[];
}

/** `pg`'s arguments for a statement: a config object when it is named (see SqlQueryable.query). */
function run(target: { query(text: string | PgQueryConfig, params?: unknown[]): Promise<{ rows: unknown[] }> }, text: string, params: readonly unknown[], name: string | undefined): Promise<{ rows: unknown[] }> {
  return name === undefined ? target.query(text, [...params]) : target.query({ name, text, values: [...params] });
}

/**
 * A {@link SqlClient} over a `pg` Pool: single statements on any pooled connection, transactions on
 * one checked-out connection (`BEGIN` … `COMMIT`, `ROLLBACK` when `work` rejects).
 *
 * It survives connection loss: it listens for `'error'` on the pool and on every connection it
 * checks out (an unheard `'error'` event ends the Node process), destroys a connection that broke
 * (`release(error)`) instead of returning it, and rejects the statement or transaction that was
 * using it with a `StoreUnavailableError`, as it does for every transient failure (refused
 * connection, acquire timeout, statement timeout, shutdown, too many connections, a lock or
 * serialization conflict that outlived its retries): the server answers those 503 with
 * `Retry-After` (docs/stores/postgres.md). Other errors pass through unchanged (500).
 *
 * Give the pool bounds (`openPostgresStore` does): `connectionTimeoutMillis` (waiting for a
 * connection) and `statement_timeout`, so that no request waits longer than their sum.
 */
export function fromPgPool(pool: PgPoolLike, options: PgPoolClientOptions = {}): SqlClient {
  const report = options.onConnectionError ?? (() => undefined);
  // One error may reach both the connection's listener and the pool's: report it once.
  const reported = new WeakSet<object>();
  const onConnectionError = (error: Error): void => {
    if (typeof error === 'object' && error !== null) {
      if (reported.has(error)) return;
      reported.add(error);
    }
    report(error);
  };
  const maxWaiting = options.maxWaiting ?? 100;
  const attempts = Math.max(1, options.transactionAttempts ?? 3);
  pool.on?.('error', (error: Error) => onConnectionError(error));
  // Every connection gets a listener of its own for its whole life: pg emits 'error' on a
  // connection the server closes even while it is checked out between statements, and an
  // 'error' event nobody hears ends the process. The connection is then not queryable: its next
  // statement fails, and whoever holds it destroys it (`release(error)`).
  pool.on?.('connect', (connection: PgPoolClientLike) => connection.on?.('error', (error) => onConnectionError(error)));

  function admit(): void {
    if ((pool.waitingCount ?? 0) >= maxWaiting) {
      throw new StoreUnavailableError('too many requests are waiting for a database connection', { retryAfterSeconds: 2 });
    }
  }

  /** One statement on any pooled connection (pg's Pool#query listens for 'error' on it and destroys a broken one). */
  async function single<Row>(text: string, params: readonly unknown[], name: string | undefined): Promise<SqlResult<Row>> {
    admit();
    try {
      return (await run(pool, text, params, name)) as SqlResult<Row>;
    } catch (error) {
      throw storeError(error);
    }
  }

  async function once<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    admit();
    let connection: PgPoolClientLike;
    try {
      connection = await pool.connect();
    } catch (error) {
      throw storeError(error);
    }
    let broken: Error | undefined;
    const onError = (error: Error): void => {
      broken ??= error;
      onConnectionError(error);
    };
    connection.on?.('error', onError);
    const release = (error?: Error): void => {
      connection.removeListener?.('error', onError);
      connection.release(error);
    };
    const tx: SqlQueryable = {
      query: <Row>(text: string, params: readonly unknown[] = [], name?: string) =>
        broken !== undefined ? Promise.reject(broken) : (run(connection, text, params, name) as Promise<SqlResult<Row>>),
    };
    try {
      await tx.query('BEGIN');
      const result = await work(tx);
      await tx.query('COMMIT');
      release(broken);
      return result;
    } catch (error) {
      if (broken !== undefined || breaksConnection(error)) {
        // The server rolls back a transaction whose connection is gone; the connection is destroyed.
        release(broken ?? (error instanceof Error ? error : new Error('connection broken')));
        throw error;
      }
      try {
        await tx.query('ROLLBACK');
        release(broken);
      } catch (rollbackError) {
        // The connection is unusable (it dropped mid-transaction): destroy it, report the first error.
        release(rollbackError instanceof Error ? rollbackError : new Error('rollback failed'));
      }
      throw error;
    }
  }

  return {
    query: <Row>(text: string, params: readonly unknown[] = [], name?: string) => single<Row>(text, params, name),
    // A single statement is atomic on its own: no BEGIN/COMMIT round trips.
    write: <Row>(text: string, params: readonly unknown[] = [], name?: string) => single<Row>(text, params, name),
    async transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await once(work);
        } catch (error) {
          if (attempt < attempts && isRetryableConflict(error)) {
            // PostgreSQL manual, "Serialization Failure Handling": run the whole transaction again, after a short random pause.
            await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
            continue;
          }
          throw storeError(error);
        }
      }
    },
  };
}
