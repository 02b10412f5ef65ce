import { describe, expect, it } from 'vitest';
import type { ScimEvent } from '../events/scim-event.js';
import type { EventOutbox, OutboxLease, OutboxRecord } from '../events/event-outbox.js';
import type { ScimResource } from '../schema/scim-resource.js';
import type { CascadedChange, ScimStore, WriteContext } from '../store/scim-store.js';
import { group, member, NO_UNIQUE, revise, user, USER_CONTEXT } from './conformance-resources.js';

let counter = 0;
const eventOf = (type: string, resource: ScimResource, tenant?: string): ScimEvent => ({
  id: `evt-${++counter}-${Math.random().toString(36).slice(2)}`,
  type,
  time: new Date().toISOString(),
  ...(tenant === undefined ? {} : { tenant }),
  resourceType: resource.meta.resourceType,
  resourceId: resource.id,
  version: resource.meta.version,
  operation: 'create',
  requestId: 'conformance',
});

/** A write context whose `events` records each call. */
function withEvents(base: WriteContext, type: string, calls: ScimResource[]): WriteContext {
  return { ...base, events: (written) => (calls.push(written), [eventOf(type, written, base.tenant)]) };
}

/** Every record the outbox holds for `consumer`, across partitions, leased by one owner. */
async function readAll(outbox: EventOutbox, consumer = `kit-${Math.random().toString(36).slice(2)}`): Promise<OutboxRecord[]> {
  const leases = await outbox.lease(consumer, 'kit', { max: outbox.partitions, leaseMs: 10_000 });
  const records: OutboxRecord[] = [];
  for (const lease of leases) records.push(...(await outbox.read(lease, 10_000)));
  return records;
}

/**
 * `capabilities.events`: the events of `WriteContext.events` / `DeleteContext.events` are kept in
 * the same atomic step as the write (and only for a write that succeeds), and `outbox` reads them
 * back per partition, in order, with positions and leases that consumers share.
 */
export function describeEvents(store: () => ScimStore): void {
  describe('transactional outbox (capabilities.events)', () => {
    const outbox = (): EventOutbox => {
      const found = store().outbox;
      if (found === undefined) throw new Error('capabilities.events is declared but the store has no outbox');
      return found;
    };

    it('keeps the events of successful creates, replaces and deletes, each asked once with what was written', async () => {
      const calls: ScimResource[] = [];
      const u = user('evented');
      expect((await store().create('User', u, withEvents(USER_CONTEXT, 'user.created', calls))).ok).toBe(true);
      const next = revise(u, { title: 'x' }, 'v2');
      expect((await store().replace('User', u.id, next, u.meta.version, withEvents(USER_CONTEXT, 'user.updated', calls))).ok).toBe(true);
      const cascades: (readonly CascadedChange[])[] = [];
      const deleted = await store().delete('User', u.id, undefined, { events: (cascaded) => (cascades.push(cascaded), [eventOf('user.deleted', next)]) });
      expect(deleted.ok).toBe(true);
      expect(calls.map((c) => c.meta.version)).toEqual([u.meta.version, 'v2']);
      expect(cascades).toHaveLength(1);
      const records = await readAll(outbox());
      expect(records.map((r) => r.event.type)).toEqual(['user.created', 'user.updated', 'user.deleted']);
      expect(records[0]?.event).toMatchObject({ resourceType: 'User', resourceId: u.id, version: u.meta.version, requestId: 'conformance' });
      expect(new Set(records.map((r) => r.partition)).size).toBe(1);
    });

    it('keeps nothing for a refused write: uniqueness, version mismatch, not found', async () => {
      const calls: ScimResource[] = [];
      const u = user('taken');
      await store().create('User', u, USER_CONTEXT);
      expect((await store().create('User', user('TAKEN'), withEvents(USER_CONTEXT, 'user.created', calls))).ok).toBe(false);
      expect((await store().replace('User', u.id, revise(u, {}, 'v9'), 'stale', withEvents(USER_CONTEXT, 'user.updated', calls))).ok).toBe(false);
      expect((await store().replace('User', 'missing', revise(u, {}, 'v9'), u.meta.version, withEvents(USER_CONTEXT, 'user.updated', calls))).ok).toBe(false);
      expect((await store().delete('User', u.id, 'stale', { events: () => [eventOf('user.deleted', u)] })).ok).toBe(false);
      expect((await readAll(outbox())).length).toBe(0);
    });

    it('a delete with a cascade hands the cascaded changes to events', async () => {
      if (store().capabilities?.references !== true) return;
      const u = user('member');
      await store().create('User', u, USER_CONTEXT);
      const g = group('G', undefined, [member(u.id)]);
      await store().create('Group', g, NO_UNIQUE);
      let seen: readonly CascadedChange[] = [];
      const result = await store().delete('User', u.id, undefined, {
        references: [{ resourceType: 'Group', attribute: 'members' }],
        touch: (resource) => ({ ...resource.meta, version: `${resource.meta.version}+` }),
        events: (cascaded) => ((seen = cascaded), [eventOf('user.deleted', u), ...cascaded.map((c) => eventOf('group.members_removed', c.after))]),
      });
      expect(result.ok).toBe(true);
      expect(seen.map((c) => c.after.id)).toEqual([g.id]);
      const types = (await readAll(outbox())).map((r) => r.event.type).sort();
      expect(types).toEqual(['group.members_removed', 'user.deleted']);
    });

    it('reads each partition in write order; positions persist; a lease is held by one owner at a time', async () => {
      const u = user('ordered');
      await store().create('User', u, withEvents(USER_CONTEXT, 'user.created', []));
      let current = u;
      for (let i = 1; i <= 5; i++) {
        const next = revise(current, { title: `t${i}` }, `v${i}`);
        await store().replace('User', u.id, next, current.meta.version, withEvents(USER_CONTEXT, 'user.updated', []));
        current = next;
      }
      const box = outbox();
      const leases = await box.lease('kit-order', 'a', { max: box.partitions, leaseMs: 10_000 });
      expect(leases.length).toBe(box.partitions);
      expect(await box.lease('kit-order', 'b', { max: box.partitions, leaseMs: 10_000 })).toEqual([]);
      let records: OutboxRecord[] = [];
      let holder = leases[0] as OutboxLease;
      for (const lease of leases) {
        const found = await box.read(lease, 100);
        if (found.length > 0) [records, holder] = [[...found], lease];
      }
      expect(records.map((r) => r.event.version)).toEqual([u.meta.version, 'v1', 'v2', 'v3', 'v4', 'v5']);
      expect(await box.advance(holder, records[2]!.position, 10_000)).toBe(true);
      expect(await box.advance({ ...holder, owner: 'b' }, records[5]!.position, 10_000)).toBe(false);
      for (const lease of leases) await box.release(lease);
      const again = (await box.lease('kit-order', 'b', { max: box.partitions, leaseMs: 10_000 })).find((lease) => lease.partition === holder.partition) as OutboxLease;
      expect(again.position).toBe(records[2]!.position);
      expect((await box.read(again, 100)).map((r) => r.event.version)).toEqual(['v3', 'v4', 'v5']);
      expect((await box.stats('kit-order')).backlog).toBe(3);
    });

    it('keeps dead letters per consumer and prunes what every consumer passed', async () => {
      const box = outbox();
      const u = user('pruned');
      await store().create('User', u, withEvents(USER_CONTEXT, 'user.created', []));
      const [record] = await readAll(box, 'kit-dead');
      expect(record).toBeDefined();
      await box.deadLetter('kit-dead', record!.event, 3, 'HTTP 500');
      expect((await box.deadLetters('kit-dead', 10)).map((d) => [d.event.id, d.attempts, d.error])).toEqual([[record!.event.id, 3, 'HTTP 500']]);
      await box.removeDeadLetter('kit-dead', record!.event.id);
      expect(await box.deadLetters('kit-dead', 10)).toEqual([]);
      // kit-dead leased every partition and has not advanced: nothing is pruned while it lags…
      expect((await box.prune({ before: new Date(Date.now() + 60_000) })).pruned).toBe(0);
      // …except past the bound.
      expect(await box.prune({ before: new Date(0), maxEvents: 0 })).toEqual({ pruned: 0, dropped: 1 });
      expect((await box.stats('kit-dead')).events).toBe(0);
    });
  });
}
