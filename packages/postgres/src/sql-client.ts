/** The rows a statement returned. */
export interface SqlResult<Row> {
  readonly rows: Row[];
}

/** Something that runs one parameterised statement: a pool, a connection, a transaction. */
export interface SqlQueryable {
  /**
   * Runs `text` with `$1…$n` bound to `params` (strings, numbers, booleans, null; JSON as text).
   * `name`, when given, is the same for the same `text` only: a driver that can (`pg`) prepares the
   * statement once per connection under that name and reuses the plan; others ignore it.
   */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[], name?: string): Promise<SqlResult<Row>>;
}

/**
 * The one query interface the store needs: single statements, and a transaction that commits when
 * `work` resolves and rolls back when it rejects. A `pg` Pool ({@link fromPgPool}) and a PGlite
 * instance ({@link fromPGlite}) both provide it; so can any other driver in a few lines.
 */
export interface SqlClient extends SqlQueryable {
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /**
   * Optional: one writing statement on its own (atomic as any single statement is), on the
   * primary. The store's creates and replaces that need no more than one statement use it; without
   * it they run as a transaction of that one statement, so a client that sends `query` to a read
   * replica and `transaction` to the primary stays correct.
   */
  write?<Row = Record<string, unknown>>(text: string, params?: readonly unknown[], name?: string): Promise<SqlResult<Row>>;
}
