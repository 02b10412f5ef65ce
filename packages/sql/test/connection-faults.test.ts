import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { createScimServer, groupResourceType, isStoreUnavailable, URN, userResourceType, type ScimStore } from '@scimkit/core';
import { classifySqlError, createSqlStore, fromBetterSqlite3, fromMysqlPool, fromPgPool, type SqlConnection } from '../src/index.js';
import { withUnavailable } from '../src/unavailable-store.js';
import { createAppSchema as createOwnTables } from '../../../examples/own-tables/src/app-schema.js';
import { mapping as ownTablesMapping } from '../../../examples/own-tables/src/mapping.js';

const resourceTypes = [{ ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }] }, groupResourceType];

function scim(connection: SqlConnection) {
  const store = createSqlStore({ ...connection, mapping: ownTablesMapping, unmapped: 'ignore' });
  const server = createScimServer({ resourceTypes, store, logger: { log: () => undefined } });
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await server.handle({ method, path, headers: { 'content-type': 'application/scim+json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: response.status, headers: response.headers, body: response.body === undefined || response.body === '' ? undefined : JSON.parse(String(response.body)) };
  };
  return { store, call };
}

const driverError = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe('classifySqlError: transient driver failures of every dialect are StoreUnavailableError, bugs are not', () => {
  const transient: [string, Error, string][] = [
    ['pg: terminated by the administrator', driverError('terminating connection due to administrator command', { code: '57P01' }), 'shutting down'],
    ['pg: connection lost', new Error('Connection terminated unexpectedly'), 'connection was lost'],
    ['pg: connection exception class 08', driverError('connection failure', { code: '08006' }), 'connection was lost'],
    ['pg: statement timeout', driverError('canceling statement due to statement timeout', { code: '57014' }), 'statement timeout'],
    ['pg: too many connections', driverError('sorry, too many clients already', { code: '53300' }), 'too many connections'],
    ['pg: deadlock (after the retries)', driverError('deadlock detected', { code: '40P01' }), 'conflicting'],
    ['pg: refused', driverError('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' }), 'refused'],
    ['pg-pool: acquire timeout', new Error('timeout exceeded when trying to connect'), 'came free'],
    ['mysql2: refused', driverError('connect ECONNREFUSED 127.0.0.1:3306', { code: 'ECONNREFUSED', errno: -111 }), 'refused'],
    ['mysql2: connection lost', driverError('Connection lost: The server closed the connection.', { code: 'PROTOCOL_CONNECTION_LOST' }), 'connection was lost'],
    ['mysql2: lock wait timeout', driverError('Lock wait timeout exceeded; try restarting transaction', { code: 'ER_LOCK_WAIT_TIMEOUT', errno: 1205 }), 'locked'],
    ['mysql2: query timeout', driverError('Query inactivity timeout', { code: 'PROTOCOL_SEQUENCE_TIMEOUT' }), 'statement timeout'],
    ['mysql2: killed connection', driverError('Connection was killed', { code: 'ER_CONNECTION_KILLED', errno: 1927 }), 'connection was lost'],
    ['better-sqlite3: busy', driverError('database is locked', { code: 'SQLITE_BUSY' }), 'locked'],
    ['wrapped in a cause', new Error('outer', { cause: driverError('x', { code: '57P03' }) }), 'shutting down'],
  ];
  for (const [name, error, detail] of transient) {
    it(name, () => {
      const classified = classifySqlError(error);
      expect(isStoreUnavailable(classified)).toBe(true);
      expect(classified?.message).toContain(detail);
      expect(classified?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(classified?.cause).toBe(error);
    });
  }
  it('a bug stays itself (500)', () => {
    for (const error of [
      driverError('syntax error at or near "FORM"', { code: '42601' }),
      driverError('relation "users" does not exist', { code: '42P01' }),
      driverError('injected failure', { code: 'P0001' }),
      driverError('You have an error in your SQL syntax', { code: 'ER_PARSE_ERROR', errno: 1064 }),
      driverError('no such table: users', { code: 'SQLITE_ERROR' }),
      new TypeError('x is not a function'),
    ]) {
      expect(classifySqlError(error), error.message).toBeUndefined();
    }
  });
});

describe('the sql store under connection faults', () => {
  const directory = mkdtempSync(join(tmpdir(), 'scimkit-sql-faults-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('SQLite: a write that finds the file locked past the busy timeout is 503 with Retry-After, and nothing of it is kept', async () => {
    const file = join(directory, 'busy.db');
    const connection = fromBetterSqlite3(new Database(file), { busyTimeoutMs: 100 });
    await createOwnTables(connection.db, 'sqlite');
    expect(connection.callTimeoutMs).toBe(100);
    const { call } = scim(connection);
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    const refused = await call('POST', '/Users', { schemas: [URN.user], userName: 'busy@example.com' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(503);
    expect(Number(refused.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(refused.body).toMatchObject({ schemas: [URN.error], status: '503' });
    other.exec('ROLLBACK');
    other.close();
    expect((await call('GET', `/Users?filter=${encodeURIComponent('userName eq "busy@example.com"')}`)).body.totalResults).toBe(0);
    expect((await call('POST', '/Users', { schemas: [URN.user], userName: 'busy@example.com' })).status).toBe(201);
  });

  it('pg: refused connections are 503 (a real pg Pool on a closed port)', async () => {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ host: '127.0.0.1', port: 1, user: 'nobody', database: 'none', max: 2 });
    const { call } = scim(fromPgPool(pool, { acquireTimeoutMs: 2_000 }));
    const reply = await call('GET', '/Users?count=1');
    expect(reply.status, JSON.stringify(reply.body)).toBe(503);
    expect(reply.body.detail).toContain('refused');
    await pool.end();
  });

  it('mysql2: refused connections are 503 (a real mysql2 pool on a closed port)', async () => {
    const { createPool } = await import('mysql2');
    const pool = createPool({ host: '127.0.0.1', port: 1, user: 'nobody', connectionLimit: 2 });
    const { call } = scim(fromMysqlPool(pool, { acquireTimeoutMs: 2_000 }));
    const reply = await call('GET', '/Users?count=1');
    expect(reply.status, JSON.stringify(reply.body)).toBe(503);
    expect(reply.body.detail).toContain('refused');
    await new Promise((resolve) => pool.end(resolve));
  });

  it('pg: a pool that gives no connection is 503 after the acquire timeout, and more than maxWaiting callers are refused at once', async () => {
    let asked = 0;
    const stalled = Object.assign(new EventEmitter(), { connect: () => (asked++, new Promise<never>(() => undefined)), end: async () => undefined });
    const connection = fromPgPool(stalled, { acquireTimeoutMs: 150, maxWaiting: 2 });
    expect(connection.callTimeoutMs).toBe(150 + 10_000);
    const { call } = scim(connection);
    const started = performance.now();
    const replies = await Promise.all([call('GET', `/Users/${crypto.randomUUID()}`), call('GET', `/Users/${crypto.randomUUID()}`), call('GET', `/Users/${crypto.randomUUID()}`)]);
    expect(replies.map((r) => r.status)).toEqual([503, 503, 503]);
    expect(replies.map((r) => r.body.detail).sort()).toEqual([
      expect.stringContaining('no database connection came free in time (150 ms)'),
      expect.stringContaining('no database connection came free in time (150 ms)'),
      expect.stringContaining('too many requests are waiting for a database connection'),
    ]);
    expect(asked).toBe(2);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('pg: a connection that emits error while checked out does not end the process; it is destroyed, and the statement is 503', async () => {
    const released: unknown[] = [];
    const client = Object.assign(new EventEmitter(), {
      query: async (text: string) => {
        if (text.startsWith('SET ')) return { rows: [] };
        client.emit('error', new Error('Connection terminated unexpectedly'));
        throw new Error('Connection terminated unexpectedly');
      },
      release: (error?: unknown) => released.push(error),
    });
    const pool = Object.assign(new EventEmitter(), { connect: async () => client, end: async () => undefined });
    const heard: Error[] = [];
    const { call } = scim(fromPgPool(pool, { onConnectionError: (error) => heard.push(error) }));
    // The pool's own 'error' (an idle connection closed by the server) is heard, not thrown.
    pool.emit('error', new Error('terminating connection due to administrator command'));
    const reply = await call('GET', `/Users/${crypto.randomUUID()}`);
    expect(reply.status).toBe(503);
    expect(reply.body.detail).toContain('connection was lost');
    expect(heard.map((e) => e.message)).toEqual(['terminating connection due to administrator command', 'Connection terminated unexpectedly']);
    // Released with the error: pg destroys it instead of returning it to the pool.
    expect(released.length).toBe(1);
    expect(released[0]).toBeInstanceOf(Error);
  });

  it('a serialization failure or deadlock runs the call again, up to the attempts, then 503; a bug is not retried', async () => {
    let runs = 0;
    let failure: Error = driverError('deadlock detected', { code: '40P01' });
    const failing = (times: number): ScimStore['get'] => async () => {
      runs++;
      if (runs <= times) throw failure;
      return undefined;
    };
    const base = { create: async () => ({ ok: false, reason: 'notFound' }) as never, replace: async () => ({ ok: false, reason: 'notFound' }) as never, delete: async () => ({ ok: false, reason: 'notFound' }) as never, query: async () => ({ totalResults: 0, resources: [] }) };
    expect(await withUnavailable({ ...base, get: failing(2) }).get('User', 'x')).toBeUndefined();
    expect(runs).toBe(3);
    runs = 0;
    const exhausted = await withUnavailable({ ...base, get: failing(5) }, { attempts: 3 }).get('User', 'x').catch((error: unknown) => error);
    expect(isStoreUnavailable(exhausted)).toBe(true);
    expect(runs).toBe(3);
    runs = 0;
    failure = driverError('syntax error', { code: '42601' });
    expect(await withUnavailable({ ...base, get: failing(5) }).get('User', 'x').catch((error: unknown) => error)).toBe(failure);
    expect(runs).toBe(1);
  });
});
