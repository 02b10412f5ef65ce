import { MysqlAdapter, PostgresAdapter, SqliteAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/** The SQL dialects the mapped store speaks. */
export type SqlDialectName = 'postgres' | 'mysql' | 'sqlite';

/** Which dialect a Kysely instance speaks, from its adapter. */
export function detectDialect(db: Kysely<any>): SqlDialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return 'postgres';
  if (adapter instanceof MysqlAdapter) return 'mysql';
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  throw new TypeError('@scimkit/sql: the Kysely instance must use the PostgreSQL, MySQL or SQLite dialect (or pass `dialect`)');
}

/** SQL text per dialect for what the translator and the store need beyond plain comparisons. */
export interface DialectSql {
  readonly name: SqlDialectName;
  /** A timestamp column as whole milliseconds since the epoch (versions, dateTime comparisons). */
  instantMs(column: RawBuilder<unknown>): RawBuilder<number>;
  /** The caseExact:false equality key of a text column (NFC, lower-cased), or undefined when the dialect has none exactly. */
  foldKey(column: RawBuilder<unknown>): RawBuilder<string> | undefined;
  /** A text column lower-cased as JavaScript's toLowerCase does, or undefined. */
  lower(column: RawBuilder<unknown>): RawBuilder<string> | undefined;
  /** `a` and `b` compared by code point (binary), with `op`. */
  binaryCompare(a: RawBuilder<unknown>, op: '=' | '<' | '<=' | '>' | '>=', b: RawBuilder<unknown>): RawBuilder<boolean>;
  /** Whether `needle` occurs in / starts / ends `column`, case-sensitively. */
  contains(column: RawBuilder<unknown>, needle: string): RawBuilder<boolean>;
  startsWith(column: RawBuilder<unknown>, needle: string): RawBuilder<boolean>;
  endsWith(column: RawBuilder<unknown>, needle: string): RawBuilder<boolean>;
  /** A boolean value as the dialect stores it. */
  bool(value: boolean): RawBuilder<unknown>;
  /** A text column in code-point order for ORDER BY. */
  orderText(column: RawBuilder<unknown>): RawBuilder<unknown>;
  /** A timestamp parameter as the dialect stores it (Date for servers, ISO text for SQLite). */
  timestamp(ms: number): unknown;
}

/**
 * The dialect pieces. SQLite folds text with the functions `registerSqliteFunctions` adds
 * (`scimkit_fold`, `scimkit_lower`: JavaScript's own NFC and toLowerCase); PostgreSQL with
 * `lower(normalize(x, NFC))` (a UTF-8 database); MySQL/MariaDB lower-cases but has no NFC, so its
 * caseExact:false equality narrows in SQL and is confirmed in JavaScript (docs/stores/own-tables.md).
 */
export function dialectSql(name: SqlDialectName, options: { sqliteFunctions?: boolean } = {}): DialectSql {
  const base = {
    name,
    bool: (value: boolean) => (name === 'postgres' ? sql.lit(value) : sql.lit(value ? 1 : 0)),
    timestamp: (ms: number) => (name === 'sqlite' ? new Date(ms).toISOString() : new Date(ms)),
  };
  switch (name) {
    case 'postgres':
      return {
        ...base,
        instantMs: (c) => sql<number>`floor(extract(epoch from ${c}) * 1000)::bigint`,
        foldKey: (c) => sql<string>`lower(normalize(${c}, NFC))`,
        lower: (c) => sql<string>`lower(${c})`,
        binaryCompare: (a, op, b) => sql<boolean>`(${a} COLLATE "C" ${sql.raw(op)} ${b} COLLATE "C")`,
        contains: (c, n) => sql<boolean>`(strpos(${c}, ${n}) > 0)`,
        startsWith: (c, n) => sql<boolean>`(left(${c}, ${n.length === 0 ? 0 : sql`length(${n})`}) = ${n})`,
        endsWith: (c, n) => sql<boolean>`(right(${c}, ${n.length === 0 ? 0 : sql`length(${n})`}) = ${n})`,
        orderText: (c) => sql`${c} COLLATE "C"`,
      };
    case 'mysql':
      return {
        ...base,
        instantMs: (c) => sql<number>`CAST(FLOOR(UNIX_TIMESTAMP(${c}) * 1000) AS SIGNED)`,
        foldKey: () => undefined,
        lower: (c) => sql<string>`LOWER(${c})`,
        binaryCompare: (a, op, b) => sql<boolean>`(CAST(${a} AS BINARY) ${sql.raw(op)} CAST(${b} AS BINARY))`,
        contains: (c, n) => sql<boolean>`(INSTR(CAST(${c} AS BINARY), CAST(${n} AS BINARY)) > 0)`,
        startsWith: (c, n) => sql<boolean>`(LEFT(CAST(${c} AS BINARY), LENGTH(CAST(${n} AS BINARY))) = CAST(${n} AS BINARY))`,
        endsWith: (c, n) => sql<boolean>`(RIGHT(CAST(${c} AS BINARY), LENGTH(CAST(${n} AS BINARY))) = CAST(${n} AS BINARY))`,
        orderText: (c) => sql`CAST(${c} AS BINARY)`,
      };
    case 'sqlite':
      return {
        ...base,
        instantMs: (c) => sql<number>`CAST(round((julianday(${c}) - 2440587.5) * 86400000) AS INTEGER)`,
        foldKey: (c) => (options.sqliteFunctions === true ? sql<string>`scimkit_fold(${c})` : undefined),
        lower: (c) => (options.sqliteFunctions === true ? sql<string>`scimkit_lower(${c})` : undefined),
        binaryCompare: (a, op, b) => sql<boolean>`(${a} ${sql.raw(op)} ${b})`,
        contains: (c, n) => sql<boolean>`(instr(${c}, ${n}) > 0)`,
        startsWith: (c, n) => sql<boolean>`(substr(${c}, 1, length(${n})) = ${n})`,
        endsWith: (c, n) => (n.length === 0 ? sql<boolean>`(1 = 1)` : sql<boolean>`(substr(${c}, -length(${n})) = ${n})`),
        orderText: (c) => c,
      };
  }
}
