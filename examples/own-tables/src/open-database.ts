import { fromBetterSqlite3, fromMysqlPool, fromPgPool, type ConnectionBounds, type SqlConnection } from '@scimkit/sql';

/**
 * The database `SCIMKIT_STORE` names: `postgres://…`, `mysql://…`, `sqlite:<file>`, or (default) SQLite in memory.
 * A server's pool is bounded (docs/stores/own-tables.md, "Timeouts and failures"):
 * `SCIMKIT_SQL_ACQUIRE_TIMEOUT_MS` (default 5,000), `SCIMKIT_SQL_STATEMENT_TIMEOUT_MS` (10,000) and
 * `SCIMKIT_SQL_POOL_SIZE` (10), whole numbers; anything else is refused.
 */
export async function openDatabase(url: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): Promise<SqlConnection & { readonly description: string }> {
  const number = (name: string): number | undefined => {
    const text = env[name];
    if (text === undefined || text === '') return undefined;
    if (!/^\d+$/.test(text)) throw new TypeError(`${name} must be a whole number, not '${text}'`);
    return Number(text);
  };
  const acquireTimeoutMs = number('SCIMKIT_SQL_ACQUIRE_TIMEOUT_MS');
  const statementTimeoutMs = number('SCIMKIT_SQL_STATEMENT_TIMEOUT_MS');
  const bounds: ConnectionBounds = {
    ...(acquireTimeoutMs === undefined ? {} : { acquireTimeoutMs }),
    ...(statementTimeoutMs === undefined ? {} : { statementTimeoutMs }),
  };
  const poolSize = number('SCIMKIT_SQL_POOL_SIZE') ?? 10;
  if (url !== undefined && /^postgres(ql)?:\/\//.test(url)) {
    const { default: pg } = await import('pg');
    return { ...fromPgPool(new pg.Pool({ connectionString: url, max: poolSize, keepAlive: true }), bounds), description: 'PostgreSQL' };
  }
  if (url !== undefined && url.startsWith('mysql://')) {
    const { createPool } = await import('mysql2');
    return { ...fromMysqlPool(createPool({ uri: url, connectionLimit: poolSize, timezone: 'Z', dateStrings: false, enableKeepAlive: true }), bounds), description: 'MySQL/MariaDB' };
  }
  const { default: Database } = await import('better-sqlite3');
  const file = url !== undefined && url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : ':memory:';
  return { ...fromBetterSqlite3(new Database(file)), description: file === ':memory:' ? 'SQLite in memory' : `SQLite ${file}` };
}
