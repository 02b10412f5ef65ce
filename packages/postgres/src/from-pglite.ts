import { storeError } from './classify-error.js';
import type { SqlClient, SqlQueryable, SqlResult } from './sql-client.js';

/** The part of a PGlite instance (`@electric-sql/pglite`) the store uses. */
export interface PGliteLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  transaction<T>(work: (tx: { query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> }) => Promise<T>): Promise<T>;
}

/**
 * A {@link SqlClient} over PGlite, PostgreSQL in WebAssembly (`new PGlite('./data')`, or in memory):
 * one connection, so PGlite itself runs one transaction at a time. A transient failure (a statement
 * timeout, a closed instance) rejects with a `StoreUnavailableError` (503), as {@link fromPgPool} does.
 */
export function fromPGlite(db: PGliteLike): SqlClient {
  return {
    async query<Row>(text: string, params: readonly unknown[] = []): Promise<SqlResult<Row>> {
      try {
        return (await db.query(text, [...params])) as SqlResult<Row>;
      } catch (error) {
        throw storeError(error);
      }
    },
    // One statement is atomic on its own (PGlite prepares every statement it runs; names are not needed).
    async write<Row>(text: string, params: readonly unknown[] = []): Promise<SqlResult<Row>> {
      try {
        return (await db.query(text, [...params])) as SqlResult<Row>;
      } catch (error) {
        throw storeError(error);
      }
    },
    async transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
      try {
        return await db.transaction((tx) => work({ query: <Row>(text: string, params: readonly unknown[] = []) => tx.query(text, [...params]) as Promise<SqlResult<Row>> }));
      } catch (error) {
        throw storeError(error);
      }
    },
  };
}
