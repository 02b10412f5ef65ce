import { randomUUID } from 'node:crypto';
import { createPool, type Pool as MysqlPool } from 'mysql2';
import pg from 'pg';
import { fromMysqlPool, fromPgPool, type SqlConnection } from '../src/index.js';

/**
 * Fresh, empty databases on the servers .ci/run found (SCIMKIT_PG_URL, SCIMKIT_MYSQL_URL): one
 * database of its own per test file, a fresh schema (PostgreSQL) or database (MariaDB) per call,
 * all dropped by `close()`.
 */
export interface ServerConnections {
  fresh(): Promise<SqlConnection>;
  close(): Promise<void>;
}

const tag = () => randomUUID().replace(/-/g, '').slice(0, 12);

/**
 * Ends a pool without waiting on it for more than a second: a pool whose client a failed test never
 * released would otherwise hold `close()` until the hook's timeout, and the database would be left
 * behind. The drop that follows ends whatever is still connected.
 */
const endWithin = (end: () => Promise<void>): Promise<void> =>
  Promise.race([end().catch(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, 1000).unref())]);

export async function postgresConnections(admin: string): Promise<ServerConnections> {
  const name = `scimkit_sql_${tag()}`;
  const run = async (text: string, url = admin) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const pools: pg.Pool[] = [];
  let n = 0;
  return {
    async fresh() {
      const schema = `s${++n}`;
      await run(`CREATE SCHEMA ${schema}`, url.toString());
      const pool = new pg.Pool({ connectionString: url.toString(), max: 8, options: `-c search_path=${schema}` });
      pools.push(pool);
      return fromPgPool(pool);
    },
    async close() {
      await Promise.all(pools.map((p) => endWithin(() => p.end())));
      await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export async function mysqlConnections(admin: string): Promise<ServerConnections> {
  const prefix = `scimkit_sql_${tag()}`;
  const root = createPool({ uri: admin, connectionLimit: 2 });
  const run = (text: string) => new Promise<void>((resolve, reject) => root.query(text, (error) => (error ? reject(error) : resolve())));
  const pools: MysqlPool[] = [];
  const names: string[] = [];
  return {
    async fresh() {
      const name = `${prefix}_${names.length + 1}`;
      await run(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
      names.push(name);
      const url = new URL(admin);
      url.pathname = `/${name}`;
      const pool = createPool({ uri: url.toString(), connectionLimit: 8, timezone: 'Z' });
      pools.push(pool);
      return fromMysqlPool(pool);
    },
    async close() {
      await Promise.all(pools.map((p) => endWithin(() => new Promise<void>((resolve) => p.end(() => resolve())))));
      for (const name of names) await run(`DROP DATABASE IF EXISTS ${name}`);
      await new Promise<void>((resolve) => root.end(() => resolve()));
    },
  };
}
