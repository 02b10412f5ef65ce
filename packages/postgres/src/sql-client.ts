/** The rows a statement returned. */
export interface SqlResult<Row> {
  readonly rows: Row[];
}

/** Something that runs one parameterised statement: a pool, a connection, a transaction. */
export interface SqlQueryable {
  /** Runs `text` with `$1…$n` bound to `params` (strings, numbers, booleans, null; JSON as text). */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<Row>>;
}

/**
 * The one query interface the store needs: single statements, and a transaction that commits when
 * `work` resolves and rolls back when it rejects. A `pg` Pool ({@link fromPgPool}) and a PGlite
 * instance ({@link fromPGlite}) both provide it; so can any other driver in a few lines.
 */
export interface SqlClient extends SqlQueryable {
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T>;
}
