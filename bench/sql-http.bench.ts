/**
 * @scimkit/sql over HTTP on PostgreSQL (examples/own-tables on Express) against a hand-written Express
 * + Kysely handler doing the same SQL over the same tables, measured in one run, rounds alternating:
 * GET by id (with `groups`), `userName eq`, a page of 100 users with `groups`, and a PATCH adding one
 * member to a team. Then a filter the mapping cannot translate over 50,000 users: the time it takes
 * to answer or refuse. Each case has a discarded warm-up round on both servers. Bounded: about a
 * minute and a half with the defaults.
 *
 *   npx tsx bench/sql-http.bench.ts     # SCIMKIT_PG_URL, USERS=2000, SECONDS=2, CONCURRENCY=8, ROUNDS=3, SCAN_USERS=50000
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { sql, type Kysely } from 'kysely';
import { fromPgPool } from '@scimkit/sql';
import { createAppSchema, createOwnTablesApp } from '../examples/own-tables/src/index.js';
import { withFreshDatabase } from './lib/postgres-bench.js';

const USERS = Number(process.env['USERS'] ?? 2000);
const SECONDS = Number(process.env['SECONDS'] ?? 2);
const CONCURRENCY = Number(process.env['CONCURRENCY'] ?? 8);
const ROUNDS = Number(process.env['ROUNDS'] ?? 3);
const SCAN_USERS = Number(process.env['SCAN_USERS'] ?? 50_000);
const TEAMS = 20;

const uuid = (prefix: number, i: number) => `${String(prefix).padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`;

async function seed(db: Kysely<any>, users: number): Promise<void> {
  await sql`INSERT INTO users (id, email, first_name, last_name, display_name, external_ref, job_title, department)
    SELECT ('00000001-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'user' || n || '@example.com', 'Given' || (n % 100), 'Family' || (n % 1000),
           'User ' || n, 'ext-' || n, 'Engineer', 'Dept ' || (n % 10)
    FROM generate_series(0, ${users - 1}) AS n`.execute(db);
  await sql`INSERT INTO teams (id, name, created_at, updated_at) SELECT ('00000002-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'Team ' || n, now(), now() FROM generate_series(0, ${TEAMS - 1}) AS n`.execute(db);
  // Every user in one team (n % TEAMS).
  await sql`INSERT INTO team_members (team_id, user_id) SELECT ('00000002-0000-4000-8000-' || lpad((n % ${TEAMS})::text, 12, '0'))::uuid, ('00000001-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid
    FROM generate_series(0, ${users - 1}) AS n`.execute(db);
  await sql`CREATE UNIQUE INDEX IF NOT EXISTS users_email_key_folded ON users (lower(normalize(email, NFC)))`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS team_members_user ON team_members (user_id)`.execute(db);
  await sql`ANALYZE`.execute(db);
}

/** The same SQL written by hand: a row (or page), its groups in one query, JSON out; a member row in and the team's updated_at. */
function handWritten(db: Kysely<any>): express.Express {
  const app = express();
  const userJson = (u: any, groups: any[]) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: u.id,
    userName: u.email,
    name: { givenName: u.first_name, familyName: u.last_name },
    displayName: u.display_name,
    active: u.is_active,
    emails: [{ value: u.email, type: 'work' }],
    externalId: u.external_ref,
    title: u.job_title,
    ...(groups.length === 0 ? {} : { groups: groups.map((g) => ({ value: g.id, display: g.name, type: 'direct' })) }),
    meta: { resourceType: 'User', created: new Date(u.created_at).toISOString(), lastModified: new Date(u.updated_at).toISOString(), version: `W/"${new Date(u.updated_at).getTime()}"` },
  });
  const groupsOf = async (ids: string[]) => {
    if (ids.length === 0) return new Map<string, any[]>();
    const rows = (await sql<any>`SELECT m.user_id, t.id, t.name FROM team_members m JOIN teams t ON t.id = m.team_id WHERE m.user_id IN (${sql.join(ids)})`.execute(db)).rows;
    const out = new Map<string, any[]>();
    for (const row of rows) out.set(row.user_id, [...(out.get(row.user_id) ?? []), row]);
    return out;
  };
  app.get('/scim/v2/Users/:id', async (req, res) => {
    const row = (await sql<any>`SELECT * FROM users WHERE id = ${req.params.id}`.execute(db)).rows[0];
    if (row === undefined) return void res.status(404).end();
    res.type('application/scim+json').send(JSON.stringify(userJson(row, (await groupsOf([row.id])).get(row.id) ?? [])));
  });
  app.get('/scim/v2/Users', async (req, res) => {
    const filter = /^userName eq "(.*)"$/.exec(String(req.query['filter'] ?? ''));
    const count = Number(req.query['count'] ?? 100);
    const where = filter === null ? sql`TRUE` : sql`lower(normalize(email, NFC)) = ${String(filter[1]).normalize('NFC').toLowerCase()}`;
    const total = Number((await sql<any>`SELECT count(*) AS n FROM users WHERE ${where}`.execute(db)).rows[0].n);
    const rows = (await sql<any>`SELECT * FROM users WHERE ${where} ORDER BY id LIMIT ${count}`.execute(db)).rows;
    const groups = await groupsOf(rows.map((r) => r.id));
    res.type('application/scim+json').send(JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: total, startIndex: 1, itemsPerPage: rows.length, Resources: rows.map((r) => userJson(r, groups.get(r.id) ?? [])) }));
  });
  app.patch('/scim/v2/Groups/:id', express.json({ type: '*/*' }), async (req, res) => {
    const value = (req.body as any)?.Operations?.[0]?.value?.[0]?.value;
    await db.transaction().execute(async (trx) => {
      await sql`INSERT INTO team_members (team_id, user_id) VALUES (${req.params.id}, ${value}) ON CONFLICT DO NOTHING`.execute(trx);
      await sql`UPDATE teams SET updated_at = now() WHERE id = ${req.params.id}`.execute(trx);
    });
    res.status(204).end();
  });
  return app;
}

async function listen(app: express.Express): Promise<{ server: Server; base: string }> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/scim/v2` };
}

/** Requests per second with CONCURRENCY in flight for SECONDS; every answer must be 2xx. */
async function measure(base: string, request: (i: number) => [string, RequestInit?]): Promise<number> {
  const until = performance.now() + SECONDS * 1000;
  let done = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const [path, init] = request(next++);
        const response = await fetch(`${base}${path}`, init);
        await response.arrayBuffer();
        if (response.status >= 300) throw new Error(`${path}: ${response.status}`);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

await withFreshDatabase(20, async (pool) => {
  const connection = fromPgPool(pool);
  await createAppSchema(connection.db, 'postgres');
  await seed(connection.db, USERS);
  const scim = await listen(createOwnTablesApp({ connection }));
  const hand = await listen(handWritten(connection.db));
  const patchBody = (i: number): [string, RequestInit] => [
    `/Groups/${uuid(2, i % TEAMS)}`,
    { method: 'PATCH', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'add', path: 'members', value: [{ value: uuid(1, (i * 7919) % USERS) }] }] }) },
  ];
  const cases: [string, (i: number) => [string, RequestInit?]][] = [
    ['GET /Users/{id} (with groups)', (i) => [`/Users/${uuid(1, (i * 7919) % USERS)}`]],
    ['GET /Users?filter=userName eq', (i) => [`/Users?filter=${encodeURIComponent(`userName eq "USER${(i * 7919) % USERS}@example.com"`)}`]],
    ['GET /Users?count=100 (with groups)', () => ['/Users?count=100']],
    ['PATCH /Groups/{id} add one member', patchBody],
  ];
  console.log(`@scimkit/sql vs hand-written Express + Kysely on PostgreSQL: ${USERS} users, ${TEAMS} teams, ${CONCURRENCY} in flight, ${SECONDS} s × ${ROUNDS} rounds`);
  console.log('| request | scimkit req/s | hand-written req/s | ratio |');
  console.log('|---|---|---|---|');
  for (const [name, request] of cases) {
    const a: number[] = [];
    const b: number[] = [];
    // A discarded warm-up round on each (the JIT, the pools' connections), then the alternating rounds.
    await measure(scim.base, request);
    await measure(hand.base, request);
    for (let r = 0; r < ROUNDS; r++) {
      a.push(await measure(scim.base, request));
      b.push(await measure(hand.base, request));
    }
    console.log(`| ${name} | ${median(a).toFixed(0)} | ${median(b).toFixed(0)} | ${(median(a) / median(b)).toFixed(2)} |`);
  }

  // A filter the mapping cannot translate (emails.type: one typed element), over SCAN_USERS users.
  await sql`INSERT INTO users (id, email) SELECT ('00000003-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'scan' || n || '@example.com' FROM generate_series(0, ${SCAN_USERS - USERS - 1}) AS n`.execute(connection.db);
  for (const filter of ['emails.type eq "home"', 'userName eq "scan1@example.com"']) {
    const started = performance.now();
    const response = await fetch(`${scim.base}/Users?filter=${encodeURIComponent(filter)}`);
    const body = (await response.json()) as { scimType?: string; totalResults?: number };
    console.log(`${SCAN_USERS} users, filter=${filter}: ${response.status} ${body.scimType ?? `totalResults ${body.totalResults}`} in ${(performance.now() - started).toFixed(0)} ms`);
  }
  await new Promise((resolve) => scim.server.close(resolve));
  await new Promise((resolve) => hand.server.close(resolve));
});
