import { statementNamer } from './named-statements.js';

/** The part of a better-sqlite3 `Database` Kysely's SqliteDialect uses. */
export interface SqliteStatementHost {
  prepare(source: string): SqliteStatement;
  close(): unknown;
}

/** The part of a better-sqlite3 `Statement` this looks at. */
interface SqliteStatement {
  /** True while an iterator of the statement is open: it cannot run again until it ends. */
  readonly busy?: boolean;
}

/**
 * A better-sqlite3 database as Kysely's SqliteDialect takes it, keeping the prepared `Statement` of
 * each text that repeats (Kysely prepares every statement it runs, BEGIN and COMMIT included; a
 * store's statement shapes make the same few texts again and again): the text is compiled by SQLite
 * once, then only bound and stepped. At most `max` texts are kept (the first `max` seen twice, as
 * statementNamer picks PostgreSQL's named statements: filters make texts without end); 0 keeps none.
 *
 * Invariant: a kept Statement belongs to this one database and lives as long as it (one cache per
 * `fromBetterSqlite3` call, never shared); SQLite prepares it again by itself when the schema changes
 * (`sqlite3_prepare_v2`); one that is `busy` (an iterator still open) is not handed out: a fresh one is.
 */
export function cachedStatements<D extends SqliteStatementHost>(database: D, max: number): SqliteStatementHost {
  if (max <= 0) return database;
  const chosen = statementNamer(max);
  const kept = new Map<string, SqliteStatement>();
  return {
    prepare(source) {
      const known = kept.get(source);
      if (known !== undefined && known.busy !== true) return known;
      const statement = database.prepare(source);
      // Parameters or not (BEGIN, COMMIT), a text that repeats is worth keeping: pass one placeholder.
      if (known === undefined && chosen(source, KEEP) !== undefined) kept.set(source, statement);
      return statement;
    },
    close: () => database.close(),
  };
}

const KEEP = [true] as const;
