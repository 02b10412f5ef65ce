import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createScimServer, groupResourceType, URN, userResourceType, type ScimEvent, type ScimStore } from '@scimkit/core';
import { createEventDispatcher } from '@scimkit/events';
import { expect } from 'vitest';
import { twoInstances } from '../../events/test/outbox-scenarios.js';
import { createSqlStore, type SqlConnection } from '../src/index.js';
import { mapping as ownTablesMapping } from '../../../examples/own-tables/src/mapping.js';
import { eventStore } from './outbox-store.js';

export { eventStore };

const quiet = { log: () => undefined };
const json = (method: string, path: string, body: unknown) => ({ method, path, headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify(body) });

/** Every record of a fresh consumer, across its partitions. */
async function everything(store: ScimStore, consumer: string): Promise<ScimEvent[]> {
  const outbox = store.outbox!;
  const leases = await outbox.lease(consumer, 'reader', { max: outbox.partitions, leaseMs: 10_000 });
  return (await Promise.all(leases.map((lease) => outbox.read(lease, 1000)))).flat().map((record) => record.event);
}

/** Two instances (a SCIM server and a dispatcher each) over the store's database: every event once, in order per resource. */
export async function sharedDelivery(connection: SqlConnection, users: number, patches: number): Promise<void> {
  const first = await eventStore(connection);
  const second = createSqlStore({ ...connection, mapping: ownTablesMapping, unmapped: 'ignore', events: true });
  expect(await twoInstances([first, second], users, patches, 30_000)).toEqual({ events: users * (patches + 1), duplicates: 0 });
}

/**
 * Exactly the committed writes have events: a write refused by `beforeWrite`, a lost
 * compare-and-swap in the store, a uniqueness conflict and a transaction rolled back after the
 * write leave none; the committed ones are there, in order.
 */
export async function noEventWithoutCommit(connection: SqlConnection): Promise<void> {
  const store = await eventStore(connection);
  let refuse = false;
  const server = createScimServer({
    resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }] }, groupResourceType],
    store,
    events: {},
    logger: quiet,
    beforeWrite: () => (refuse ? { status: 403, detail: 'refused' } : undefined),
  });
  const created = await server.handle(json('POST', '/Users', { schemas: [URN.user], userName: 'only@example.com' }));
  expect(created.status).toBe(201);
  const user = JSON.parse(created.body ?? '{}') as { id: string; meta: { version: string } };
  refuse = true;
  expect((await server.handle(json('POST', '/Users', { schemas: [URN.user], userName: 'refused@example.com' }))).status).toBe(403);
  refuse = false;
  expect((await server.handle(json('POST', '/Users', { schemas: [URN.user], userName: 'ONLY@example.com' }))).status).toBe(409);
  const event = (type: string): ScimEvent => ({ id: globalThis.crypto.randomUUID(), type, time: new Date().toISOString(), resourceType: 'User', resourceId: user.id, operation: 'replace', requestId: 'direct' });
  const resource = { schemas: [URN.user], id: user.id, userName: 'only@example.com', title: 'changed', meta: { resourceType: 'User', version: 'W/"1"', created: '2026-01-01T00:00:00Z', lastModified: '2026-01-01T00:00:00Z' } };
  // The store's compare-and-swap fails: a version that is not the row's.
  const stale = await store.replace('User', user.id, resource, 'W/"1"', { unique: [], events: () => [event('user.updated')] });
  expect(stale).toMatchObject({ ok: false, reason: 'versionMismatch' });
  // The transaction rolls back after the row was updated: neither the change nor an event stays.
  await expect(
    store.replace('User', user.id, resource, user.meta.version, {
      unique: [],
      events: () => {
        throw new Error('the write fails after the row was updated');
      },
    }),
  ).rejects.toThrow('after the row was updated');
  expect((await store.get('User', user.id))?.['title']).toBeUndefined();
  expect((await everything(store, 'check')).map((e) => e.type)).toEqual(['user.created']);
}

const childScript = fileURLToPath(new URL('./outbox-crash-child.ts', import.meta.url));
const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Kill -9: a process writes a user through SCIM over `target` (`sqlite:<file>`, a `postgres://` or
 * `mysql://` URL), prints the acknowledged id and is killed before any delivery; a new store over
 * the same database delivers the event.
 */
export async function killedAfterAcknowledge(target: string, reopen: () => Promise<SqlConnection>): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, target], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const id = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /acknowledged (\S+)/.exec(output);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the writer exited with ${code}: ${output}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  const connection = await reopen();
  const store = createSqlStore({ ...connection, mapping: ownTablesMapping, unmapped: 'ignore', events: true });
  const delivered: ScimEvent[] = [];
  const dispatcher = createEventDispatcher({ outbox: store.outbox!, consumer: 'after-crash', logger: quiet, deliver: async (event) => void delivered.push(event) });
  await dispatcher.runOnce();
  expect(delivered.map((event) => [event.type, event.resourceId])).toEqual([['user.created', id]]);
  await connection.db.destroy();
}
