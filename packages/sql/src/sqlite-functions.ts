/** The part of a better-sqlite3 `Database` that registers functions. */
export interface SqliteFunctionHost {
  function(name: string, options: { deterministic: boolean }, fn: (value: unknown) => unknown): unknown;
}

/**
 * Adds `scimkit_fold(x)` (the caseExact:false key: NFC, lower-cased, as `comparisonKey` computes it) and
 * `scimkit_lower(x)` (JavaScript's toLowerCase) to a better-sqlite3 database, so caseExact:false
 * comparisons run in SQL with the in-memory evaluator's semantics. `fromBetterSqlite3` calls it; call
 * it yourself when you hand the store a Kysely instance over your own SQLite database.
 */
export function registerSqliteFunctions(database: SqliteFunctionHost): void {
  database.function('scimkit_fold', { deterministic: true }, (value) => (typeof value === 'string' ? value.normalize('NFC').toLowerCase() : null));
  database.function('scimkit_lower', { deterministic: true }, (value) => (typeof value === 'string' ? value.toLowerCase() : null));
}
