import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, stopInstances, type ScimInstance } from './scim-instance.js';
import { serverDatabase } from './server-database.js';

/*
 * Two scimkit processes (the seed service, SCIMKIT_STORE=postgres://…) on one database: nothing but
 * PostgreSQL keeps them consistent. Requests alternate between them.
 */

let drop: (() => Promise<void>) | undefined;
const instances: ScimInstance[] = [];

function send(index: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const instance = instances[index % instances.length];
  if (instance === undefined) throw new Error('no instance');
  return instance.send(method, path, body, headers);
}

const user = (userName: string) => ({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName });
const patch = (...operations: unknown[]) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations });
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('two scimkit processes on one PostgreSQL database', () => {
  beforeAll(async () => {
    const database = await serverDatabase();
    drop = database.drop;
    // Started together: both migrate at once, under the advisory lock.
    const main = 'examples/seed-service/src/main.ts';
    instances.push(...(await Promise.all([startInstance(main, database.url), startInstance(main, database.url)])));
  }, 120_000);

  afterAll(async () => {
    await stopInstances(instances);
    await drop?.();
  }, 60_000);

  it('50 parallel creates of one userName: exactly one 201, 49 × 409 uniqueness', async () => {
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => send(i, 'POST', '/Users', user(i % 2 === 0 ? 'race' : 'RACE'))));
    const statuses = replies.map((r) => r.status);
    expect(count(statuses, 201)).toBe(1);
    expect(count(statuses, 409)).toBe(49);
    for (const reply of replies.filter((r) => r.status === 409)) expect(reply.body.scimType).toBe('uniqueness');
    expect((await send(1, 'GET', '/Users?filter=userName%20eq%20%22race%22')).body.totalResults).toBe(1);
  }, 60_000);

  it('100 parallel PATCHes holding one If-Match: exactly one 200, 99 × 412', async () => {
    const created = (await send(0, 'POST', '/Users', user('cas'))).body;
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        send(i, 'PATCH', `/Users/${created.id}`, patch({ op: 'replace', path: 'title', value: `writer ${i}` }), { 'If-Match': created.meta.version }),
      ),
    );
    const statuses = replies.map((r) => r.status);
    expect(count(statuses, 200)).toBe(1);
    expect(count(statuses, 412)).toBe(99);
    const winner = replies.find((r) => r.status === 200);
    for (const index of [0, 1]) {
      const read = (await send(index, 'GET', `/Users/${created.id}`)).body;
      expect(read.title).toBe(winner?.body.title);
      expect(read.meta.version).toBe(winner?.body.meta.version);
    }
  }, 60_000);

  it('200 parallel appends without If-Match: none lost', async () => {
    const created = (await send(0, 'POST', '/Users', user('appender'))).body;
    const append = (i: number) => send(i, 'PATCH', `/Users/${created.id}`, patch({ op: 'add', path: 'emails', value: [{ value: `a${i}@example.com` }] }));
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => append(i)));
    // Each instance serializes its own writes; across the two, the core's compare-and-swap retries,
    // so every append goes through.
    expect(replies.map((reply) => reply.status)).toEqual(Array.from({ length: 200 }, () => 200));
    const read = (await send(1, 'GET', `/Users/${created.id}`)).body;
    const values = new Set((read.emails as { value: string }[]).map((e) => e.value));
    expect(values.size).toBe(200);
    for (let i = 0; i < 200; i++) expect(values.has(`a${i}@example.com`)).toBe(true);
  }, 120_000);

  it('300 parallel creates and 100 deletes on both: the unfiltered total is exact on each (count changes folded by both at once)', async () => {
    const total = async (index: number) => (await send(index, 'GET', '/Users?count=1')).body.totalResults as number;
    const before = await total(0);
    const created = await Promise.all(Array.from({ length: 300 }, (_, i) => send(i, 'POST', '/Users', user(`counted-${i}`))));
    expect(created.map((reply) => reply.status)).toEqual(Array.from({ length: 300 }, () => 201));
    const deleted = await Promise.all(created.slice(0, 100).map((reply, i) => send(i + 1, 'DELETE', `/Users/${reply.body.id}`)));
    expect(deleted.map((reply) => reply.status)).toEqual(Array.from({ length: 100 }, () => 204));
    // Each instance folded its type's changes at its 64th, 128th, … write, some while the other wrote.
    expect([await total(0), await total(1)]).toEqual([before + 200, before + 200]);
    const listed = (await send(1, 'GET', '/Users?filter=userName%20sw%20%22counted-%22&count=1')).body.totalResults;
    expect(listed).toBe(200);
  }, 120_000);

  it('a user created on one instance is found by userName on the other, and gone there once deleted', async () => {
    const created = await send(0, 'POST', '/Users', user('shared'));
    expect(created.status).toBe(201);
    expect((await send(1, 'GET', '/Users?filter=userName%20eq%20%22SHARED%22')).body.Resources[0].id).toBe(created.body.id);
    expect((await send(1, 'DELETE', `/Users/${created.body.id}`)).status).toBe(204);
    expect((await send(0, 'GET', `/Users/${created.body.id}`)).status).toBe(404);
  }, 60_000);
});
