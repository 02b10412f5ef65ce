import pg from 'pg';
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
await admin.connect();
const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = 'sqlpat_explain'");
if (exists.rows.length === 0) await admin.query('CREATE DATABASE sqlpat_explain');
await admin.end();
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/sqlpat_explain' });
await c.connect();
const seeded = await c.query("SELECT to_regclass('users') AS r");
if (seeded.rows[0].r === null) {
  const { createAppSchema } = await import('./examples/own-tables/src/index.js');
  const { fromPgPool } = await import('@scimkit/sql');
  const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/sqlpat_explain' });
  await createAppSchema(fromPgPool(pool).db, 'postgres');
  await pool.end();
  await c.query(`INSERT INTO users (id, email, first_name, last_name, display_name, external_ref, job_title, department)
    SELECT ('00000001-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'user' || n || '@example.com', 'Given' || (n % 100), 'Family' || (n % 1000), 'User ' || n, 'ext-' || n, 'Engineer', 'Dept ' || (n % 10)
    FROM generate_series(0, 99999) AS n`);
  await c.query(`INSERT INTO teams (id, name, created_at, updated_at) SELECT ('00000002-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'Team ' || n, now(), now() FROM generate_series(0, 19) AS n`);
  await c.query(`INSERT INTO team_members (team_id, user_id) SELECT ('00000002-0000-4000-8000-' || lpad((n % 20)::text, 12, '0'))::uuid, ('00000001-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid FROM generate_series(0, 99999, 2) AS n`);
  await c.query('CREATE UNIQUE INDEX users_email_folded ON users (lower(normalize(email, NFC)))');
  await c.query('CREATE INDEX team_members_user ON team_members (user_id)');
  await c.query('VACUUM ANALYZE');
}
const text = process.argv[2]!;
const params = JSON.parse(process.argv[3] ?? '[]');
await c.query(`PREPARE q AS ${text}`);
for (let i = 0; i < 7; i++) await c.query(`EXECUTE q(${params.map((p: unknown) => `'${p}'`).join(',')})`);
const plan = await c.query(`EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) EXECUTE q(${params.map((p: unknown) => `'${p}'`).join(',')})`);
console.log(plan.rows.map((r: any) => r['QUERY PLAN']).join('\n'));
await c.end();
