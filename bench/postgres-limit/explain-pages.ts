/**
 * The plans behind the postgres-limit bench's pages: each page request goes through scimkit (Users
 * and Groups, as the bench's server) with its statements recorded, then every recorded statement
 * runs again under `EXPLAIN (ANALYZE, BUFFERS)`, and so do the hand-written limit's statements for
 * the same page. Prints each statement's plan and its execution time. Run it on a database the
 * bench loaded and kept (DATABASE):
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<kept database> npx tsx bench/postgres-limit/explain-pages.ts
 */
import pg from 'pg';
import { createScimServer, groupResourceType, userResourceType } from '@scimkit/core';
import { createPostgresStore, fromPgPool, type SqlClient } from '@scimkit/postgres';

const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'], max: 2 });
const recorded: { text: string; params: readonly unknown[] }[] = [];
const inner = fromPgPool(pool);
const client: SqlClient = {
  query: (text, params = [], name) => {
    recorded.push({ text, params });
    return inner.query(text, params, name);
  },
  transaction: (work) => inner.transaction(work),
};
const scim = createScimServer({ resourceTypes: [userResourceType, groupResourceType], store: createPostgresStore({ client }), logger: { log: () => undefined } });

const T = 'public.scim_resources';
const pages: { name: string; query: Record<string, string>; limit: { text: string; params: unknown[] }[] }[] = [
  {
    name: 'GET /Users?startIndex=1&count=100',
    query: { startIndex: '1', count: '100' },
    limit: [
      { text: `SELECT data FROM ${T} WHERE tenant = '' AND resource_type = 'User' ORDER BY seq LIMIT 100 OFFSET 0`, params: [] },
      { text: `SELECT count(*) AS n FROM ${T} WHERE tenant = '' AND resource_type = 'User'`, params: [] },
    ],
  },
  {
    name: 'filter=name.familyName sw "Family1"&sortBy=userName&count=100',
    query: { filter: 'name.familyName sw "Family1"', sortBy: 'userName', count: '100' },
    limit: [
      {
        text: `SELECT data FROM ${T} WHERE tenant = '' AND resource_type = 'User' AND lower(data->'name'->>'familyName') LIKE lower($1) || '%' ORDER BY lower(data->>'userName'), seq LIMIT 100 OFFSET 0`,
        params: ['Family1'],
      },
      { text: `SELECT count(*) AS n FROM ${T} WHERE tenant = '' AND resource_type = 'User' AND lower(data->'name'->>'familyName') LIKE lower($1) || '%'`, params: ['Family1'] },
    ],
  },
];

async function explain(statement: { text: string; params: readonly unknown[] }): Promise<void> {
  const plan = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, [...statement.params]);
  console.log(statement.text.replace(/\s+/g, ' ').slice(0, 600));
  for (const row of plan.rows) console.log(`    ${row['QUERY PLAN']}`);
  console.log();
}

for (const page of pages) {
  recorded.length = 0;
  const started = performance.now();
  const response = await scim.handle({ method: 'GET', path: '/Users', query: page.query, baseUrl: 'http://localhost/scim/v2' });
  const ms = performance.now() - started;
  const body = JSON.parse(response.body ?? '{}') as { totalResults?: number };
  const statements = [...recorded];
  console.log(`=== ${page.name}: ${response.status}, totalResults ${body.totalResults}, ${ms.toFixed(0)} ms through scimkit, ${statements.length} statement(s)\n`);
  console.log('--- scimkit');
  for (const statement of statements) await explain(statement);
  console.log('--- limit');
  for (const statement of page.limit) await explain(statement);
}
await pool.end();
