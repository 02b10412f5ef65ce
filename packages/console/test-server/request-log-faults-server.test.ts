import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { fromPgPool } from '@scimkit/postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { serverDatabase } from '../../postgres/test-server/server-database.js';
import { createPostgresLogStore, createRequestLog } from '../src/index.js';

/*
 * The request log's PostgreSQL table under database faults (issue 18): recording happens after the
 * answer and off the request path, so a log database that ends its connections, refuses them or
 * holds a lock on the table never fails, delays or ends a SCIM request; recording resumes when the
 * database is back.
 */

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}, 30_000);

async function admin(sql: string, params: unknown[] = [], url = process.env['SCIMKIT_PG_URL']): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql, params);
  } finally {
    await client.end();
  }
}

describe('the request log (PostgreSQL table) under database faults', () => {
  it('a failure to record never fails or holds a request, and recording resumes', async () => {
    const database = await serverDatabase();
    const name = new URL(database.url).pathname.slice(1);
    cleanups.push(async () => {
      await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => undefined);
      await database.drop();
    });
    const pool = new pg.Pool({ connectionString: database.url, max: 2, connectionTimeoutMillis: 500, statement_timeout: 1_000, query_timeout: 3_000 });
    cleanups.push(() => pool.end());
    const errors: unknown[] = [];
    const log = createRequestLog({ store: createPostgresLogStore({ client: fromPgPool(pool) }), onError: (error) => void errors.push(error) });
    const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), requestLog: log, logger: { log: () => undefined } });
    let serial = 0;
    const create = async (): Promise<{ status: number; ms: number }> => {
      const started = performance.now();
      const response = await scim.handle({ method: 'POST', path: '/Users', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [USER], userName: `u${++serial}` }) });
      return { status: response.status, ms: performance.now() - started };
    };
    const burst = async (n: number) => Promise.all(Array.from({ length: n }, () => create()));

    const healthy = await burst(10);
    await log.flush();
    expect(log.stats.recorded).toBe(10);

    // Connections ended, then refused, then a lock on the log table: every request still answered at once.
    const terminate = () => admin('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    await terminate();
    const afterTerminate = await burst(10);
    await log.flush();
    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await terminate();
    const refused = await burst(10);
    await log.flush();
    expect(log.stats.failed).toBeGreaterThan(0);
    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE scimkit_request_log IN ACCESS EXCLUSIVE MODE');
    const locked = await burst(10);
    await sleep(200);
    await locker.query('ROLLBACK');
    await locker.end();
    await log.flush();

    for (const answer of [...healthy, ...afterTerminate, ...refused, ...locked]) {
      expect(answer.status).toBe(201);
      // Recording is off the request path: a stalled log database adds nothing to a request.
      expect(answer.ms).toBeLessThan(900);
    }
    expect(errors.length).toBe(log.stats.failed);

    // Back: new requests are recorded again.
    const recordedBefore = log.stats.recorded;
    await burst(5);
    await log.flush();
    expect(log.stats.recorded).toBe(recordedBefore + 5);
    const { records } = await log.query({ tenant: '' });
    expect(records.length).toBeGreaterThanOrEqual(15);
    await log.close();
  }, 60_000);
});
