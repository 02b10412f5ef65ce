import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDatabase } from './server-database.js';

/*
 * Two scimkit processes (the seed service, SCIMKIT_STORE=postgres://…) on one database: nothing but
 * PostgreSQL keeps them consistent. Requests alternate between them.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SCIM = 'application/scim+json';
let drop: (() => Promise<void>) | undefined;
const instances: { child: ChildProcess; baseUrl: string }[] = [];

function startInstance(databaseUrl: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/seed-service/src/main.ts'], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', SCIMKIT_STORE: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening at (http:\/\/\S+)/.exec(output);
      if (found?.[1] !== undefined) resolve({ child, baseUrl: found[1] });
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`instance exited with ${code}: ${output}`)));
  });
}

async function send(index: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const instance = instances[index % instances.length];
  if (instance === undefined) throw new Error('no instance');
  const response = await fetch(`${instance.baseUrl}${path}`, {
    method,
    headers: { accept: SCIM, ...(body === undefined ? {} : { 'content-type': SCIM }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

const user = (userName: string) => ({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName });
const patch = (...operations: unknown[]) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations });
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('two scimkit processes on one PostgreSQL database', () => {
  beforeAll(async () => {
    const database = await serverDatabase();
    drop = database.drop;
    // Started together: both migrate at once, under the advisory lock.
    instances.push(...(await Promise.all([startInstance(database.url), startInstance(database.url)])));
  }, 120_000);

  afterAll(async () => {
    for (const { child } of instances) child.kill('SIGTERM');
    await Promise.all(instances.map(({ child }) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)))));
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

  it('a user created on one instance is found by userName on the other, and gone there once deleted', async () => {
    const created = await send(0, 'POST', '/Users', user('shared'));
    expect(created.status).toBe(201);
    expect((await send(1, 'GET', '/Users?filter=userName%20eq%20%22SHARED%22')).body.Resources[0].id).toBe(created.body.id);
    expect((await send(1, 'DELETE', `/Users/${created.body.id}`)).status).toBe(204);
    expect((await send(0, 'GET', `/Users/${created.body.id}`)).status).toBe(404);
  }, 60_000);
});
