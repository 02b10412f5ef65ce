/**
 * A better-sqlite3 database whose statement runs are counted, for the benches that report
 * statements per request (sql-limit, sql-statements): each run of a prepared statement (`run`,
 * `all`, `get`, `iterate`) calls `counted` with its text, whether fromBetterSqlite3 keeps the
 * Statement or prepares it again.
 */
import type Database from 'better-sqlite3';

export function countStatementRuns<D extends Database.Database>(database: D, counted: (source: string) => void): D {
  const prepare = database.prepare.bind(database);
  (database as { prepare: unknown }).prepare = (source: string) =>
    new Proxy(prepare(source), {
      get(target, key) {
        const value = Reflect.get(target, key, target) as unknown;
        if (typeof value !== 'function') return value;
        if (key === 'run' || key === 'all' || key === 'get' || key === 'iterate') counted(source);
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
  return database;
}
