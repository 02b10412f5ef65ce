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

describe('an outbox that cannot be read (the database is down)', () => {
  it('is reported once, then polled less often, and its recovery is reported', async () => {
    const store = createMemoryStore();
    const outbox = store.outbox!;
    let down = true;
    let polls = 0;
    const failing: EventOutbox = Object.assign(Object.create(outbox) as EventOutbox, {
      lease: async (...args: Parameters<EventOutbox['lease']>) => {
        polls++;
        if (down) throw new Error('connection refused');
        return outbox.lease(...args);
      },
    });
    const records: { level: string; message: string }[] = [];
    const dispatcher = createEventDispatcher({ outbox: failing, consumer: 'outage', pollIntervalMs: 10, logger: { log: (r) => void records.push(r) }, deliver: async () => undefined });
    dispatcher.start();
    await new Promise((resolve) => setTimeout(resolve, 600));
    const pollsDuringOutage = polls;
    down = false;
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    await dispatcher.stop();
    // Every 10 ms for 600 ms would be 60 polls; doubling from 10 ms gives about 6.
    expect(pollsDuringOutage).toBeGreaterThan(2);
    expect(pollsDuringOutage).toBeLessThan(15);
    const errors = records.filter((r) => r.level === 'error');
    expect(errors.map((r) => r.message)).toEqual(['reading the events outbox for outage failed']);
    expect(records.some((r) => r.level === 'warn' && r.message.startsWith('reading the events outbox for outage works again after'))).toBe(true);
  });
});
