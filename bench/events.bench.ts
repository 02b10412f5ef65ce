/**
 * Events (docs/concepts/events.md), bounded (~1–2 minutes):
 * 1. Writes with the outbox on vs off: the same SCIM writes (POST a user, PATCH it twice) through two
 *    servers over one database, one with `events: {}` (the event rows in each write's statement) and
 *    one without, interleaved runs (the order swapped every run), wall clock; on the PostgreSQL
 *    server and on PGlite. The goal is ≤ 1.15×.
 * 2. Webhook delivery rate: one dispatcher delivering signed Standard Webhooks messages from the
 *    outbox to a local receiver (node:http, 204), events per second, from the memory store's outbox
 *    and from the PostgreSQL one, against the same number of bare POSTs of the same bodies (no
 *    outbox, no signature) sent the same way in the same run; the goal is ≥ 1,000/s.
 * Needs the PostgreSQL server of SCIMKIT_PG_URL (default the CI machine's); a database of its own is
 * created and dropped.
 */
import { PGlite } from '@electric-sql/pglite';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryStore, createScimServer, userResourceType, type ScimServer, type ScimStore } from '@scimkit/core';
import { createEventDispatcher, webhookDelivery } from '@scimkit/events';
import { createPostgresStore, fromPGlite, fromPgPool, migrate, type SqlClient } from '@scimkit/postgres';
import { machine, median, round, RUNS, table, writeResult } from './lib/harness.js';
import { withFreshDatabase } from './lib/postgres-bench.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const WRITES_PER_RUN = Number(process.env['EVENT_WRITES'] ?? 300);
const DELIVERIES = Number(process.env['EVENT_DELIVERIES'] ?? 3000);
/** Outbox partitions of the store with the outbox on (its write locks are per partition). */
const PARTITIONS = Number(process.env['EVENT_PARTITIONS'] ?? 16);
const SECRET = `whsec_${Buffer.from('a benchmark secret, 32 bytes long').toString('base64')}`;
const quiet = { log: () => undefined };
let counter = 0;

const json = (method: string, path: string, body: unknown) => ({ method, path, headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify(body) });

/** WRITES_PER_RUN writes (a create and two PATCHes per user), 8 at a time; the wall time in ms. */
async function writes(server: ScimServer): Promise<number> {
  const started = performance.now();
  const users = Math.ceil(WRITES_PER_RUN / 3);
  await Promise.all(
    Array.from({ length: 8 }, async (_, lane) => {
      for (let u = lane; u < users; u += 8) {
        const created = await server.handle(json('POST', '/Users', { schemas: [USER], userName: `bench${++counter}` }));
        if (created.status !== 201) throw new Error(`create answered ${created.status}`);
        const id = JSON.parse(created.body ?? '{}').id as string;
        for (const title of ['a', 'b']) {
          const patched = await server.handle(json('PATCH', `/Users/${id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'title', value: title }] }));
          if (patched.status >= 300) throw new Error(`patch answered ${patched.status}`);
        }
      }
    }),
  );
  return performance.now() - started;
}

async function receiver(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      count++;
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    count: () => count,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Fill `store`'s outbox with DELIVERIES events, then time one dispatcher draining it to the receiver. */
async function deliveryRate(store: ScimStore, consumer: string): Promise<number> {
  const server = createScimServer({ resourceTypes: [userResourceType], store, events: {}, logger: quiet });
  await Promise.all(
    Array.from({ length: 8 }, async (_, lane) => {
      for (let i = lane; i < DELIVERIES; i += 8) await server.handle(json('POST', '/Users', { schemas: [USER], userName: `rate${++counter}` }));
    }),
  );
  const target = await receiver();
  try {
    const dispatcher = createEventDispatcher({ outbox: store.outbox!, consumer, deliver: webhookDelivery({ endpoint: { url: target.url, secret: SECRET } }), retention: false, logger: quiet });
    const started = performance.now();
    let delivered = 0;
    while (delivered < DELIVERIES) {
      const handled = await dispatcher.runOnce();
      if (handled === 0) break;
      delivered += handled;
    }
    const seconds = (performance.now() - started) / 1000;
    if (target.count() < DELIVERIES) throw new Error(`only ${target.count()} of ${DELIVERIES} delivered`);
    return DELIVERIES / seconds;
  } finally {
    await target.close();
  }
}

/** The ceiling: DELIVERIES bare POSTs of an event-sized body, 32 in flight over keep-alive connections, to the same receiver. */
async function barePostRate(): Promise<number> {
  const target = await receiver();
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const body = JSON.stringify({ type: 'user.created', timestamp: new Date().toISOString(), data: { id: globalThis.crypto.randomUUID(), type: 'user.created', resourceType: 'User', resourceId: globalThis.crypto.randomUUID(), operation: 'create', requestId: 'r' } });
  const post = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const sent = request(target.url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
        response.resume();
        response.on('end', () => resolve());
      });
      sent.on('error', reject);
      sent.end(body);
    });
  try {
    const started = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 32 }, async () => {
      while (next++ < DELIVERIES) await post();
    }));
    return DELIVERIES / ((performance.now() - started) / 1000);
  } finally {
    agent.destroy();
    await target.close();
  }
}

/** Interleaved runs of the outbox off and on over one database (two schemas), the order swapped every run. */
async function onOff(client: SqlClient): Promise<{ on: number[]; off: number[] }> {
  await migrate(client, { schema: 'outbox_on' });
  await migrate(client, { schema: 'outbox_off' });
  const on = createScimServer({ resourceTypes: [userResourceType], store: createPostgresStore({ client, schema: 'outbox_on', eventPartitions: PARTITIONS }), events: {}, logger: quiet });
  const off = createScimServer({ resourceTypes: [userResourceType], store: createPostgresStore({ client, schema: 'outbox_off' }), logger: quiet });
  await writes(on);
  await writes(off);
  const times: { on: number[]; off: number[] } = { on: [], off: [] };
  for (let run = 0; run < RUNS; run++) {
    if (run % 2 === 0) {
      times.off.push(await writes(off));
      times.on.push(await writes(on));
    } else {
      times.on.push(await writes(on));
      times.off.push(await writes(off));
    }
  }
  return times;
}

const perWrite = (ms: number[]): number => (median(ms) / WRITES_PER_RUN) * 1000;
const ratioOf = (times: { on: number[]; off: number[] }): number => median(times.on) / median(times.off);

await withFreshDatabase(16, async (pool) => {
  pool.on('error', () => undefined); // the database is dropped with FORCE at the end
  const client = fromPgPool(pool);
  const server = await onOff(client);
  const db = await PGlite.create();
  const lite = await onOff(fromPGlite(db));
  await db.close();
  table(`Writes (${WRITES_PER_RUN} per run: POST + 2 PATCH per user, 8 concurrent), median of ${RUNS} interleaved runs`, [
    { database: 'PostgreSQL 15 server', outbox: 'off', 'µs per write': round(perWrite(server.off)) },
    { database: 'PostgreSQL 15 server', outbox: 'on', 'µs per write': round(perWrite(server.on)), 'ratio to off': round(ratioOf(server)) },
    { database: 'PGlite', outbox: 'off', 'µs per write': round(perWrite(lite.off)) },
    { database: 'PGlite', outbox: 'on', 'µs per write': round(perWrite(lite.on)), 'ratio to off': round(ratioOf(lite)) },
  ]);

  const bare = await barePostRate();
  const memoryRate = await deliveryRate(createMemoryStore(), 'rate-memory');
  const postgresRate = await deliveryRate(createPostgresStore({ client, schema: 'outbox_on', eventPartitions: PARTITIONS }), 'rate-postgres');
  table(`Webhook delivery to a local receiver (${DELIVERIES} events, one dispatcher, signed)`, [
    { sender: 'bare POSTs (no outbox, no signature)', 'events/s': round(bare) },
    { sender: 'dispatcher, memory store', 'events/s': round(memoryRate), 'ratio to bare': round(memoryRate / bare) },
    { sender: 'dispatcher, PostgreSQL', 'events/s': round(postgresRate), 'ratio to bare': round(postgresRate / bare) },
  ]);
  writeResult('events', {
    machine: machine(),
    writes: { perRun: WRITES_PER_RUN, server: { ...server, ratio: ratioOf(server) }, pglite: { ...lite, ratio: ratioOf(lite) } },
    delivery: { events: DELIVERIES, barePerSecond: bare, memoryPerSecond: memoryRate, postgresPerSecond: postgresRate },
  });
});
