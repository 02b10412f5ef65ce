/**
 * The sql-limit bench's children on each dialect (DIALECT: postgres, the default; sqlite; mysql):
 * the limit's statements, run prepared (a named pg statement, a kept better-sqlite3 Statement,
 * mysql2's `execute`), and scimkit's connection, every statement it runs counted.
 */
import Database from 'better-sqlite3';
import { createPool } from 'mysql2';
import { fromBetterSqlite3, fromMysqlPool, fromPgPool, type SqlConnection } from '@scimkit/sql';
import { counter, pool } from '../postgres-limit/child.js';
import { countStatementRuns } from '../lib/counted-sqlite.js';

export type BenchDialect = 'postgres' | 'sqlite' | 'mysql';
export const DIALECT = (process.env['DIALECT'] ?? 'postgres') as BenchDialect;

export interface LimitDb {
  /** Runs the statement `name` (its text per dialect), prepared. */
  query(name: string, text: string, values: unknown[]): Promise<{ rows: Record<string, any>[]; rowCount: number }>;
}

/** The limit's connection: one prepared statement per request. */
export function limitDb(): LimitDb {
  if (DIALECT === 'sqlite') {
    const database = new Database(process.env['DATABASE_URL'] as string);
    database.pragma('busy_timeout = 5000');
    database.function('scimkit_fold', { deterministic: true }, (value) => (typeof value === 'string' ? value.normalize('NFC').toLowerCase() : null));
    const statements = new Map<string, Database.Statement>();
    return {
      async query(name, text, values) {
        counter.statements++;
        let statement = statements.get(name);
        if (statement === undefined) statements.set(name, (statement = database.prepare(text)));
        if (statement.reader) {
          const rows = statement.all(...values) as Record<string, unknown>[];
          return { rows, rowCount: rows.length };
        }
        return { rows: [], rowCount: statement.run(...values).changes };
      },
    };
  }
  if (DIALECT === 'mysql') {
    const raw = createPool({ uri: process.env['DATABASE_URL'] as string, connectionLimit: Number(process.env['POOL'] ?? 10), timezone: 'Z' });
    return {
      query: (_name, text, values) =>
        new Promise((resolve, reject) => {
          counter.statements++;
          raw.execute(text, values as never, (error, result) => {
            if (error) return reject(error);
            if (Array.isArray(result)) resolve({ rows: result as Record<string, unknown>[], rowCount: result.length });
            else resolve({ rows: [], rowCount: (result as { affectedRows: number }).affectedRows });
          });
        }),
    };
  }
  const db = pool();
  return {
    async query(name, text, values) {
      counter.statements++;
      const result = await db.query({ name, text, values });
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    },
  };
}

/** scimkit's connection, every statement run counted (BEGIN and COMMIT included). */
export function scimkitConnection(): SqlConnection {
  if (DIALECT === 'sqlite') {
    const database = countStatementRuns(new Database(process.env['DATABASE_URL'] as string), () => counter.statements++);
    return fromBetterSqlite3(database);
  }
  if (DIALECT === 'mysql') {
    const raw = createPool({ uri: process.env['DATABASE_URL'] as string, connectionLimit: Number(process.env['POOL'] ?? 10), timezone: 'Z' });
    raw.on('connection', (connection) => {
      for (const method of ['query', 'execute'] as const) {
        const send = (connection[method] as (...a: unknown[]) => unknown).bind(connection);
        (connection as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
          counter.statements++;
          return send(...args);
        };
      }
    });
    return fromMysqlPool(raw);
  }
  const raw = pool();
  raw.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      // A text, or a named statement's { name, text, values }; not a cursor.
      if (typeof args[0] === 'string' || typeof (args[0] as { text?: unknown }).text === 'string') counter.statements++;
      return query(...args);
    };
  });
  return fromPgPool(raw);
}
