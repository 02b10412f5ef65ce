import { createMemoryStore, createScimServer, userResourceType, type EventOutbox } from '@scimkit/core';
import { createEventDispatcher } from '@scimkit/events';
import { describe, expect, it } from 'vitest';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const quiet = { log: () => undefined };

describe('duplicates only under injected faults, and counted', () => {
  it('an instance that delivers and dies before recording it: another takes its partitions when the lease expires and delivers again', async () => {
    const store = createMemoryStore();
    const server = createScimServer({ resourceTypes: [userResourceType], store, events: {}, logger: quiet });
    for (let i = 0; i < 20; i++) {
      await server.handle({ method: 'POST', path: '/Users', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [USER], userName: `f${i}` }) });
    }
    const outbox = store.outbox!;
    const deliveries = new Map<string, number>();
    const deliver = async (event: { id: string }) => void deliveries.set(event.id, (deliveries.get(event.id) ?? 0) + 1);
    // The fault: instance A's process "dies" after delivering, before its position is written.
    const dying: EventOutbox = Object.assign(Object.create(outbox) as EventOutbox, {
      advance: async () => {
        throw new Error('killed');
      },
    });
    const a = createEventDispatcher({ outbox: dying, consumer: 'faulty', owner: 'a', leaseMs: 200, logger: quiet, deliver });
    await expect(a.runOnce()).rejects.toThrow('killed');
    const deliveredByA = [...deliveries.values()].reduce((sum, n) => sum + n, 0);
    expect(deliveredByA).toBeGreaterThan(0);
    // Its leases are still held: B waits for them to expire, then delivers everything.
    const b = createEventDispatcher({ outbox, consumer: 'faulty', owner: 'b', leaseMs: 200, logger: quiet, deliver });
    expect(await b.runOnce()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await b.runOnce()).toBe(20);
    expect(deliveries.size).toBe(20);
    const duplicates = [...deliveries.values()].reduce((sum, n) => sum + n - 1, 0);
    expect(duplicates).toBe(deliveredByA);
    expect(await b.runOnce()).toBe(0);
  });
});
