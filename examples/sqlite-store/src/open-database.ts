import initSqlJs, { type Database } from 'sql.js';

/** Opens an in-memory SQLite database (sql.js, WebAssembly), from a saved file's bytes when given. */
export async function openDatabase(bytes?: Uint8Array): Promise<Database> {
  const SQL = await initSqlJs();
  return new SQL.Database(bytes);
}
