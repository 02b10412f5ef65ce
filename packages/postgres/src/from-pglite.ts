import type { SqlClient, SqlQueryable, SqlResult } from './sql-client.js';

/** The part of a PGlite instance (`@electric-sql/pglite`) the store uses. */
export interface PGliteLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  transaction<T>(work: (tx: { query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> }) => Promise<T>): Promise<T>;
}

/**
 * A {@link SqlClient} over PGlite, PostgreSQL in WebAssembly (`new PGlite('./data')`, or in memory):
 * one connection, so PGlite itself runs one transaction at a time.
 */
export function fromPGlite(db: PGliteLike): SqlClient {
  return {
    query: <Row>(text: string, params: readonly unknown[] = []) => db.query(text, [...params]) as Promise<SqlResult<Row>>,
    // One statement is atomic on its own (PGlite prepares every statement it runs; names are not needed).
    write: <Row>(text: string, params: readonly unknown[] = []) => db.query(text, [...params]) as Promise<SqlResult<Row>>,
    transaction: <T>(work: (tx: SqlQueryable) => Promise<T>) =>
      db.transaction((tx) => work({ query: <Row>(text: string, params: readonly unknown[] = []) => tx.query(text, [...params]) as Promise<SqlResult<Row>> })),
  };
}
