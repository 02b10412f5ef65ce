/**
 * @scimkit/sql against its limit: the own-tables example's server (on @scimkit/node,
 * bench/sql-limit/scimkit-server.ts) and a hand-written service (bare node:http + the dialect's
 * driver, a pool of the same size, one prepared statement a request, bench/sql-limit/limit-server.ts)
 * over the same users, teams and team_members rows, each in a child process, driven by autocannon
 * in interleaved rounds (each round in another order; medians). DIALECT: `postgres` (default),
 * `sqlite` (one database file, WAL, each server its own connection) or `mysql` (SCIMKIT_MYSQL_URL,
 * a database of its own). Reported per request: req/s, the CPU time it costs (the server process's
 * plus, on PostgreSQL, its backends', read from /proc by application_name; on MySQL/MariaDB the
 * whole mariadbd/mysqld process's, which other clients of the server add to; SQLite runs in the
 * process: on a shared machine the CPU per request moves much less than the req/s), p50 and the
 * statements run (counted by the servers, BEGIN and COMMIT included). Then, on PostgreSQL, pages
 * of 100 with their exact totalResults (PAGES=0 skips them).
 *
 * The servers run the built packages, as users do: @scimkit/core, node and sql are built first
 * (their `dist`, tsup) and the server scripts compiled and run under plain node
 * (bench/lib/limit-children.ts); FROM_SOURCE=1 runs them from the TypeScript sources under tsx.
 *
 * With BASELINE_REF (a git commit, e.g. the merge base), a third server runs scimkit as it was at
 * that commit (its packages extracted to a temporary directory and built there, or, with
 * FROM_SOURCE=1, run from their sources; bench/lib/baseline-tree.ts) in the same rounds: before and
 * after in one run. BASELINE (a directory holding another checkout of the repository, with
 * node_modules) does the same with that checkout.
 *
 * KEY=1 (mysql): `userName` mapped with a key column (`email_key`, filled and unique), as
 * docs/stores/own-tables.md asks on MySQL/MariaDB; without it the store's `caseExact: false` tests
 * on `userName` narrow by `LOWER(email)`, a scan of the table.
 *
 *   npx tsx bench/sql-limit.bench.ts    # DIALECT=postgres, KEY=, SCIMKIT_PG_URL, SCIMKIT_MYSQL_URL, USERS=100000, SECONDS=4, ROUNDS=3, CONNECTIONS=16, POOL=10, BASELINE_REF=, BASELINE=
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { createPool } from 'mysql2';
import type pg from 'pg';
import { fromBetterSqlite3, fromMysqlPool, fromPgPool } from '@scimkit/sql';
import { createAppSchema } from '../examples/own-tables/src/index.js';
import { withFreshDatabase } from './lib/postgres-bench.js';
import { backendMicros, buildWorkspaces, FROM_SOURCE, startChild, type Child } from './lib/limit-children.js';
import { baselineTree } from './lib/baseline-tree.js';

const USERS = Number(process.env['USERS'] ?? 100_000);
const SECONDS = Number(process.env['SECONDS'] ?? 4);
const ROUNDS = Number(process.env['ROUNDS'] ?? 3);
const CONNECTIONS = Number(process.env['CONNECTIONS'] ?? 16);
const POOL = Number(process.env['POOL'] ?? 10);
const BASELINE_REF = process.env['BASELINE_REF'];
const BASELINE = process.env['BASELINE'];
/** A directory: each server writes a CPU profile there (node --cpu-prof). CASES=0,3: only those cases. */
const PROFILE = process.env['PROFILE'];
const ONLY = process.env['CASES']?.split(',').map(Number);
const TEAMS = 20;
const root = fileURLToPath(new URL('..', import.meta.url));

const DIALECT = process.env['DIALECT'] ?? 'postgres';
const MYSQL_URL = process.env['SCIMKIT_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306/test';

/** The workspaces the scimkit server imports. */
const PACKAGES = ['@scimkit/core', '@scimkit/node', '@scimkit/sql'];

/** Starts one server script in a child process: on the built packages of the checkout `dir`, or (FROM_SOURCE=1) under tsx on its sources. */
const start = (name: string, script: string, url: string, dir: string, profile?: string): Promise<Child> =>
  startChild(name, script, { url, pool: POOL, tsconfig: join(dir, 'tsconfig.json'), ...(FROM_SOURCE ? {} : { built: dir }), ...(profile === undefined ? {} : { profile }) });

function stats(child: Child, reset = false): Promise<{ statements: number; cpuMicros: number }> {
  return new Promise((resolve) => {
    child.process.once('message', (m) => resolve(m as { statements: number; cpuMicros: number }));
    if (reset) child.process.send('reset');
    child.process.send('stats');
  });
}

const uuid = (prefix: number, i: number) => `${String(prefix).padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`;
const randomUser = () => Math.floor(Math.random() * USERS);
let unique = 0;

interface Case {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly ok: number;
  readonly request: (n: number) => { path: string; body?: string };
}

const CASES: readonly Case[] = [
  { name: 'GET /Users/{id} (with groups)', method: 'GET', ok: 200, request: () => ({ path: `/scim/v2/Users/${uuid(1, randomUser())}` }) },
  { name: 'GET /Users?filter=userName eq', method: 'GET', ok: 200, request: () => ({ path: `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "USER${randomUser()}@example.com"`)}` }) },
  {
    name: 'POST /Users',
    method: 'POST',
    ok: 201,
    request: (n) => ({
      path: '/scim/v2/Users',
      body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `new${n}-${process.pid}@example.com`, externalId: `new-ext-${n}`, name: { givenName: 'New', familyName: `User${n}` }, displayName: `New User ${n}`, active: true, emails: [{ value: `new${n}-${process.pid}@example.com`, type: 'work' }] }),
    }),
  },
  {
    name: 'PATCH /Users/{id} (replace displayName)',
    method: 'PATCH',
    ok: 204,
    request: (n) => ({ path: `/scim/v2/Users/${uuid(1, randomUser())}`, body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'displayName', value: `Renamed ${n}` }] }) }),
  },
];

interface Measured {
  rps: number;
  p50: number;
  requests: number;
  statements: number;
  cpuMicros: number;
  backendMicros: number;
  errors: number;
}

/** The database's side: where the servers connect, and the CPU time (µs) it spent for `child` so far. */
interface Backend {
  readonly url: string;
  backendMicros(child: Child): Promise<number>;
}

async function drive(database: Backend, child: Child, c: Case, seconds: number): Promise<Measured> {
  const before = await stats(child, true);
  const backendBefore = await database.backendMicros(child);
  let bad = 0;
  const result = await autocannon({
    url: child.base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: c.method,
        headers: { 'content-type': 'application/scim+json', accept: 'application/scim+json' },
        setupRequest: (request) => {
          const next = c.request(++unique);
          return { ...request, path: next.path, ...(next.body === undefined ? {} : { body: next.body }) };
        },
        onResponse: (status) => {
          if (status !== c.ok) bad++;
        },
      },
    ],
  });
  const after = await stats(child);
  const backend = (await database.backendMicros(child)) - backendBefore;
  return { rps: result.requests.average, p50: result.latency.p50, requests: result.requests.total, statements: after.statements, cpuMicros: after.cpuMicros - before.cpuMicros + backend, backendMicros: backend, errors: bad + result.errors + result.non2xx };
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function seed(pool: pg.Pool): Promise<void> {
  await createAppSchema(fromPgPool(pool).db, 'postgres');
  await pool.query(`INSERT INTO users (id, email, first_name, last_name, display_name, external_ref, job_title, department)
    SELECT ('00000001-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'user' || n || '@example.com', 'Given' || (n % 100), 'Family' || (n % 1000), 'User ' || n, 'ext-' || n, 'Engineer', 'Dept ' || (n % 10)
    FROM generate_series(0, ${USERS - 1}) AS n`);
  await pool.query(`INSERT INTO teams (id, name, created_at, updated_at) SELECT ('00000002-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'Team ' || n, now(), now() FROM generate_series(0, ${TEAMS - 1}) AS n`);
  // Every other user in one team: half the reads show groups.
  await pool.query(`INSERT INTO team_members (team_id, user_id) SELECT ('00000002-0000-4000-8000-' || lpad((n % ${TEAMS})::text, 12, '0'))::uuid, ('00000001-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid
    FROM generate_series(0, ${USERS - 1}, 2) AS n`);
  // The indexes docs/stores/own-tables.md asks the application for.
  await pool.query('CREATE UNIQUE INDEX users_email_folded ON users (lower(normalize(email, NFC)))');
  await pool.query('CREATE INDEX team_members_user ON team_members (user_id)');
  await pool.query('VACUUM ANALYZE');
}

const uuidSql = (prefix: number, n: string) => `CONCAT('0000000${prefix}-0000-4000-8000-', LPAD(${n}, 12, '0'))`;

/** The same rows on SQLite, in a file each server opens, with the index on the folded email scimkit's and the limit's `userName eq` use. */
async function seedSqlite(file: string): Promise<void> {
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  const connection = fromBetterSqlite3(database);
  await createAppSchema(connection.db, 'sqlite');
  database.transaction(() => {
    const user = database.prepare(`INSERT INTO users (id, email, first_name, last_name, display_name, external_ref, job_title, department) VALUES (?, ?, ?, ?, ?, ?, 'Engineer', ?)`);
    for (let n = 0; n < USERS; n++) user.run(uuid(1, n), `user${n}@example.com`, `Given${n % 100}`, `Family${n % 1000}`, `User ${n}`, `ext-${n}`, `Dept ${n % 10}`);
    const team = database.prepare(`INSERT INTO teams (id, name, created_at, updated_at) VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`);
    for (let n = 0; n < TEAMS; n++) team.run(uuid(2, n), `Team ${n}`);
    const member = database.prepare('INSERT INTO team_members (team_id, user_id) VALUES (?, ?)');
    for (let n = 0; n < USERS; n += 2) member.run(uuid(2, n % TEAMS), uuid(1, n));
  })();
  database.exec('CREATE UNIQUE INDEX users_email_folded ON users (scimkit_fold(email)); CREATE INDEX team_members_user ON team_members (user_id); ANALYZE');
  await connection.db.destroy();
}

/** The same rows on MySQL/MariaDB (`email` is unique under the table's `_ci` collation). */
async function seedMysql(url: string): Promise<void> {
  const raw = createPool({ uri: url, connectionLimit: 1, timezone: 'Z' });
  const connection = fromMysqlPool(raw);
  await createAppSchema(connection.db, 'mysql');
  const run = (text: string) => new Promise<void>((resolve, reject) => raw.query(text, (error) => (error ? reject(error) : resolve())));
  await run(`INSERT INTO users (id, email, first_name, last_name, display_name, external_ref, job_title, department)
    SELECT ${uuidSql(1, 'seq')}, CONCAT('user', seq, '@example.com'), CONCAT('Given', seq % 100), CONCAT('Family', seq % 1000), CONCAT('User ', seq), CONCAT('ext-', seq), 'Engineer', CONCAT('Dept ', seq % 10) FROM seq_0_to_${USERS - 1}`);
  await run(`INSERT INTO teams (id, name, created_at, updated_at) SELECT ${uuidSql(2, 'seq')}, CONCAT('Team ', seq), CURRENT_TIMESTAMP(3), CURRENT_TIMESTAMP(3) FROM seq_0_to_${TEAMS - 1}`);
  await run(`INSERT INTO team_members (team_id, user_id) SELECT ${uuidSql(2, `seq % ${TEAMS}`)}, ${uuidSql(1, 'seq')} FROM seq_0_to_${USERS - 1}_step_2`);
  await run('CREATE INDEX team_members_user ON team_members (user_id)');
  // KEY=1: the key column own-tables.md asks for on MySQL (the comparison key, which it cannot compute), filled and unique.
  if (process.env['KEY'] === '1') await run('ALTER TABLE users ADD COLUMN email_key VARCHAR(320) NULL, ADD UNIQUE INDEX users_email_key (email_key)');
  if (process.env['KEY'] === '1') await run('UPDATE users SET email_key = LOWER(email)');
  await run('ANALYZE TABLE users, teams, team_members');
  await connection.db.destroy();
}

/** CPU time (µs) of the whole MySQL/MariaDB server process, from /proc (0 where it cannot be read). */
function mysqldMicros(): number {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!/^\d+ \((mariadbd|mysqld)\)/.test(stat)) continue;
      const fields = stat.split(') ')[1]?.split(' ') ?? [];
      return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100;
    } catch {
      // Gone meanwhile, or not readable.
    }
  }
  return 0;
}

/** Pages of 100 with their exact totalResults: p50 of sequential requests, each server in turn. */
async function pages(pool: pg.Pool, children: readonly Child[]): Promise<void> {
  const total = Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM users')).rows[0]?.n);
  const family = Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM users WHERE starts_with(lower(normalize(last_name, NFC)), 'family1')`)).rows[0]?.n);
  console.log(`\nPages of 100 (p50 ms of 2 × 4 sequential requests; the limit pages by index, then count(*))\n`);
  console.log(`| request | ${children.map((c) => c.name).join(' | ')} |`);
  console.log(`|---|${children.map(() => '---').join('|')}|`);
  const cases = [
    { name: `GET /Users?startIndex=1&count=100 (totalResults ${total})`, path: '/scim/v2/Users?startIndex=1&count=100', total },
    { name: 'GET /Users?startIndex=50001&count=100', path: `/scim/v2/Users?startIndex=${Math.min(50_001, total - 99)}&count=100`, total },
    { name: `filter=name.familyName sw "Family1"&sortBy=userName&count=100 (totalResults ${family})`, path: `/scim/v2/Users?filter=${encodeURIComponent('name.familyName sw "Family1"')}&sortBy=userName&count=100`, total: family },
  ];
  for (const c of cases) {
    const ms = children.map(() => [] as number[]);
    for (let round = 0; round < 2; round++) {
      for (const [i, child] of children.entries()) {
        for (let n = 0; n < 4; n++) {
          const started = performance.now();
          const response = await fetch(child.base + c.path, { headers: { accept: 'application/scim+json' } });
          const body = (await response.json()) as { totalResults?: number; Resources?: unknown[] };
          ms[i]?.push(performance.now() - started);
          if (response.status !== 200 || body.totalResults !== c.total || body.Resources?.length !== Math.min(100, c.total)) throw new Error(`${child.name} ${c.path}: ${response.status}, totalResults ${body.totalResults}, expected ${c.total}`);
        }
      }
    }
    console.log(`| \`${c.name}\` | ${ms.map((m) => median(m).toFixed(0)).join(' | ')} |`);
  }
}

async function run(backend: Backend, pool: pg.Pool | undefined, loaded: number): Promise<void> {
  const url = backend.url;
  const children = [
    await start('limit', join(root, 'bench/sql-limit/limit-server.ts'), url, root, PROFILE),
    await start('scimkit', join(root, 'bench/sql-limit/scimkit-server.ts'), url, root, PROFILE),
  ];
  if (baseline !== undefined) children.push(await start(BASELINE_REF === undefined ? 'baseline' : `scimkit@${BASELINE_REF.slice(0, 7)}`, join(root, 'bench/sql-limit/scimkit-server.ts'), url, baseline));
  try {
    const [limit, ...others] = children as [Child, ...Child[]];
    const side = DIALECT === 'postgres' ? 'server + PostgreSQL' : DIALECT === 'mysql' ? 'server + the whole mariadbd' : 'server (SQLite in it)';
    console.log(`${DIALECT}: ${USERS.toLocaleString('en-US')} users (loaded in ${((performance.now() - loaded) / 1000).toFixed(1)} s), half in one of ${TEAMS} teams; ${CONNECTIONS} connections, pool ${POOL}, ${ROUNDS} interleaved rounds of ${SECONDS} s (medians)\n`);
    const names = [...others, limit].map((c) => c.name).join(' / ');
    console.log(`| request | req/s ${names} | CPU µs per request (${side}) ${names} | ${others.map((o) => `**limit ÷ ${o.name} (CPU)**`).join(' | ')} | p50 ms ${names} | statements per request ${names} |`);
    console.log(`|---|---|---|${others.map(() => '---|').join('')}---|---|`);
    for (const c of CASES.filter((_, i) => ONLY === undefined || ONLY.includes(i))) {
      for (const child of children) await drive(backend, child, c, 1); // warm-up: JIT, prepared statements
      const runs = new Map<Child, Measured[]>(children.map((child) => [child, []]));
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < children.length; i++) {
          const child = children[(i + round) % children.length] as Child;
          runs.get(child)?.push(await drive(backend, child, c, SECONDS));
        }
      }
      const total = (child: Child, key: keyof Measured) => (runs.get(child) ?? []).reduce((sum, m) => sum + m[key], 0);
      const cpu = (child: Child) => total(child, 'cpuMicros') / Math.max(1, total(child, 'requests'));
      const split = (child: Child) =>
        DIALECT === 'sqlite'
          ? (total(child, 'cpuMicros') / Math.max(1, total(child, 'requests'))).toFixed(0)
          : `${((total(child, 'cpuMicros') - total(child, 'backendMicros')) / Math.max(1, total(child, 'requests'))).toFixed(0)} + ${(total(child, 'backendMicros') / Math.max(1, total(child, 'requests'))).toFixed(0)}`;
      const per = (child: Child) => (total(child, 'statements') / Math.max(1, total(child, 'requests'))).toFixed(2);
      const order = [...others, limit];
      console.log(
        `| \`${c.name}\` | ${order.map((o) => Math.round(median((runs.get(o) ?? []).map((m) => m.rps)))).join(' / ')} | ${order.map(split).join(' / ')} | ${others.map((o) => `**${(cpu(limit) / cpu(o)).toFixed(2)}**`).join(' | ')} | ${order.map((o) => median((runs.get(o) ?? []).map((m) => m.p50))).join(' / ')} | ${order.map(per).join(' / ')} |`,
      );
      for (const child of children) if (total(child, 'errors') > 0) console.log(`  (${child.name}: ${total(child, 'errors')} unexpected answers)`);
    }
    if (pool !== undefined && process.env['PAGES'] !== '0') await pages(pool, children);
  } finally {
    // 'exit' (not a signal): a profiling child writes its profile as it exits.
    for (const child of children) child.process.send('exit');
  }
}

// The packages the children import, built before the database is loaded (its time is reported).
if (!FROM_SOURCE) buildWorkspaces(root, PACKAGES);
const baselineRef = BASELINE_REF === undefined ? undefined : baselineTree(root, BASELINE_REF, PACKAGES.map((p) => p.replace('@scimkit/', '')), FROM_SOURCE);
const baseline = baselineRef ?? BASELINE;
if (BASELINE !== undefined && baselineRef === undefined && !FROM_SOURCE) buildWorkspaces(BASELINE, PACKAGES);
process.on('exit', () => {
  if (baselineRef !== undefined) rmSync(baselineRef, { recursive: true, force: true });
});
if (DIALECT === 'sqlite') {
  const directory = mkdtempSync(join(tmpdir(), 'sql-limit-'));
  try {
    const loaded = performance.now();
    const file = join(directory, 'bench.db');
    await seedSqlite(file);
    await run({ url: file, backendMicros: async () => 0 }, undefined, loaded);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
} else if (DIALECT === 'mysql') {
  const name = `sql_limit_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const admin = createPool({ uri: MYSQL_URL, connectionLimit: 1 });
  const adminRun = (text: string) => new Promise<void>((resolve, reject) => admin.query(text, (error) => (error ? reject(error) : resolve())));
  await adminRun(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
  try {
    const loaded = performance.now();
    const url = new URL(MYSQL_URL);
    url.pathname = `/${name}`;
    await seedMysql(url.toString());
    await run({ url: url.toString(), backendMicros: async () => mysqldMicros() }, undefined, loaded);
  } finally {
    await adminRun(`DROP DATABASE IF EXISTS ${name}`);
    await new Promise<void>((resolve) => admin.end(() => resolve()));
  }
} else {
  await withFreshDatabase(4, async (pool) => {
    const loaded = performance.now();
    await seed(pool);
    const url = (pool.options as { connectionString: string }).connectionString;
    await run({ url, backendMicros: (child) => backendMicros(pool, child) }, pool, loaded);
  });
}
