/**
 * What the PostgreSQL benches share: the server they use (`SCIMKIT_PG_URL`, default the CI
 * machine's), a database of their own created fresh and dropped after (the server tests' `serverDatabase`),
 * the scan nodes of a plan, and the users' bulk INSERT.
 */
import pg from 'pg';
import { serverDatabase } from '../../packages/postgres/test-server/server-database.js';

const ADMIN_URL = process.env['SCIMKIT_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Runs `body` with a pool on a database of its own, created empty before and dropped after, whatever happens. */
export async function withFreshDatabase<T>(poolSize: number, body: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const database = await serverDatabase(ADMIN_URL);
  const pool = new pg.Pool({ connectionString: database.url, max: poolSize });
  try {
    return await body(pool);
  } finally {
    await pool.end();
    await database.drop();
  }
}

/**
 * Runs `body` with a pool on the database `name`, created if it does not exist and kept after (a
 * bench that loads a million users once and reuses them).
 */
export async function withKeptDatabase<T>(name: string, poolSize: number, body: (pool: pg.Pool) => Promise<T>): Promise<T> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`DATABASE must be a plain lower-case name: ${name}`);
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rows.length === 0) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: poolSize });
  try {
    return await body(pool);
  } finally {
    await pool.end();
  }
}

/** The plan's scan nodes, e.g. "Index Scan (scim_resources_user_name) on scim_resources". */
export async function scanNodes(pool: pg.Pool, statement: { text: string; params: readonly unknown[] }): Promise<string> {
  const explained = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement.text}`, [...statement.params]);
  return explained.rows
    .map((row) => /(Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan)(?: using (\S+))? on (\S+)/.exec(row['QUERY PLAN']))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]}${m[2] === undefined ? '' : ` (${m[2]})`} on ${m[3]}`)
    .filter((text, index, all) => all.indexOf(text) === index)
    .join('; ');
}

/**
 * The INSERT of users `u<from>`…`u<to>` (SQL expressions) into `public.scim_resources`, built in SQL
 * (`json` as schema version 1 stored them, `jsonb` as version 2 does): typical Entra/Okta-shaped users,
 * deterministic from n.
 */
export function usersInsert(json: 'json' | 'jsonb', from: string, to: string): string {
  const object = `${json}_build_object`;
  const array = `${json}_build_array`;
  return `INSERT INTO public.scim_resources (tenant, resource_type, id, version, created, last_modified, data)
     SELECT '', 'User', 'u' || n, 'W/"1"', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', ${object}(
       'schemas', ${array}('urn:ietf:params:scim:schemas:core:2.0:User'),
       'id', 'u' || n, 'externalId', md5(n::text), 'userName', 'user' || n || '@example.com',
       'name', ${object}('givenName', 'Given' || (n % 100), 'familyName', 'Family' || (n % 1000)),
       'displayName', 'User ' || n, 'active', n % 10 <> 0, 'title', 'Engineer',
       'emails', ${array}(${object}('value', 'user' || n || '@example.com', 'type', 'work', 'primary', true)),
       'meta', ${object}('resourceType', 'User', 'created', '2026-01-01T00:00:00.000Z', 'lastModified', '2026-01-01T00:00:00.000Z', 'version', 'W/"1"'))
     FROM generate_series(${from}, ${to}) n`;
}
