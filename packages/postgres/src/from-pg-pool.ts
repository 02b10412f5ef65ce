import type { SqlClient, SqlQueryable, SqlResult } from './sql-client.js';

/** The part of a `pg` Pool the store uses (structural, so `pg` stays an implementation detail). */
export interface PgPoolLike {
  query(text: string | PgQueryConfig, params?: unknown[]): Promise<{ rows: unknown[] }>;
  connect(): Promise<PgPoolClientLike>;
}

export interface PgPoolClientLike {
  query(text: string | PgQueryConfig, params?: unknown[]): Promise<{ rows: unknown[] }>;
  /** Pass an error to destroy the connection instead of returning it to the pool. */
  release(error?: Error | boolean): void;
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
 * one checked-out connection (`BEGIN` … `COMMIT`, `ROLLBACK` when `work` rejects). Set the
 * statement timeout on the pool (`new Pool({ statement_timeout: 10_000 })`) so that a stuck query
 * fails, and the request with it, instead of hanging.
 */
export function fromPgPool(pool: PgPoolLike): SqlClient {
  return {
    query: <Row>(text: string, params: readonly unknown[] = [], name?: string) => run(pool, text, params, name) as Promise<SqlResult<Row>>,
    // A single statement is atomic on its own: no BEGIN/COMMIT round trips.
    write: <Row>(text: string, params: readonly unknown[] = [], name?: string) => run(pool, text, params, name) as Promise<SqlResult<Row>>,
    async transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
      const connection = await pool.connect();
      const tx: SqlQueryable = { query: <Row>(text: string, params: readonly unknown[] = [], name?: string) => run(connection, text, params, name) as Promise<SqlResult<Row>> };
      try {
        await connection.query('BEGIN');
        const result = await work(tx);
        await connection.query('COMMIT');
        connection.release();
        return result;
      } catch (error) {
        try {
          await connection.query('ROLLBACK');
          connection.release();
        } catch (rollbackError) {
          // The connection is unusable (it dropped mid-transaction): destroy it, report the first error.
          connection.release(rollbackError instanceof Error ? rollbackError : true);
        }
        throw error;
      }
    },
  };
}
