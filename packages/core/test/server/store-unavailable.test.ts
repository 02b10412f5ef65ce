import { describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, isStoreUnavailable, StoreUnavailableError, URN, userResourceType, type ScimLogRecord, type ScimStore } from '../../src/index.js';
import { call, post, user } from './helpers.js';

/** A memory store whose `method` throws `failure` while `failing` is true. */
function flakyStore(method: keyof ScimStore, failure: () => unknown) {
  const memory = createMemoryStore();
  const state = { failing: true };
  const store = new Proxy(memory, {
    get(target, key, receiver) {
      if (key === method && state.failing) return () => Promise.reject(failure());
      return Reflect.get(target, key, receiver);
    },
  });
  return { store, state, memory };
}

describe('a store that is unavailable for now (StoreUnavailableError)', () => {
  it('is answered 503 with Retry-After and a SCIM error body, logged as a warning', async () => {
    const logged: ScimLogRecord[] = [];
    const { store } = flakyStore('create', () => new StoreUnavailableError('the database connection was lost', { retryAfterSeconds: 2.5, cause: new Error('secret host db.internal') }));
    const target = createScimServer({ resourceTypes: [userResourceType], store, logger: { log: (record) => void logged.push(record) } });
    const reply = await call(target, post('/Users', user('bjensen')));
    expect(reply.status).toBe(503);
    expect(reply.headers['Retry-After']).toBe('3');
    expect(reply.body).toEqual({ schemas: [URN.error], status: '503', detail: 'Service temporarily unavailable: the database connection was lost; retry after 3 s' });
    expect(JSON.stringify(reply.body)).not.toContain('secret');
    const warning = logged.find((record) => record.level === 'warn');
    expect(warning).toMatchObject({ status: 503, message: 'store unavailable: the database connection was lost', method: 'POST' });
    expect(isStoreUnavailable(warning?.error)).toBe(true);
    expect(logged.filter((record) => record.level === 'error')).toEqual([]);
  });

  it('defaults Retry-After to 1 second, and any other throw stays a 500', async () => {
    const unavailable = flakyStore('get', () => new StoreUnavailableError('no database connection came free in time'));
    const reply = await call(createScimServer({ resourceTypes: [userResourceType], store: unavailable.store, logger: { log: () => undefined } }), { method: 'GET', path: '/Users/x' });
    expect(reply.status).toBe(503);
    expect(reply.headers['Retry-After']).toBe('1');
    const broken = flakyStore('get', () => new TypeError('a bug'));
    const failed = await call(createScimServer({ resourceTypes: [userResourceType], store: broken.store, logger: { log: () => undefined } }), { method: 'GET', path: '/Users/x' });
    expect(failed.status).toBe(500);
    expect(failed.headers['Retry-After']).toBeUndefined();
  });

  it('is recognised across copies of the core (a marker, not the class identity)', () => {
    const foreign = Object.assign(new Error('lost'), { [Symbol.for('scimkit.storeUnavailable')]: true });
    expect(isStoreUnavailable(foreign)).toBe(true);
    expect(isStoreUnavailable(new Error('lost'))).toBe(false);
    expect(isStoreUnavailable(undefined)).toBe(false);
    expect(new StoreUnavailableError('x')).toBeInstanceOf(Error);
  });

  it('in a Bulk request fails only its own operation, as 503, and the others are done', async () => {
    const memory = createMemoryStore();
    let creates = 0;
    const store: ScimStore = new Proxy(memory, {
      get(target, key, receiver) {
        if (key === 'create') {
          return (...args: Parameters<ScimStore['create']>) => (++creates === 2 ? Promise.reject(new StoreUnavailableError('the database is shutting down or restarting', { retryAfterSeconds: 5 })) : memory.create(...args));
        }
        return Reflect.get(target, key, receiver);
      },
    });
    const target = createScimServer({ resourceTypes: [userResourceType], store, logger: { log: () => undefined }, bulk: {} });
    const reply = await call(
      target,
      post('/Bulk', { schemas: [URN.bulkRequest], Operations: ['one', 'two', 'three'].map((name) => ({ method: 'POST', path: '/Users', bulkId: name, data: user(name) })) }),
    );
    expect(reply.status).toBe(200);
    expect(reply.body['Operations'].map((op: { status: string }) => op.status)).toEqual(['201', '503', '201']);
    expect(reply.body['Operations'][1].response).toEqual({ schemas: [URN.error], status: '503', detail: 'Service temporarily unavailable: the database is shutting down or restarting; retry after 5 s' });
    const users = await call(target, { method: 'GET', path: '/Users' });
    expect(users.body['Resources'].map((r: { userName: string }) => r.userName).sort()).toEqual(['one', 'three']);
  });
});

describe('the docs sample (docs/writing-a-store.md)', () => {
  it('a store that turns its driver\'s connection errors into StoreUnavailableError gets 503, other errors 500', async () => {
    const isConnectionError = (error: unknown): boolean => (error as { code?: string }).code === 'ECONNRESET';
    let failure: Error = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const db = { query: async (_sql: string, _params: unknown[]) => Promise.reject(failure) };
    const memory = createMemoryStore();
    const store: ScimStore = {
      ...memory,
      async get(type, id, ctx) {
        const [sql, params] = ['SELECT data FROM resources WHERE id = $1', [id]];
        try {
          await db.query(sql, params);
        } catch (error) {
          if (isConnectionError(error)) throw new StoreUnavailableError('the database connection was lost', { retryAfterSeconds: 2, cause: error });
          throw error;
        }
        return memory.get(type, id, ctx);
      },
    };
    const target = createScimServer({ resourceTypes: [userResourceType], store, logger: { log: () => undefined } });
    const lost = await call(target, { method: 'GET', path: '/Users/x' });
    expect([lost.status, lost.headers['Retry-After']]).toEqual([503, '2']);
    failure = new Error('column "data" does not exist');
    expect((await call(target, { method: 'GET', path: '/Users/x' })).status).toBe(500);
  });
});

describe('writes queued behind one that found the store unavailable', () => {
  it('fail at once with 503 instead of each waiting its own timeout in turn', async () => {
    const memory = createMemoryStore();
    let stalled = false;
    const store: ScimStore = new Proxy(memory, {
      get(target, key, receiver) {
        if ((key === 'replace' || key === 'assign') && stalled) {
          // A stalled database: the write gives up after 150 ms (a lock timeout), as unavailable.
          return () => new Promise((_, reject) => setTimeout(() => reject(new StoreUnavailableError('data the request needs stayed locked longer than the lock timeout', { retryAfterSeconds: 2 })), 150));
        }
        return Reflect.get(target, key, receiver);
      },
    });
    const target = createScimServer({ resourceTypes: [userResourceType], store, logger: { log: () => undefined } });
    const created = await call(target, post('/Users', user('queued')));
    stalled = true;
    const started = performance.now();
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(target, { method: 'PATCH', path: `/Users/${created.body['id']}`, headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [URN.patchOp], Operations: [{ op: 'replace', path: 'title', value: `t${i}` }] }) }),
      ),
    );
    const elapsed = performance.now() - started;
    expect(replies.map((reply) => [reply.status, reply.headers['Retry-After']])).toEqual(Array.from({ length: 6 }, () => [503, '2']));
    // One timeout, not six in a row.
    expect(elapsed).toBeLessThan(600);
    stalled = false;
    const after = await call(target, { method: 'PATCH', path: `/Users/${created.body['id']}`, headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [URN.patchOp], Operations: [{ op: 'replace', path: 'title', value: 'back' }] }) });
    expect(after.status).toBe(200);
  });
});
