import type { ScimEvent, ScimLogRecord } from '@scimkit/core';
import { createEventDispatcher } from '@scimkit/events';
import { openPostgresStore, type OpenedStore } from '@scimkit/postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { serverDatabase } from '../../postgres/test-server/server-database.js';
import { eventServer } from '../test/outbox-scenarios.js';

/*
 * The outbox under database faults (issue 18, docs/operations/database-failures.md): while writes
 * go on, the database ends every connection repeatedly and then refuses connections for 2 s. The
 * delivery worker must keep running (no unhandled rejection, no stop), resume on its own once the
 * database is back, and deliver the event of every acknowledged write, each resource's in order.
 */

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}, 30_000);

async function admin(sql: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: process.env['SCIMKIT_PG_URL'] });
  await client.connect();
  try {
    await client.query(sql, params);
  } finally {
    await client.end();
  }
}

describe('the PostgreSQL outbox under database faults', () => {
  it('the delivery worker survives terminated and refused connections, resumes, and delivers every acknowledged write in order', async () => {
    const database = await serverDatabase();
    const name = new URL(database.url).pathname.slice(1);
    cleanups.push(async () => {
      await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => undefined);
      await database.drop();
    });
    const opened: OpenedStore = await openPostgresStore(database.url, { acquireTimeoutMs: 500, statementTimeoutMs: 1_000, poolSize: 4, startup: { timeoutMs: 10_000 } });
    cleanups.push(() => opened.close());
    const terminate = () => admin('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    const server = eventServer(opened.store);

    const delivered = new Map<string, ScimEvent[]>();
    let deliveries = 0;
    const logged: ScimLogRecord[] = [];
    const dispatcher = createEventDispatcher({
      outbox: opened.store.outbox!,
      consumer: 'faults',
      pollIntervalMs: 20,
      leaseMs: 2_000,
      logger: { log: (record) => void logged.push(record) },
      deliver: async (event) => {
        deliveries++;
        const list = delivered.get(event.resourceId) ?? [];
        if (!list.some((seen) => seen.id === event.id)) list.push(event);
        delivered.set(event.resourceId, list);
      },
    });
    dispatcher.start();
    cleanups.push(() => dispatcher.stop());

    // Acknowledged writes per user, in order: the created event, then each acknowledged title.
    const acknowledged = new Map<string, string[]>();
    let stop = false;
    let serial = 0;
    const lane = async (n: number): Promise<void> => {
      while (!stop) {
        const created = await server.handle({ method: 'POST', path: '/Users', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [USER], userName: `l${n}-${++serial}` }) });
        if (created.status !== 201) {
          await sleep(20);
          continue;
        }
        const id = JSON.parse(created.body ?? '{}').id as string;
        const titles: string[] = [];
        acknowledged.set(id, titles);
        for (let p = 1; p <= 5 && !stop; p++) {
          const title = `t${p}`;
          const patched = await server.handle({ method: 'PATCH', path: `/Users/${id}`, headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'title', value: title }] }) });
          // A refused PATCH may still have committed (its answer lost): later ones are not checked for order against it.
          if (patched.status >= 300) break;
          titles.push(title);
        }
      }
    };
    const lanes = Array.from({ length: 4 }, (_, n) => lane(n));

    await sleep(800);
    for (let i = 0; i < 8; i++) {
      await terminate();
      await sleep(200);
    }
    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await terminate();
    const before = deliveries;
    await sleep(2_000);
    // Nothing can be read while connections are refused.
    expect(deliveries - before).toBeLessThanOrEqual(1);
    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    const back = performance.now();
    await sleep(800);
    stop = true;
    await Promise.all(lanes);

    // Resumed on its own: every acknowledged write's event arrives.
    const missing = (): string[] => {
      const out: string[] = [];
      for (const [id, titles] of acknowledged) {
        const events = delivered.get(id) ?? [];
        if (!events.some((event) => event.type === 'user.created')) out.push(`${id} created`);
        for (const title of titles) if (!events.some((event) => event.type === 'user.updated' && event.resource?.['title'] === title)) out.push(`${id} ${title}`);
      }
      return out;
    };
    const deadline = performance.now() + 20_000;
    while (missing().length > 0 && performance.now() < deadline) await sleep(50);
    const resumedMs = performance.now() - back;
    expect(missing()).toEqual([]);
    expect(acknowledged.size).toBeGreaterThan(5);
    // Each resource's events in write order (the acknowledged titles are a prefix of what was delivered for it).
    for (const [id, titles] of acknowledged) {
      const delivered_ = (delivered.get(id) ?? []).filter((event) => event.type === 'user.updated').map((event) => String(event.resource?.['title']));
      expect(delivered_.slice(0, titles.length), id).toEqual(titles);
    }
    // The worker reported the faults and kept going; stop() ends it cleanly.
    expect(logged.some((record) => record.level === 'error' || record.level === 'warn')).toBe(true);
    await dispatcher.stop();
    console.log(`outbox faults: ${acknowledged.size} users, ${deliveries} deliveries, every acknowledged write delivered ${Math.round(resumedMs)} ms after the database came back`);
  }, 60_000);
});
