import { describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, groupResourceType, StoreUnavailableError, URN, userResourceType, type ScimServerConfig, type ScimStore } from '../../src/index.js';
import { call, post, user } from './helpers.js';

/**
 * A memory store behind a slow database: every call takes `delayMs` (a lock wait that each
 * statement survives just under its own timeout), and declares `callTimeoutMs`, the longest one
 * call may take. `calls` counts the calls that reached the backend.
 */
function slowStore(delayMs: number, callTimeoutMs: number) {
  const memory = createMemoryStore();
  const state = { slow: false, calls: 0 };
  const slowly =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (state.slow) {
        state.calls++;
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
      return run(...args);
    };
  const store: ScimStore = {
    // Without `references`: the core removes the deleted user from each group itself, one call per group.
    capabilities: { ...memory.capabilities, references: false, callTimeoutMs },
    create: slowly(memory.create.bind(memory)),
    get: slowly(memory.get.bind(memory)),
    replace: slowly(memory.replace.bind(memory)),
    delete: slowly(memory.delete.bind(memory)),
    query: slowly(memory.query.bind(memory)),
  };
  return { store, state };
}

const config = (store: ScimStore, extra: Partial<ScimServerConfig> = {}): ScimServerConfig => ({
  resourceTypes: [userResourceType, groupResourceType],
  store,
  logger: { log: () => undefined },
  bulk: {},
  ...extra,
});

/** A user in three groups: deleting it reads it, deletes it and rewrites each group (several store calls). */
async function member(target: ReturnType<typeof createScimServer>): Promise<string> {
  const created = await call(target, post('/Users', user('leaver')));
  for (const name of ['a', 'b', 'c']) {
    await call(target, post('/Groups', { schemas: [URN.group], displayName: name, members: [{ value: created.body['id'] }] }));
  }
  return created.body['id'] as string;
}

describe("one deadline for a request's store calls (storeDeadlineMs)", () => {
  it('without it a request making several calls waits for each in turn: longer than one call may', async () => {
    const { store, state } = slowStore(300, 400);
    const target = createScimServer(config(store, { storeDeadlineMs: false }));
    const id = await member(target);
    state.slow = true;
    const started = performance.now();
    const reply = await call(target, { method: 'DELETE', path: `/Users/${id}` });
    expect(reply.status).toBe(204);
    expect(state.calls).toBeGreaterThanOrEqual(3);
    expect(performance.now() - started).toBeGreaterThan(400 + 500);
  });

  it('with the store\'s callTimeoutMs the request is answered 503 at the deadline, and calls past it never reach the store', async () => {
    const { store, state } = slowStore(300, 400);
    const target = createScimServer(config(store));
    const id = await member(target);
    state.slow = true;
    const reply = await call(target, { method: 'DELETE', path: `/Users/${id}` });
    expect(reply.status).toBe(503);
    expect(reply.headers['Retry-After']).toBe('2');
    expect(reply.body).toMatchObject({ schemas: [URN.error], status: '503' });
    expect(String(reply.body['detail'])).toContain("the database did not answer within the request's deadline (900 ms)");
    // 900 ms hold three 300 ms calls; a later one is refused without reaching the store.
    expect(state.calls).toBeLessThanOrEqual(4);
    state.slow = false;
    // The identity provider's retry finishes the delete (or finds it done).
    expect([204, 404]).toContain((await call(target, { method: 'DELETE', path: `/Users/${id}` })).status);
    expect((await call(target, { method: 'GET', path: `/Users/${id}` })).status).toBe(404);
  });

  it('a call that never answers is cut off at the deadline', async () => {
    const memory = createMemoryStore();
    const store: ScimStore = { ...memory, capabilities: { ...memory.capabilities, callTimeoutMs: 100 }, get: () => new Promise(() => undefined) };
    const target = createScimServer(config(store));
    const started = performance.now();
    const reply = await call(target, { method: 'GET', path: '/Users/anyone' });
    expect(reply.status).toBe(503);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('storeDeadlineMs overrides the store\'s; a bad value is refused at start-up', () => {
    const { store } = slowStore(1, 200);
    expect(() => createScimServer(config(store, { storeDeadlineMs: 0 }))).toThrow(/storeDeadlineMs must be a positive number/);
    expect(() => createScimServer(config(store, { storeDeadlineMs: Number.NaN }))).toThrow(TypeError);
  });

  it('in a Bulk request each operation has its own deadline, and once one finds the store unavailable the rest fail at once', async () => {
    const memory = createMemoryStore();
    let creates = 0;
    const store: ScimStore = {
      ...memory,
      capabilities: { ...memory.capabilities, callTimeoutMs: 1_000 },
      create: (...args) => (++creates === 2 ? Promise.reject(new StoreUnavailableError('the database connection was lost')) : memory.create(...args)),
    };
    const target = createScimServer(config(store));
    const reply = await call(
      target,
      post('/Bulk', { schemas: [URN.bulkRequest], Operations: ['one', 'two', 'three', 'four'].map((name) => ({ method: 'POST', path: '/Users', bulkId: name, data: user(name) })) }),
    );
    expect(reply.body['Operations'].map((op: { status: string }) => op.status)).toEqual(['201', '503', '503', '503']);
    // The operations after the failure did not reach the store (no second wait on an unavailable database).
    expect(creates).toBe(2);
    // The next request starts afresh.
    expect((await call(target, post('/Users', user('five')))).status).toBe(201);
  });

  it('a Bulk request of fast operations is not cut off by a deadline shorter than the whole request', async () => {
    const { store, state } = slowStore(40, 60);
    const target = createScimServer(config(store));
    state.slow = true;
    const reply = await call(
      target,
      post('/Bulk', { schemas: [URN.bulkRequest], Operations: Array.from({ length: 12 }, (_, i) => ({ method: 'POST', path: '/Users', bulkId: `b${i}`, data: user(`bulk${i}`) })) }),
    );
    expect(reply.body['Operations'].map((op: { status: string }) => op.status)).toEqual(Array.from({ length: 12 }, () => '201'));
  });
});
