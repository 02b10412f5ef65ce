/**
 * Statements per request of @scimkit/sql (examples/own-tables) on each dialect: SQLite always, the
 * PostgreSQL and MariaDB servers when SCIMKIT_PG_URL / SCIMKIT_MYSQL_URL are set (a database of its
 * own on each, dropped after). Every statement the driver is handed is counted (BEGIN and COMMIT
 * included), one request at a time, after a warm-up request of the same shape. VERBOSE=1 prints the
 * statements of each request.
 *
 *   npx tsx bench/sql-statements.bench.ts
 *   SCIMKIT_PG_URL=postgres://postgres@127.0.0.1:5432/test SCIMKIT_MYSQL_URL=mysql://root@127.0.0.1:3306/test npx tsx bench/sql-statements.bench.ts
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { createPool } from 'mysql2';
import pg from 'pg';
import { fromBetterSqlite3, fromMysqlPool, fromPgPool, type SqlConnection } from '@scimkit/sql';
import { createAppSchema, createOwnTablesApp } from '../examples/own-tables/src/index.js';
import { countStatementRuns } from './lib/counted-sqlite.js';

const VERBOSE = process.env['VERBOSE'] === '1' || process.env['VERBOSE'] === 'full';
const FULL = process.env['VERBOSE'] === 'full';

interface Tap {
  statements: string[];
}

interface Target {
  readonly name: string;
  open(tap: Tap): Promise<{ connection: SqlConnection; close: () => Promise<void> }>;
}

const tag = () => `sqlpat_${randomUUID().replace(/-/g, '').slice(0, 10)}`;

const sqlite: Target = {
  name: 'SQLite',
  async open(tap) {
    // Each run of a statement counted (fromBetterSqlite3 keeps the prepared statements that repeat).
    const database = countStatementRuns(new Database(':memory:'), (source) => tap.statements.push(source));
    return { connection: fromBetterSqlite3(database), close: async () => void database.close() };
  },
};

const postgres = (admin: string): Target => ({
  name: 'PostgreSQL',
  async open(tap) {
    const name = tag();
    const run = async (text: string) => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(text).finally(() => client.end());
    };
    await run(`CREATE DATABASE ${name}`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    class Counted extends pg.Client {
      override query(...args: unknown[]): any {
        // A text, or a named statement's { name, text, values }.
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown } | undefined)?.text;
        if (typeof text === 'string') tap.statements.push(text);
        return (super.query as (...a: unknown[]) => unknown)(...args);
      }
    }
    const pool = new pg.Pool({ connectionString: url.toString(), max: 4, Client: Counted as never });
    return {
      connection: fromPgPool(pool),
      close: async () => {
        // The Kysely instance ended the pool already (a second end() rejects); the drop ends what is left.
        await pool.end().catch(() => undefined);
        await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  },
});

const mysql = (admin: string): Target => ({
  name: 'MariaDB',
  async open(tap) {
    const name = tag();
    const root = createPool({ uri: admin, connectionLimit: 1 });
    const run = (text: string) => new Promise<void>((resolve, reject) => root.query(text, (error) => (error ? reject(error) : resolve())));
    await run(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    const pool = createPool({ uri: url.toString(), connectionLimit: 4, timezone: 'Z' });
    pool.on('connection', (connection) => {
      // Text statements (query) and prepared ones (execute) alike.
      for (const method of ['query', 'execute'] as const) {
        const send = (connection[method] as (...a: unknown[]) => unknown).bind(connection);
        (connection as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
          const text = typeof args[0] === 'string' ? args[0] : (args[0] as { sql?: string }).sql;
          if (text !== undefined) tap.statements.push(text);
          return send(...args);
        };
      }
    });
    return {
      connection: fromMysqlPool(pool),
      close: async () => {
        await new Promise<void>((resolve) => pool.end(() => resolve()));
        await run(`DROP DATABASE IF EXISTS ${name}`);
        await new Promise<void>((resolve) => root.end(() => resolve()));
      },
    };
  },
});

const JSON_HEADERS = { 'content-type': 'application/scim+json', accept: 'application/scim+json' };
const user = (n: number) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: `user${n}@example.com`,
  externalId: `ext-${n}`,
  name: { givenName: `Given${n}`, familyName: `Family${n}` },
  displayName: `User ${n}`,
  emails: [{ value: `user${n}@example.com`, type: 'work' }],
});
const patch = (operations: unknown[]) => ({ method: 'PATCH', headers: JSON_HEADERS, body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations }) });

interface Case {
  readonly name: string;
  /** The request, `n` a counter for unique values; `ids` the seeded users and teams. */
  readonly request: (n: number, ids: Seeded) => [string, RequestInit?];
}

interface Seeded {
  readonly users: string[];
  readonly teams: string[];
}

const CASES: readonly Case[] = [
  { name: 'GET /Users/{id} (in a team)', request: (_, s) => [`/Users/${s.users[0]}`] },
  { name: 'GET /Users/{id} (in no team)', request: (_, s) => [`/Users/${s.users[5]}`] },
  { name: 'GET /Users?filter=userName eq', request: (n) => [`/Users?filter=${encodeURIComponent(`userName eq "USER${n % 10}@example.com"`)}`] },
  { name: 'GET /Users?count=100', request: () => ['/Users?count=100'] },
  { name: 'GET /Users?filter=name.familyName sw&sortBy=userName&count=5', request: () => [`/Users?filter=${encodeURIComponent('name.familyName sw "Family1"')}&sortBy=userName&count=5`] },
  { name: 'POST /Users', request: (n) => ['/Users', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(user(1000 + n)) }] },
  { name: 'PUT /Users/{id} (same userName)', request: (n, s) => [`/Users/${s.users[6]}`, { method: 'PUT', headers: JSON_HEADERS, body: JSON.stringify({ ...user(6), displayName: `Put ${n}` }) }] },
  { name: 'PATCH /Users/{id} replace displayName', request: (n, s) => [`/Users/${s.users[7]}`, patch([{ op: 'replace', path: 'displayName', value: `Renamed ${n}` }])] },
  { name: 'PATCH /Users/{id} replace userName', request: (n, s) => [`/Users/${s.users[8]}`, patch([{ op: 'replace', path: 'userName', value: `renamed${n}@example.com` }])] },
  { name: 'PATCH /Groups/{id} add a member', request: (n, s) => [`/Groups/${s.teams[1]}`, patch([{ op: 'add', path: 'members', value: [{ value: s.users[10 + (n % 10)] }] }])] },
  { name: 'GET /Groups/{id}', request: (_, s) => [`/Groups/${s.teams[0]}`] },
];

async function listen(connection: SqlConnection): Promise<{ server: Server; base: string }> {
  const app = createOwnTablesApp({ connection });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/scim/v2` };
}

async function send(base: string, [path, init]: [string, RequestInit?]): Promise<Record<string, unknown>> {
  const response = await fetch(base + path, init);
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${init?.method ?? 'GET'} ${path}: ${response.status} ${text}`);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

async function countOn(target: Target): Promise<Map<string, string[]>> {
  const tap: Tap = { statements: [] };
  const { connection, close } = await target.open(tap);
  const counted = new Map<string, string[]>();
  try {
    await createAppSchema(connection.db, connection.dialect);
    const { server, base } = await listen(connection);
    try {
      const seeded: Seeded = { users: [], teams: [] };
      for (let i = 0; i < 20; i++) seeded.users.push(String((await send(base, ['/Users', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(user(i)) }]))['id']));
      for (let i = 0; i < 2; i++) {
        const members = i === 0 ? [{ value: seeded.users[0] }] : [];
        const team = await send(base, ['/Groups', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: `Team ${i}`, members }) }]);
        seeded.teams.push(String(team['id']));
      }
      let n = 0;
      for (const c of CASES) {
        await send(base, c.request(n++, seeded)); // warm-up: connections, caches
        tap.statements = [];
        await send(base, c.request(n++, seeded));
        counted.set(c.name, tap.statements);
        tap.statements = [];
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  } finally {
    await connection.db.destroy().catch(() => undefined);
    await close();
  }
  return counted;
}

const targets: Target[] = [sqlite];
if (process.env['SCIMKIT_PG_URL']) targets.push(postgres(process.env['SCIMKIT_PG_URL']));
if (process.env['SCIMKIT_MYSQL_URL']) targets.push(mysql(process.env['SCIMKIT_MYSQL_URL']));
const results = new Map<string, Map<string, string[]>>();
for (const target of targets) results.set(target.name, await countOn(target));
console.log(`Statements per request, @scimkit/sql (examples/own-tables), BEGIN and COMMIT included\n`);
console.log(`| request | ${targets.map((t) => t.name).join(' | ')} |`);
console.log(`|---|${targets.map(() => '---').join('|')}|`);
for (const c of CASES) console.log(`| ${c.name} | ${targets.map((t) => results.get(t.name)?.get(c.name)?.length ?? '–').join(' | ')} |`);
if (VERBOSE) {
  for (const target of targets) {
    console.log(`\n## ${target.name}`);
    for (const c of CASES) {
      console.log(`\n${c.name}:`);
      for (const text of results.get(target.name)?.get(c.name) ?? []) console.log(`  ${FULL ? text : text.replace(/\s+/g, ' ').slice(0, 220)}`);
    }
  }
}
