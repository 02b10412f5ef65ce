/**
 * scimkit on PostgreSQL against its limit: a hand-written service (bare node:http + a pg Pool of the
 * same size, one prepared statement a request, bench/postgres-limit/limit-server.ts) answering the
 * same requests over the same scim_resources rows. Both servers run in child processes on one fresh
 * database; autocannon drives them in interleaved rounds (limit, scimkit, …; each round in another
 * order) and the median is reported, with p50 latencies, the statements each sends per request
 * (counted by the servers themselves: pg_stat_statements needs a server restart to load), and the
 * CPU time each request costs: the server process's (process.cpuUsage) plus its PostgreSQL backends'
 * (/proc/<pid>/stat of the pool's connections, found by application_name). On a machine shared with
 * other work the req/s of a run moves with the load; the CPU per request much less. Then the initial sync
 * (POSTs of new users from 16 clients) and pages of 100 with their exact totalResults.
 *
 * The servers run the built packages, as users do: @scimkit/core, node and postgres are built first
 * (their `dist`, tsup) and the server scripts compiled and run under plain node
 * (bench/lib/limit-children.ts). FROM_SOURCE=1 runs them from the TypeScript sources under tsx
 * instead; FROM_SOURCE=also adds a server `scimkit-tsx` (the sources under tsx) to the rounds.
 *
 * With BASELINE_REF (a git commit, e.g. the merge base), a third server runs scimkit as it was at
 * that commit (its packages extracted to a temporary directory and built there, or, with
 * FROM_SOURCE=1, run from their sources) in the same rounds: before and after in one run.
 *
 * With DATABASE (a name), the run uses that database on the server, creating and loading it only
 * the first time and keeping it after (a million users take minutes to load: load them once);
 * `migrate()` still runs, so a database of an earlier schema version is taken to the current one.
 * With PROFILE (a directory), the scimkit server and the limit each write a CPU profile (node
 * --cpu-prof) in a directory of their own there, `scimkit` and `limit`.
 *
 *   npm run bench -- postgres-limit
 *   USERS=1000000 SECONDS=5 ROUNDS=2 CONNECTIONS=16 SYNC=10000 BASELINE_REF=<commit> npm run bench -- postgres-limit
 *   USERS=1000000 DATABASE=scimkit_bench_1m npm run bench -- postgres-limit
 */
import { rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Request as LoadRequest } from 'autocannon';
import pg from 'pg';
import { fromPgPool, migrate, recountResources } from '@scimkit/postgres';
import { usersInsert, withFreshDatabase, withKeptDatabase } from './lib/postgres-bench.js';
import { backendMicros, buildWorkspaces, FROM_SOURCE, startChild, type Child } from './lib/limit-children.js';
import { baselineTree } from './lib/baseline-tree.js';

const USERS = Number(process.env['USERS'] ?? 100_000);
const SECONDS = Number(process.env['SECONDS'] ?? 4);
const ROUNDS = Number(process.env['ROUNDS'] ?? 2);
const CONNECTIONS = Number(process.env['CONNECTIONS'] ?? 16);
const SYNC = Number(process.env['SYNC'] ?? 10_000);
const POOL = Number(process.env['POOL'] ?? 10);
const BASELINE_REF = process.env['BASELINE_REF'];
const DATABASE = process.env['DATABASE'];
const PROFILE = process.env['PROFILE'];
/** FROM_SOURCE=also: a fourth server, scimkit from its sources under tsx, beside the built one. */
const ALSO_SOURCE = process.env['FROM_SOURCE'] === 'also';
/** The workspaces a scimkit server imports (and the baseline's packages). */
const PACKAGES = ['core', 'node', 'postgres'] as const;
/**
 * CASES=0,2: only those request cases (0 GET by id, 1 userName eq, 2 POST, 3 PATCH of a random user,
 * 4 GET then PATCH of the same user: figures per request, the GET and the PATCH counted alike);
 * SYNC=0 and PAGES=0 skip those parts.
 */
const ONLY = process.env['CASES']?.split(',').map(Number);
const PAGES = process.env['PAGES'] !== '0';
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Starts one server script in a child process: on the built packages of the checkout `dir`, or
 * (`source`) under tsx, `dir`'s tsconfig giving the @scimkit/* sources.
 */
const start = (name: string, script: string, url: string, dir = root, profile?: string, source = FROM_SOURCE): Promise<Child> =>
  startChild(name, script, { url, pool: POOL, tsconfig: join(dir, 'tsconfig.json'), ...(source ? {} : { built: dir }), ...(profile === undefined ? {} : { profile }) });

interface Stats {
  readonly statements: number;
  readonly cpuMicros: number;
}

function ask(child: Child, message: 'reset' | 'stats'): Promise<Stats> {
  if (message === 'reset') {
    child.process.send('reset');
    return Promise.resolve({ statements: 0, cpuMicros: 0 });
  }
  return new Promise((resolve) => {
    child.process.once('message', (m) => resolve(m as Stats));
    child.process.send('stats');
  });
}


interface Case {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PATCH';
  /** The request of one call, `n` a counter unique in the whole run. */
  readonly request: (n: number) => { path: string; body?: string };
  readonly ok: number;
  /**
   * Each connection sends this request first and `request` after it, for the same user (`user`
   * is the user the first request picked): a client that reads before it writes.
   */
  readonly before?: { readonly method: 'GET'; readonly request: () => { path: string; user: number } };
}

let unique = 0;
const randomUser = (): number => 1 + Math.floor(Math.random() * USERS);
const SCIM_JSON = { 'content-type': 'application/scim+json', accept: 'application/scim+json' };

const patchBody = (n: number): string =>
  JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'displayName', value: `Renamed ${n}` }] });

const CASES: readonly Case[] = [
  { name: 'GET /Users/{id}', method: 'GET', ok: 200, request: () => ({ path: `/scim/v2/Users/u${randomUser()}` }) },
  {
    name: 'GET /Users?filter=userName eq',
    method: 'GET',
    ok: 200,
    request: () => ({ path: `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "USER${randomUser()}@example.com"`)}` }),
  },
  {
    name: 'POST /Users',
    method: 'POST',
    ok: 201,
    request: (n) => ({ path: '/scim/v2/Users', body: JSON.stringify(newUser(n)) }),
  },
  {
    name: 'PATCH /Users/{id} (replace displayName)',
    method: 'PATCH',
    ok: 200,
    request: (n) => ({ path: `/scim/v2/Users/u${randomUser()}`, body: patchBody(n) }),
  },
  {
    // What identity providers do (Okta reads a user before it writes it; Entra looks it up by userName):
    // the PATCH starts from the version the GET just read (recent versions), one statement.
    name: 'GET /Users/{id}, then PATCH it (replace displayName)',
    method: 'PATCH',
    ok: 200,
    before: { method: 'GET', request: () => { const user = randomUser(); return { path: `/scim/v2/Users/u${user}`, user }; } },
    request: (n) => ({ path: '', body: patchBody(n) }),
  },
];

function newUser(n: number): Record<string, unknown> {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: `new${n}-${process.pid}@example.com`,
    externalId: `new-ext-${n}`,
    name: { givenName: 'New', familyName: `User${n}` },
    displayName: `New User ${n}`,
    active: true,
    emails: [{ value: `new${n}@example.com`, type: 'work', primary: true }],
  };
}

interface Measured {
  readonly rps: number;
  readonly p50: number;
  readonly requests: number;
  readonly statements: number;
  /** CPU time of the server process and of its PostgreSQL backends, over the run. */
  readonly nodeMicros: number;
  readonly backendMicros: number;
  readonly errors: number;
}

/** One autocannon run: `duration` seconds, or `amount` requests. */
async function drive(pool: pg.Pool, child: Child, c: Case, options: { duration?: number; amount?: number }): Promise<Measured> {
  await ask(child, 'reset');
  const nodeBefore = (await ask(child, 'stats')).cpuMicros;
  const backendBefore = await backendMicros(pool, child);
  let bad = 0;
  const started = performance.now();
  const result = await autocannon({
    url: child.base,
    connections: CONNECTIONS,
    ...(options.amount === undefined ? { duration: options.duration ?? SECONDS } : { amount: options.amount }),
    requests: [
      ...(c.before === undefined
        ? []
        : [
            {
              method: c.before.method,
              headers: SCIM_JSON,
              setupRequest: (request: LoadRequest, context: Record<string, unknown>) => {
                const first = (c.before as NonNullable<Case['before']>).request();
                context['path'] = first.path;
                return { ...request, path: first.path };
              },
              onResponse: (status: number) => {
                if (status !== 200) bad++;
              },
            },
          ]),
      {
        method: c.method,
        headers: SCIM_JSON,
        setupRequest: (request: LoadRequest, context: Record<string, unknown>) => {
          const next = c.request(++unique);
          const path = c.before === undefined ? next.path : (context['path'] as string);
          return { ...request, path, ...(next.body === undefined ? {} : { body: next.body }) };
        },
        onResponse: (status: number) => {
          if (status !== c.ok) bad++;
        },
      },
    ],
  });
  const elapsed = (performance.now() - started) / 1000;
  const stats = await ask(child, 'stats');
  const backend = (await backendMicros(pool, child)) - backendBefore;
  const requests = result.requests.total;
  // autocannon's own duration is whole seconds: an `amount` run is timed here.
  return {
    rps: requests / (options.amount === undefined ? result.duration || elapsed : elapsed),
    p50: result.latency.p50,
    requests,
    statements: stats.statements,
    nodeMicros: stats.cpuMicros - nodeBefore,
    backendMicros: backend,
    errors: bad + result.errors + result.non2xx,
  };
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** The latency (ms, median of `times`) of one GET, sequentially, checking totalResults. */
async function latency(child: Child, path: string, total: number, times = 7): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const response = await fetch(child.base + path, { headers: SCIM_JSON });
    const body = (await response.json()) as { totalResults?: number; Resources?: unknown[] };
    ms.push(performance.now() - started);
    if (response.status !== 200 || body.totalResults !== total || (body.Resources ?? []).length !== Math.min(100, total)) {
      throw new Error(`${child.name} ${path}: ${response.status}, totalResults ${body.totalResults}, expected ${total}`);
    }
  }
  return median(ms.slice(1));
}

async function load(pool: pg.Pool): Promise<number> {
  const started = performance.now();
  if (DATABASE !== undefined) {
    const seeded = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM public.scim_resources WHERE resource_type = 'User' AND id = 'u' || ${USERS}`);
    if (Number(seeded.rows[0]?.n) > 0) return 0;
  }
  await pool.query(usersInsert('jsonb', '1', String(USERS)));
  // Statistics first: the claims' foreign-key checks are planned from them (an index probe, not a scan per row).
  await pool.query('ANALYZE public.scim_resources');
  // The userName claims a store that created the users would hold.
  await pool.query(
    `INSERT INTO public.scim_unique_values (tenant, resource_type, attribute, key, id)
     SELECT tenant, resource_type, 'userName', 's:' || lower(normalize(data->>'userName', NFC)), id FROM public.scim_resources WHERE resource_type = 'User'`,
  );
  // The same keys where a store of schema version 6 keeps them, in the row (BASELINE_REF may be older).
  await pool.query(`UPDATE public.scim_resources SET unique_key = 's:' || lower(normalize(data->>'userName', NFC)) WHERE resource_type = 'User'`);
  // Rows inserted by hand: the counts the store keeps (schema version 8) are taken again.
  await recountResources(fromPgPool(pool));
  await pool.query('VACUUM ANALYZE');
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  if (!FROM_SOURCE) buildWorkspaces(root, PACKAGES.map((p) => `@scimkit/${p}`));
  const baseline = BASELINE_REF === undefined ? undefined : baselineTree(root, BASELINE_REF, PACKAGES, FROM_SOURCE);
  const within = DATABASE === undefined ? withFreshDatabase : (size: number, body: (pool: pg.Pool) => Promise<void>) => withKeptDatabase(DATABASE, size, body);
  await within(4, async (pool) => {
    await migrate(fromPgPool(pool));
    const seconds = await load(pool);
    const url = (pool.options as { connectionString: string }).connectionString;
    const children: Child[] = [];
    try {
      children.push(await start('limit', here('./postgres-limit/limit-server.ts'), url, root, PROFILE === undefined ? undefined : join(PROFILE, 'limit')));
      children.push(await start('scimkit', here('./postgres-limit/scimkit-server.ts'), url, root, PROFILE === undefined ? undefined : join(PROFILE, 'scimkit')));
      if (baseline !== undefined) children.push(await start(`scimkit@${BASELINE_REF?.slice(0, 7)}`, here('./postgres-limit/scimkit-server.ts'), url, baseline));
      if (ALSO_SOURCE) children.push(await start('scimkit-tsx', here('./postgres-limit/scimkit-server.ts'), url, root, undefined, true));
      const [limit, ...others] = children as [Child, ...Child[]];
      console.log(`${USERS.toLocaleString('en-US')} users (loaded in ${seconds.toFixed(1)} s), ${CONNECTIONS} connections, pool ${POOL}, ${ROUNDS} interleaved rounds of ${SECONDS} s (median)\n`);
      // The CPU columns: µs of CPU per request, the server process and its PostgreSQL backends together
      // (what the request costs the machine, whatever else runs on it), and the limit's over scimkit's.
      const cpu = (m: Measured): number => (m.nodeMicros + m.backendMicros) / Math.max(1, m.requests);
      const header = [
        'request',
        'limit req/s',
        ...others.map((o) => `${o.name} req/s`),
        ...others.map((o) => `${o.name} ÷ limit (req/s)`),
        `CPU µs per request, server + PostgreSQL: ${others.map((o) => o.name).join(' / ')} / limit`,
        ...others.map((o) => `**limit ÷ ${o.name} (CPU)**`),
        `p50 ms ${others.map((o) => o.name).join(' / ')} / limit`,
        `statements per request ${others.map((o) => o.name).join(' / ')} / limit`,
      ];
      console.log(`| ${header.join(' | ')} |`);
      console.log(`|${header.map(() => '---').join('|')}|`);
      const results: Record<string, Record<string, Measured>> = {};
      const sum = (m: readonly Measured[], key: 'requests' | 'statements' | 'nodeMicros' | 'backendMicros' | 'errors'): number => m.reduce((total, x) => total + x[key], 0);
      const summarize = (m: readonly Measured[]): Measured => ({
        rps: median(m.map((x) => x.rps)),
        p50: median(m.map((x) => x.p50)),
        requests: sum(m, 'requests'),
        statements: sum(m, 'statements'),
        nodeMicros: sum(m, 'nodeMicros'),
        backendMicros: sum(m, 'backendMicros'),
        errors: sum(m, 'errors'),
      });
      for (const c of CASES.filter((_, i) => ONLY === undefined || ONLY.includes(i))) {
        for (const child of children) await drive(pool, child, c, { duration: 1 }); // warm-up: JIT, prepared statements
        const runs = new Map<Child, Measured[]>(children.map((child) => [child, []]));
        // Each round in another order, so that no server always runs after the same one (autovacuum, checkpoints).
        for (let round = 0; round < ROUNDS; round++) {
          for (let i = 0; i < children.length; i++) {
            const child = children[(i + round) % children.length] as Child;
            runs.get(child)?.push(await drive(pool, child, c, { duration: SECONDS }));
          }
        }
        const summary = new Map(children.map((child) => [child, summarize(runs.get(child) ?? [])]));
        const l = summary.get(limit) as Measured;
        const of = (o: Child): Measured => summary.get(o) as Measured;
        const per = (m: Measured) => (m.statements / Math.max(1, m.requests)).toFixed(2);
        const row = [
          `\`${c.name}\``,
          Math.round(l.rps).toLocaleString('en-US'),
          ...others.map((o) => Math.round(of(o).rps).toLocaleString('en-US')),
          ...others.map((o) => (of(o).rps / l.rps).toFixed(2)),
          [...others.map((o) => of(o)), l].map((m) => `${(m.nodeMicros / Math.max(1, m.requests)).toFixed(0)} + ${(m.backendMicros / Math.max(1, m.requests)).toFixed(0)}`).join(' / '),
          ...others.map((o) => `**${(cpu(l) / cpu(of(o))).toFixed(2)}**`),
          [...others.map((o) => of(o).p50), l.p50].join(' / '),
          [...others.map((o) => per(of(o))), per(l)].join(' / '),
        ];
        console.log(`| ${row.join(' | ')} |`);
        results[c.name] = Object.fromEntries([...summary].map(([child, m]) => [child.name, m]));
        for (const [child, m] of summary) if (m.errors > 0) console.log(`  (${child.name}: ${m.errors} unexpected answers)`);
      }

      // Initial sync: SYNC new users from CONNECTIONS clients, each server in turn.
      // SYNC=0 and PAGES=0 print nothing of their parts, not even a header.
      if (SYNC > 0) {
        console.log(`\nInitial sync: ${SYNC.toLocaleString('en-US')} POST /Users from ${CONNECTIONS} clients\n`);
        console.log('| server | users/s | ÷ limit (users/s) | CPU µs per user (server + PostgreSQL) | **limit ÷ this (CPU)** | a million users in |');
        console.log('|---|---|---|---|---|---|');
      }
      const post = CASES[2] as Case;
      const sync = new Map<Child, Measured>();
      // Two halves, the second in another order: the server that runs right after another's inserts
      // writes out their dirty buffers (and meets their autovacuum).
      const halves = new Map<Child, Measured[]>(children.map((child) => [child, []]));
      for (let round = 0; round < (SYNC > 0 ? 2 : 0); round++) {
        for (let i = 0; i < children.length; i++) {
          const child = children[(i + round) % children.length] as Child;
          halves.get(child)?.push(await drive(pool, child, post, { amount: Math.ceil(SYNC / 2) }));
        }
      }
      for (const [child, m] of halves) {
        if (m.length === 0) continue;
        const seconds = m.reduce((total, x) => total + x.requests / x.rps, 0);
        sync.set(child, { ...summarize(m), rps: sum(m, 'requests') / seconds });
      }
      const limitSync = sync.get(limit) as Measured;
      for (const child of SYNC > 0 ? children : []) {
        const m = sync.get(child) as Measured;
        console.log(`| ${child.name} | ${Math.round(m.rps).toLocaleString('en-US')} | ${(m.rps / limitSync.rps).toFixed(2)} | ${cpu(m).toFixed(0)} | **${(cpu(limitSync) / cpu(m)).toFixed(2)}** | ${(1_000_000 / m.rps / 60).toFixed(1)} min |`);
      }
      results['initial sync'] = Object.fromEntries([...sync].map(([child, m]) => [child.name, m]));

      // Pages of 100 with their exact totalResults (the users loaded plus those the POSTs added).
      // The limit server's INSERTs (and a BASELINE_REF older than schema version 8) created users
      // without counting them: count them again before the pages compare totals.
      if (PAGES) await recountResources(fromPgPool(pool));
      const total = PAGES ? Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM public.scim_resources WHERE resource_type = 'User'`)).rows[0]?.n) : 0;
      const family = PAGES ? Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM public.scim_resources WHERE resource_type = 'User' AND data->'name'->>'familyName' LIKE 'Family1%'`)).rows[0]?.n) : 0;
      if (PAGES) {
        console.log(`\nPages of 100 (p50 of 6 sequential requests, ms; the limit pages by index, then count(*))\n`);
        console.log(`| request | limit | ${others.map((o) => o.name).join(' | ')} | ${others.map((o) => `**${o.name} ÷ limit**`).join(' | ')} |`);
        console.log(`|---|---|${others.map(() => '---|---').join('|')}|`);
      }
      const pages = [
        { name: `GET /Users?startIndex=1&count=100 (totalResults ${total})`, path: '/scim/v2/Users?startIndex=1&count=100', total },
        { name: `GET /Users?startIndex=50001&count=100`, path: `/scim/v2/Users?startIndex=${Math.min(50_001, total - 99)}&count=100`, total },
        { name: `filter=name.familyName sw "Family1"&sortBy=userName&count=100 (totalResults ${family})`, path: `/scim/v2/Users?filter=${encodeURIComponent('name.familyName sw "Family1"')}&sortBy=userName&count=100`, total: family },
      ];
      for (const page of PAGES ? pages : []) {
        const ms: number[] = [];
        // Interleaved: limit, scimkit, …, twice.
        const runs = children.map(() => [] as number[]);
        for (let round = 0; round < 2; round++) for (const [i, child] of children.entries()) runs[i]?.push(await latency(child, page.path, page.total, 4));
        for (const r of runs) ms.push(median(r));
        const [l = Number.NaN, ...rest] = ms;
        console.log(`| \`${page.name}\` | ${ms.map((m) => m.toFixed(0)).join(' | ')} | ${rest.map((m) => `**${(m / l).toFixed(2)}**`).join(' | ')} |`);
        results[page.name] = Object.fromEntries(children.map((o, i) => [o.name, { p50: ms[i] } as Measured]));
      }
      mkdirSync(join(root, 'bench/results'), { recursive: true });
      writeFileSync(join(root, 'bench/results/postgres-limit.json'), JSON.stringify({ users: USERS, connections: CONNECTIONS, pool: POOL, seconds: SECONDS, rounds: ROUNDS, results }, null, 2));
    } finally {
      // A normal exit, so that a CPU profile is written.
      await Promise.all(children.map((child) => new Promise((resolve) => {
        child.process.once('exit', resolve);
        child.process.send('exit');
        setTimeout(() => child.process.kill(), 10_000).unref();
      })));
      if (baseline !== undefined) rmSync(baseline, { recursive: true, force: true });
    }
  });
}

await main();
