import { createMemoryStore, createScimServer, userResourceType, type ScimEvent } from '@scimkit/core';
import { subscribe } from '@scimkit/events';
import { describe, expect, it } from 'vitest';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const quiet = { log: () => undefined };

describe('subscribe: in-process async iteration with acknowledgement', () => {
  it('yields each event, the next of a resource only after the ack; a nack retries it; the position survives a new subscription', async () => {
    const store = createMemoryStore();
    const server = createScimServer({ resourceTypes: [userResourceType], store, events: {}, logger: quiet });
    const created = await server.handle({ method: 'POST', path: '/Users', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [USER], userName: 'sub' }) });
    const id = JSON.parse(created.body ?? '{}').id as string;
    await server.handle({ method: 'DELETE', path: `/Users/${id}`, headers: {} });

    const subscription = subscribe(store.outbox!, 'app', { pollIntervalMs: 10, backoff: { baseMs: 5, maxMs: 10 }, logger: quiet });
    const seen: string[] = [];
    let nacked = false;
    for await (const delivery of subscription) {
      seen.push(delivery.event.type);
      if (delivery.event.type === 'user.deleted' && !nacked) {
        nacked = true;
        delivery.nack(new Error('not now'));
        continue;
      }
      delivery.ack();
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(['user.created', 'user.deleted', 'user.deleted']);
    expect(subscription.dispatcher.metrics).toMatchObject({ delivered: 2, failures: 1 });

    // Everything was acknowledged: a new subscription of the same consumer starts after it.
    const later = await server.handle({ method: 'POST', path: '/Users', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [USER], userName: 'later' }) });
    const again = subscribe(store.outbox!, 'app', { pollIntervalMs: 10, logger: quiet });
    const next = (await again.next()).value as { event: ScimEvent; ack(): void };
    expect([next.event.type, next.event.resourceId]).toEqual(['user.created', JSON.parse(later.body ?? '{}').id]);
    next.ack();
    await again.close();
    expect((await again.next()).done).toBe(true);
  });
});
