import { fromBetterSqlite3, fromMysqlPool, fromPgPool, type SqlConnection } from '@scimkit/sql';

/** The database `SCIMKIT_STORE` names: `postgres://…`, `mysql://…`, `sqlite:<file>`, or (default) SQLite in memory. */
export async function openDatabase(url: string | undefined): Promise<SqlConnection & { readonly description: string }> {
  if (url !== undefined && /^postgres(ql)?:\/\//.test(url)) {
    const { default: pg } = await import('pg');
    return { ...fromPgPool(new pg.Pool({ connectionString: url, max: 10 })), description: 'PostgreSQL' };
  }
  if (url !== undefined && url.startsWith('mysql://')) {
    const { createPool } = await import('mysql2');
    return { ...fromMysqlPool(createPool({ uri: url, connectionLimit: 10, timezone: 'Z', dateStrings: false })), description: 'MySQL/MariaDB' };
  }
  const { default: Database } = await import('better-sqlite3');
  const file = url !== undefined && url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : ':memory:';
  return { ...fromBetterSqlite3(new Database(file)), description: file === ':memory:' ? 'SQLite in memory' : `SQLite ${file}` };
}
