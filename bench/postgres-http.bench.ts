/**
 * Over HTTP on @scimkit/node: GET by id and `userName eq` on the PostgreSQL server store against
 * the same requests on the memory store, measured in one run (the issue's target: at least 40%).
 * Both servers hold the same users; rounds alternate between them and the median is reported.
 *
 *   npx tsx bench/postgres-http.bench.ts     # SCIMKIT_PG_URL, USERS=10000, SECONDS=4, CONCURRENCY=16, ROUNDS=3
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryStore, createScimServer, userResourceType, type ScimResource, type ScimStore } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { createPostgresStore, fromPgPool, migrate } from '@scimkit/postgres';
import { withFreshDatabase } from './lib/postgres-bench.js';

const USERS = Number(process.env['USERS'] ?? 10_000);
const SECONDS = Number(process.env['SECONDS'] ?? 4);
const CONCURRENCY = Number(process.env['CONCURRENCY'] ?? 16);
const ROUNDS = Number(process.env['ROUNDS'] ?? 3);
const UNIQUE = [{ path: 'userName', caseExact: false }];

function user(i: number): ScimResource {
  const userName = `user${i}@example.com`;
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    externalId: `ext-${i}`,
    userName,
    name: { givenName: `Given${i % 100}`, familyName: `Family${i % 1000}` },
    displayName: `User ${i}`,
    active: true,
    emails: [{ value: userName, type: 'work', primary: true }],
    title: 'Engineer',
    meta: { resourceType: 'User', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' },
  };
}

async function fill(store: ScimStore): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < USERS) {
        const i = next++;
        const written = await store.create('User', user(i), { unique: UNIQUE });
        if (!written.ok) throw new Error(`create ${i}: ${written.reason}`);
      }
    }),
  );
}

async function serve(store: ScimStore): Promise<{ server: Server; base: string }> {
  const scim = createScimServer({ resourceTypes: [userResourceType], store });
  const server = createServer(createNodeHandler(scim, { basePath: '/scim/v2' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/scim/v2` };
}

/** Requests per second with CONCURRENCY requests in flight for SECONDS; every answer must be 200. */
async function measure(base: string, path: (i: number) => string): Promise<number> {
  const until = performance.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const response = await fetch(base + path(Math.floor(Math.random() * USERS)), { headers: { accept: 'application/scim+json' } });
        const body = (await response.json()) as { totalResults?: number };
        if (response.status !== 200 || body.totalResults === 0) throw new Error(`${response.status} for ${path.name}`);
        done++;
      }
    }),
  );
  return done / SECONDS;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  await withFreshDatabase(10, async (pool) => {
    const servers: Server[] = [];
    try {
      const client = fromPgPool(pool);
      await migrate(client);
      const memory = createMemoryStore();
      const postgres = createPostgresStore({ client });
      await fill(memory);
      await fill(postgres);
      await pool.query('ANALYZE');
      const memoryServer = await serve(memory);
      const postgresServer = await serve(postgres);
      servers.push(memoryServer.server, postgresServer.server);
      const cases = [
        { name: 'GET /Users/{id}', path: (i: number) => `/Users/${user(i).id}` },
        { name: 'GET /Users?filter=userName eq …', path: (i: number) => `/Users?filter=${encodeURIComponent(`userName eq "USER${i}@example.com"`)}` },
      ];
      console.log(`${USERS.toLocaleString('en-US')} users, ${CONCURRENCY} requests in flight, ${ROUNDS} alternating rounds of ${SECONDS} s (median)\n`);
      console.log('| request | memory store | PostgreSQL store | **PostgreSQL / memory** |');
      console.log('|---|---|---|---|');
      for (const c of cases) {
        await measure(memoryServer.base, c.path); // warm-up
        await measure(postgresServer.base, c.path);
        const m: number[] = [];
        const p: number[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          m.push(await measure(memoryServer.base, c.path));
          p.push(await measure(postgresServer.base, c.path));
        }
        const [mm, pp] = [median(m), median(p)];
        console.log(`| \`${c.name}\` | ${Math.round(mm).toLocaleString('en-US')} req/s | ${Math.round(pp).toLocaleString('en-US')} req/s | **${Math.round((100 * pp) / mm)}%** |`);
      }
    } finally {
      for (const server of servers) {
        server.closeAllConnections();
        server.close();
      }
    }
  });
}

await main();
