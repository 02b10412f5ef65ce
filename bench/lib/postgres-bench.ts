/**
 * What the PostgreSQL benches share: the server they use (`SCIMKIT_PG_URL`, default the CI
 * machine's), a database of their own created fresh and dropped after, and the scan nodes of a plan.
 */
import pg from 'pg';

export const ADMIN_URL = process.env['SCIMKIT_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

/** Runs `body` with a pool on database `name`, created empty before and dropped after, whatever happens. */
export async function withFreshDatabase<T>(name: string, poolSize: number, body: (pool: pg.Pool) => Promise<T>): Promise<T> {
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: poolSize });
  try {
    return await body(pool);
  } finally {
    await pool.end();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
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
