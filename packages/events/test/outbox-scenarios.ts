import { createScimServer, groupResourceType, userResourceType, type ScimEvent, type ScimServer, type ScimStore } from '@scimkit/core';
import { createEventDispatcher } from '@scimkit/events';
import { expect } from 'vitest';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const quiet = { log: () => undefined };

export function eventServer(store: ScimStore, extra: Record<string, unknown> = {}): ScimServer {
  return createScimServer({ resourceTypes: [userResourceType, groupResourceType], store, events: { payload: 'resource' }, logger: quiet, ...extra });
}

const json = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => ({
  method,
  path,
  headers: { 'content-type': 'application/scim+json', ...headers },
  body: JSON.stringify(body),
});

async function until(condition: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting for deliveries');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Two instances (a store, a SCIM server and a dispatcher each) on one database: `users` users, each
 * created and then patched `patches` times, the writes spread over both servers. Every event is
 * delivered, none lost, each resource's in write order; duplicates are counted (none expected).
 */
export async function twoInstances(stores: readonly [ScimStore, ScimStore], users: number, patches: number, timeoutMs: number): Promise<{ events: number; duplicates: number }> {
  const servers = stores.map((store) => eventServer(store));
  const seen = new Map<string, number>();
  const byResource = new Map<string, ScimEvent[]>();
  const dispatchers = stores.map((store, i) =>
    createEventDispatcher({
      outbox: store.outbox!,
      consumer: 'shared',
      owner: `instance-${i}`,
      pollIntervalMs: 20,
      leaseMs: 5_000,
      logger: quiet,
      deliver: async (event) => {
        seen.set(event.id, (seen.get(event.id) ?? 0) + 1);
        if (seen.get(event.id) === 1) {
          const list = byResource.get(event.resourceId) ?? [];
          list.push(event);
          byResource.set(event.resourceId, list);
        }
      },
    }),
  );
  for (const dispatcher of dispatchers) dispatcher.start();
  try {
    let turn = 0;
    const next = (): ScimServer => servers[turn++ % 2]!;
    const one = async (u: number): Promise<void> => {
      const created = await next().handle(json('POST', '/Users', { schemas: [USER], userName: `u${u}` }));
      expect(created.status).toBe(201);
      const id = JSON.parse(created.body ?? '{}').id as string;
      for (let p = 1; p <= patches; p++) {
        const patched = await next().handle(json('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'title', value: String(p) }] }));
        expect(patched.status).toBeLessThan(300);
      }
    };
    const lanes = 8;
    await Promise.all(Array.from({ length: lanes }, async (_, lane) => {
      for (let u = lane; u < users; u += lanes) await one(u);
    }));
    const expected = users * (patches + 1);
    await until(() => seen.size >= expected, timeoutMs);
    expect(seen.size).toBe(expected);
    expect(byResource.size).toBe(users);
    for (const list of byResource.values()) {
      expect(list.map((event) => event.type)).toEqual(['user.created', ...Array.from({ length: patches }, () => 'user.updated')]);
      expect(list.slice(1).map((event) => event.resource?.['title'])).toEqual(Array.from({ length: patches }, (_, p) => String(p + 1)));
    }
    const duplicates = [...seen.values()].reduce((sum, n) => sum + n - 1, 0);
    return { events: expected, duplicates };
  } finally {
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.stop()));
  }
}

/** A refused write, a lost compare-and-swap and a rolled-back transaction leave no event row. */
export async function noEventWithoutCommit(store: ScimStore): Promise<void> {
  let refuse = false;
  const server = eventServer(store, { beforeWrite: () => (refuse ? { status: 403, detail: 'refused' } : undefined) });
  const created = await server.handle(json('POST', '/Users', { schemas: [USER], userName: 'only' }));
  const id = JSON.parse(created.body ?? '{}').id as string;
  refuse = true;
  expect((await server.handle(json('POST', '/Users', { schemas: [USER], userName: 'refused' }))).status).toBe(403);
  refuse = false;
  // A stale If-Match: the store's compare-and-swap fails.
  expect((await server.handle(json('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'title', value: 'x' }] }, { 'if-match': 'W/"stale"' }))).status).toBe(412);
  // U+0000 cannot be kept in jsonb: the transaction rolls back after the resource update was sent.
  expect((await server.handle(json('PUT', `/Users/${id}`, { schemas: [USER], userName: 'only', title: 'nul\u0000here' }))).status).toBe(400);
  expect((await server.handle(json('POST', '/Users', { schemas: [USER], userName: 'ONLY' }))).status).toBe(409);
  const leases = await store.outbox!.lease('check', 'me', { max: store.outbox!.partitions, leaseMs: 5_000 });
  const records = (await Promise.all(leases.map((lease) => store.outbox!.read(lease, 100)))).flat();
  expect(records.map((record) => record.event.type)).toEqual(['user.created']);
}

/**
 * Retention and the bound, on the store's outbox: an event every consumer has passed is pruned once
 * older than the retention, an undelivered one is not; past `maxEvents` the oldest are dropped
 * undelivered (a receiver down), and the rest are still delivered.
 */
export async function retentionAndBound(store: ScimStore, userName: (n: number) => string = (n) => `kept${n}@example.com`): Promise<void> {
  const server = eventServer(store);
  const outbox = store.outbox!;
  const delivered: ScimEvent[] = [];
  const dispatcher = createEventDispatcher({ outbox, consumer: 'retained', retention: false, logger: quiet, deliver: async (event) => void delivered.push(event) });
  expect((await server.handle(json('POST', '/Users', { schemas: [USER], userName: userName(0) }))).status).toBe(201);
  expect(await dispatcher.runOnce()).toBe(1);
  // Not older than the retention yet: kept.
  expect(await outbox.prune({ before: new Date(Date.now() - 60_000) })).toEqual({ pruned: 0, dropped: 0 });
  expect(await outbox.prune({ before: new Date(Date.now() + 60_000) })).toEqual({ pruned: 1, dropped: 0 });
  expect((await outbox.stats('retained')).events).toBe(0);
  // The receiver is down: six events wait; the bound keeps the newest three.
  for (let n = 1; n <= 6; n++) expect((await server.handle(json('POST', '/Users', { schemas: [USER], userName: userName(n) }))).status).toBe(201);
  expect(await outbox.prune({ before: new Date(Date.now() + 60_000) })).toEqual({ pruned: 0, dropped: 0 });
  expect(await outbox.stats('retained')).toMatchObject({ backlog: 6, events: 6 });
  expect(await outbox.prune({ before: new Date(0), maxEvents: 3 })).toEqual({ pruned: 0, dropped: 3 });
  expect(await dispatcher.runOnce()).toBe(3);
  // The newest three (resources in different partitions: in any order between them).
  expect(delivered.slice(1).map((event) => (event.resource as { userName?: string } | undefined)?.userName).sort()).toEqual([userName(4), userName(5), userName(6)]);
}

/**
 * The store's own compare-and-swap and a transaction that fails after the write leave no event,
 * called directly (the server's If-Match answers 412 before the store is asked).
 */
export async function noEventFromTheStore(store: ScimStore): Promise<void> {
  const server = eventServer(store);
  const created = await server.handle(json('POST', '/Users', { schemas: [USER], userName: 'direct' }));
  const user = JSON.parse(created.body ?? '{}') as { id: string; meta: { version: string } };
  const group = JSON.parse((await server.handle(json('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'team', members: [{ value: user.id }] }))).body ?? '{}') as { id: string; meta: { version: string } };
  const probe = (resourceId: string): ScimEvent[] => [{ id: globalThis.crypto.randomUUID(), type: 'user.updated', time: new Date().toISOString(), resourceType: 'User', resourceId, operation: 'replace', requestId: 'direct' }];
  const meta = (version: string) => ({ resourceType: 'User', version, created: '2026-01-01T00:00:00Z', lastModified: '2026-01-01T00:00:00Z' });
  const stale = await store.replace('User', user.id, { schemas: [USER], id: user.id, userName: 'direct', title: 'lost', meta: meta('W/"other"') }, 'W/"other"', { unique: [], events: () => probe(user.id) });
  expect(stale).toMatchObject({ ok: false, reason: 'versionMismatch' });
  const failing = () => {
    throw new Error('failed after the write');
  };
  await expect(store.replace('Group', group.id, { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], id: group.id, displayName: 'renamed', members: [], meta: { ...meta('W/"next"'), resourceType: 'Group' } }, group.meta.version, { unique: [], events: failing })).rejects.toThrow('failed after the write');
  expect((await store.get('Group', group.id))?.['displayName']).toBe('team');
  const leases = await store.outbox!.lease('direct-check', 'me', { max: store.outbox!.partitions, leaseMs: 5_000 });
  const records = (await Promise.all(leases.map((lease) => store.outbox!.read(lease, 100)))).flat();
  expect(records.map((record) => record.event.type).sort()).toEqual(['group.created', 'user.created']);
}
