import { describe, expect, it } from 'vitest';
import { createMemoryStore, type ScimStore } from '../../src/index.js';
import { call, post, server, user } from './helpers.js';

describe('unexpected failures', () => {
  const throwing = (method: keyof ScimStore): ScimStore => {
    const store = createMemoryStore();
    return new Proxy(store, {
      get(target, key, receiver) {
        if (key === method) return () => Promise.reject(new Error('database is down: secret connection string'));
        return Reflect.get(target, key, receiver);
      },
    });
  };

  for (const method of ['create', 'get', 'query'] as const) {
    it(`a store whose ${method} throws gives a generic 500 and reaches the logger`, async () => {
      const logged: unknown[] = [];
      const target = server({ store: throwing(method), logger: { log: (record) => void (record.level === 'error' && logged.push(record.error)) } });
      const request = method === 'create' ? post('/Users', user('x')) : method === 'get' ? { method: 'GET', path: '/Users/some-id' } : { method: 'GET', path: '/Users' };
      const reply = await call(target, request);
      expect(reply.status).toBe(500);
      expect(reply.body).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '500', detail: 'Internal server error' });
      expect(JSON.stringify(reply.body)).not.toContain('secret');
      expect(logged).toHaveLength(1);
      expect((logged[0] as Error).message).toContain('database is down');
    });
  }

  it('a throwing logger does not break the 500', async () => {
    const target = server({ store: throwing('query'), logger: { log: () => { throw new Error('logger broke'); } } });
    expect((await call(target, { method: 'GET', path: '/Users' })).status).toBe(500);
  });

  it('an async logger that rejects leaves no unhandled rejection (which would end the process)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const target = server({ store: throwing('query'), logger: { log: async () => Promise.reject(new Error('log sink down')) } });
      expect((await call(target, { method: 'GET', path: '/Users' })).status).toBe(500);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('never returns a header an adapter cannot write: a broken store version is left out, a non-ASCII Location encoded', async () => {
    const memory = createMemoryStore();
    const store = new Proxy(memory, {
      get(target, key, receiver) {
        if (key !== 'get') return Reflect.get(target, key, receiver);
        return async (type: string, id: string) => {
          const found = await memory.get(type, id);
          return found && { ...found, meta: { ...found.meta, version: 'W/"1"\r\nSet-Cookie: session=stolen' } };
        };
      },
    });
    const target = server({ store, baseUrl: 'https://exämple.com/scim' });
    const created = await call(target, post('/Users', user('headers')));
    expect(created.headers['Location']).toBe(`https://xn--exmple-cua.com/scim/Users/${created.body['id']}`);
    const read = await call(target, { method: 'GET', path: `/Users/${created.body['id']}` });
    expect(read.status).toBe(200);
    expect(read.headers['ETag']).toBeUndefined();
    for (const value of Object.values(read.headers)) expect(value).toMatch(/^[\t\x20-\x7e]*$/);
  });

  it('a throwing authenticate hook is a 500', async () => {
    const target = server({ authenticate: () => { throw new Error('idp unreachable'); } });
    expect((await call(target, { method: 'GET', path: '/Users' })).status).toBe(500);
  });

  it('handle never rejects, even for nonsense requests', async () => {
    const target = server();
    const nonsense = [null, undefined, {}, { method: 42, path: {} }, { method: 'POST', path: '/Users', body: 12 },
      { method: 'GET', path: '/Users', query: { count: 5, filter: ['userName eq', 7] }, headers: { 'if-none-match': 5, host: ['a', 'b'] }, baseUrl: 42 }];
    for (const request of nonsense) {
      const response = await target.handle(request as never);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    // A repeated parameter takes its first value.
    const repeated = await target.handle({ method: 'GET', path: '/Users', query: { count: ['1', '2'] } });
    expect(repeated.status).toBe(200);
  });
});
