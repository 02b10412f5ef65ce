import { createMemoryStore, createScimServer, groupResourceType, userResourceType, type ScimServer, type ScimStore } from '@scimkit/core';
import { createEventDispatcher, retryDelay, webhookDelivery, type WebhookPayload } from '@scimkit/events';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from './receiver.js';

const SECRET = `whsec_${Buffer.from('a test secret of thirty-two bytes!').toString('base64')}`;
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const quiet = { log: () => undefined };

function scim(store: ScimStore): ScimServer {
  return createScimServer({ resourceTypes: [userResourceType, groupResourceType], store, events: {}, logger: quiet });
}

async function createUser(server: ScimServer, userName: string): Promise<string> {
  const response = await server.handle({ method: 'POST', path: '/Users', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [USER], userName }) });
  expect(response.status).toBe(201);
  return JSON.parse(response.body ?? '{}').id as string;
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

describe('webhooks (Standard Webhooks)', () => {
  it('delivers every event signed: a receiver verifies with the standardwebhooks library; type is the event name', async () => {
    const store = createMemoryStore();
    const server = scim(store);
    const verified: WebhookPayload[] = [];
    const receiver = await startReceiver(({ headers, body }, response) => {
      verified.push(new Webhook(SECRET).verify(body, headers) as WebhookPayload);
      response.writeHead(204).end();
    });
    receivers.push(receiver);
    const id = await createUser(server, 'signed');
    await server.handle({ method: 'DELETE', path: `/Users/${id}`, headers: {} });
    const dispatcher = createEventDispatcher({ outbox: store.outbox!, consumer: 'hooks', deliver: webhookDelivery({ endpoint: { url: receiver.url, secret: SECRET } }), logger: quiet });
    expect(await dispatcher.runOnce()).toBe(2);
    expect(verified.map((p) => p.type)).toEqual(['user.created', 'user.deleted']);
    expect(verified[0]?.data).toMatchObject({ resourceType: 'User', resourceId: id, type: 'user.created' });
    expect(receiver.requests[0]?.headers['webhook-id']).toBe(verified[0]?.data.id);
    // A tampered body does not verify.
    const first = receiver.requests[0]!;
    expect(() => new Webhook(SECRET).verify(first.body.replace('user.created', 'user.deleted'), first.headers)).toThrow();
    expect(dispatcher.metrics.delivered).toBe(2);
  });

  it('a receiver down, then 500, then timing out, then recovering: everything delivered in order, backoff honoured', async () => {
    const store = createMemoryStore();
    const server = scim(store);
    let calls = 0;
    const receiver = await startReceiver((_request, response, socket) => {
      calls++;
      if (calls <= 2) return void socket.destroy(); // down: the connection drops
      if (calls <= 4) return void response.writeHead(500).end();
      if (calls <= 5) return; // never answers: the delivery times out
      response.writeHead(200).end();
    });
    receivers.push(receiver);
    const ids = [await createUser(server, 'r1'), await createUser(server, 'r2')];
    const backoff = { baseMs: 40, maxMs: 400 };
    const dispatcher = createEventDispatcher({
      outbox: store.outbox!,
      consumer: 'flaky',
      deliver: webhookDelivery({ endpoint: { url: receiver.url, secret: SECRET }, timeoutMs: 300 }),
      maxAttempts: 10,
      backoff,
      logger: quiet,
    });
    await dispatcher.runOnce();
    const delivered = receiver.requests.slice(5).map((r) => (JSON.parse(r.body) as WebhookPayload).data.resourceId);
    expect(new Set(delivered)).toEqual(new Set(ids));
    expect(dispatcher.metrics).toMatchObject({ delivered: 2, failures: 5, deadLettered: 0 });
    // Each retry waited at least half its exponential bound (jitter keeps it within [bound/2, bound]).
    const firstEvent = receiver.requests.slice(0, 6).filter((r) => JSON.parse(r.body).data.resourceId === JSON.parse(receiver.requests[0]!.body).data.resourceId);
    for (let i = 1; i < firstEvent.length; i++) {
      const bound = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (i - 1));
      expect(firstEvent[i]!.at - firstEvent[i - 1]!.at).toBeGreaterThanOrEqual(bound / 2 - 5);
    }
    expect(retryDelay(3, backoff)).toBeGreaterThanOrEqual(80);
    expect(retryDelay(3, backoff)).toBeLessThanOrEqual(160);
  }, 20_000);

  it('dead-letters after maxAttempts, keeps going with the next events, and redelivers on demand', async () => {
    const store = createMemoryStore();
    const server = scim(store);
    let healthy = false;
    const receiver = await startReceiver((_request, response) => void response.writeHead(healthy ? 204 : 503).end());
    receivers.push(receiver);
    await createUser(server, 'dead1');
    await createUser(server, 'dead2');
    const errors: string[] = [];
    const dispatcher = createEventDispatcher({
      outbox: store.outbox!,
      consumer: 'dead',
      deliver: webhookDelivery({ endpoint: { url: receiver.url, secret: SECRET } }),
      maxAttempts: 3,
      backoff: { baseMs: 5, maxMs: 20 },
      logger: { log: (record) => void (record.level === 'error' && errors.push(record.message)) },
    });
    await dispatcher.runOnce();
    expect(receiver.requests).toHaveLength(6);
    expect(dispatcher.metrics.deadLettered).toBe(2);
    const letters = await store.outbox!.deadLetters('dead', 10);
    expect(letters.map((l) => [l.attempts, l.error])).toEqual([
      [3, `${receiver.url} answered 503`],
      [3, `${receiver.url} answered 503`],
    ]);
    expect(errors.filter((m) => m.includes('dead-lettered'))).toHaveLength(2);
    // The position moved past them: nothing is left to deliver.
    expect((await store.outbox!.stats('dead')).backlog).toBe(0);
    healthy = true;
    expect(await dispatcher.redeliver([letters[0]!.event.id])).toBe(1);
    expect(await dispatcher.redeliver()).toBe(1);
    expect(await store.outbox!.deadLetters('dead', 10)).toEqual([]);
    expect(dispatcher.metrics.redelivered).toBe(2);
    const redelivered = receiver.requests.slice(6).map((r) => r.headers['webhook-id']);
    expect(redelivered).toEqual(letters.map((l) => l.event.id));
  });

  it('a 4xx other than 408/429 is permanent: dead-lettered at once; per-tenant endpoints route and skip', async () => {
    const store = createMemoryStore();
    const server = scim(store);
    const receiver = await startReceiver((_request, response) => void response.writeHead(410).end());
    receivers.push(receiver);
    await createUser(server, 'gone');
    const dispatcher = createEventDispatcher({
      outbox: store.outbox!,
      consumer: 'gone',
      deliver: webhookDelivery({ endpoint: (event) => (event.tenant === undefined ? { url: receiver.url, secret: SECRET } : undefined) }),
      logger: quiet,
    });
    await dispatcher.runOnce();
    expect(receiver.requests).toHaveLength(1);
    expect((await store.outbox!.deadLetters('gone', 10))[0]?.attempts).toBe(1);
  });

  it('start() polls and delivers new events; stop() releases; the outbox bound drops the oldest with a clear error and a metric', async () => {
    const store = createMemoryStore();
    const server = scim(store);
    const receiver = await startReceiver();
    receivers.push(receiver);
    const errors: string[] = [];
    const dispatcher = createEventDispatcher({
      outbox: store.outbox!,
      consumer: 'live',
      deliver: webhookDelivery({ endpoint: { url: receiver.url, secret: SECRET } }),
      pollIntervalMs: 20,
      retention: { maxEvents: 3, keepMs: 0, intervalMs: 0 },
      logger: { log: (record) => void (record.level === 'error' && errors.push(record.message)) },
    });
    dispatcher.start();
    await createUser(server, 'live1');
    await until(() => receiver.requests.length === 1);
    await dispatcher.stop();
    // live1 is delivered: pruned (keepMs 0), whether or not the running dispatcher pruned it already.
    expect((await dispatcher.prune()).dropped).toBe(0);
    for (let i = 0; i < 6; i++) await createUser(server, `backlog${i}`);
    // Six undelivered, three over the bound.
    expect((await store.outbox!.stats('live')).events).toBe(6);
    expect((await dispatcher.prune()).dropped).toBe(3);
    expect(dispatcher.metrics.dropped).toBe(3);
    expect(errors.some((m) => m.includes('dropped undelivered'))).toBe(true);
    expect(await dispatcher.runOnce()).toBe(3);
  });
});
