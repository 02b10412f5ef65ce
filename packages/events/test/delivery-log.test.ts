import { bearerToken, createMemoryStore, createScimServer, userResourceType, type ScimServer, type ScimStore } from '@scimkit/core';
import { createDeliveryLog, createEventDispatcher, webhookDelivery } from '@scimkit/events';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from './receiver.js';

const SECRET = `whsec_${Buffer.from('a test secret of thirty-two bytes!').toString('base64')}`;
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const quiet = { log: () => undefined };

function scim(store: ScimStore): ScimServer {
  return createScimServer({
    resourceTypes: [userResourceType],
    store,
    events: {},
    logger: quiet,
    ...bearerToken({ tokens: [{ token: 'acme-token-0123456789', tenant: 'acme' }, { token: 'globex-token-0123456789', tenant: 'globex' }] }),
  });
}

async function createUser(server: ScimServer, token: string, userName: string): Promise<string> {
  const response = await server.handle({ method: 'POST', path: '/Users', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [USER], userName }) });
  expect(response.status).toBe(201);
  return JSON.parse(response.body ?? '{}').id as string;
}

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

describe('the delivery log (createDeliveryLog)', () => {
  it('records every attempt with its status code and error, per tenant; dead letters; redelivers a dead letter and a delivered event', async () => {
    const store = createMemoryStore();
    const server = scim(store);
    let answer = 503;
    const receiver = await startReceiver((_request, response) => void response.writeHead(answer).end());
    receivers.push(receiver);
    const log = createDeliveryLog();
    const dispatcher = createEventDispatcher({
      outbox: store.outbox!,
      consumer: 'hooks',
      deliver: log.track(webhookDelivery({ endpoint: { url: receiver.url, secret: SECRET }, fetch: log.fetch() })),
      maxAttempts: 2,
      backoff: { baseMs: 1, maxMs: 2 },
      logger: quiet,
    });
    const view = log.view({ outbox: store.outbox!, consumer: 'hooks', dispatcher });

    const acmeUser = await createUser(server, 'acme-token-0123456789', 'ann@acme.example');
    await dispatcher.runOnce();
    const [dead] = await view.deliveries('acme');
    expect(dead).toMatchObject({ type: 'user.created', tenant: 'acme', resourceType: 'User', resourceId: acmeUser, state: 'dead', attemptCount: 2 });
    expect(dead?.attempts.map((a) => [a.ok, a.status])).toEqual([
      [false, 503],
      [false, 503],
    ]);
    expect(dead?.attempts[0]?.error).toContain('answered 503');
    expect(await view.deadLetters('acme')).toMatchObject([{ eventId: dead?.eventId, attempts: 2, type: 'user.created' }]);
    // Per tenant: another tenant sees none of it, and cannot redeliver it.
    expect(await view.deliveries('globex')).toEqual([]);
    expect(await view.deadLetters('globex')).toEqual([]);
    expect(await view.delivery('globex', dead!.eventId)).toBeUndefined();
    expect((await view.redeliver('globex', dead!.eventId)).ok).toBe(false);

    // The receiver recovers: the dead letter is redelivered and leaves the dead letters.
    answer = 204;
    const redelivered = await view.redeliver('acme', dead!.eventId);
    expect(redelivered.ok).toBe(true);
    expect(await view.deadLetters('acme')).toEqual([]);
    const after = await view.delivery('acme', dead!.eventId);
    expect(after?.state).toBe('delivered');
    expect(after?.attempts.at(-1)).toMatchObject({ ok: true, status: 204, redelivery: true });

    // A delivered event of another tenant, delivered again on demand.
    await createUser(server, 'globex-token-0123456789', 'bob@globex.example');
    await dispatcher.runOnce();
    const [delivered] = await view.deliveries('globex', { state: 'delivered' });
    expect(delivered?.attempts).toMatchObject([{ ok: true, status: 204 }]);
    expect((await view.redeliver('globex', delivered!.eventId)).ok).toBe(true);
    expect((await view.delivery('globex', delivered!.eventId))?.attemptCount).toBe(2);
    expect(receiver.requests.filter((r) => r.headers['webhook-id'] === delivered!.eventId)).toHaveLength(2);
  });

  it('is bounded: the newest events, the newest attempts of each', async () => {
    const log = createDeliveryLog({ maxEvents: 3, maxAttemptsKept: 2 });
    let fail = true;
    const deliver = log.track(async () => {
      if (fail) throw new Error('down');
    });
    const event = (n: number) => ({ id: `e${n}`, type: 'user.created', time: new Date().toISOString(), resourceType: 'User', resourceId: `u${n}`, operation: 'create' as const, requestId: 'r' });
    for (let n = 0; n < 5; n++) await deliver(event(n)).catch(() => undefined);
    for (let i = 0; i < 3; i++) await deliver(event(4)).catch(() => undefined);
    fail = false;
    await deliver(event(4));
    const store = createMemoryStore();
    const view = log.view({ outbox: store.outbox!, consumer: 'x', dispatcher: createEventDispatcher({ outbox: store.outbox!, consumer: 'x', deliver, logger: quiet }) });
    const all = await view.deliveries('');
    expect(all.map((d) => d.eventId)).toEqual(['e4', 'e3', 'e2']);
    expect(all[0]).toMatchObject({ state: 'delivered', attemptCount: 5 });
    expect(all[0]?.attempts.map((a) => a.ok)).toEqual([false, true]);
    expect(all[1]).toMatchObject({ state: 'failing', attemptCount: 1 });
  });
});
