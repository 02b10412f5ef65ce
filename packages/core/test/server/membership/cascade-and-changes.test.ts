import { describe, expect, it } from 'vitest';
import { createMemoryStore, type ChangeEvent, type DeleteContext, type ScimStore, type WriteContext } from '../../../src/index.js';
import { client, groupsServer, withoutReferences } from './membership-helpers.js';

describe('deleting a member', () => {
  it.each([
    ['the store (capabilities.references)', createMemoryStore],
    ['the core (a store without it)', withoutReferences],
  ])('removes a deleted user or group from every group, by %s, with a new version and a change event each', async (_, makeStore) => {
    const events: ChangeEvent[] = [];
    const c = client(groupsServer({ onChange: (event) => void events.push(event) }, makeStore()));
    const alice = await c.user('alice');
    const bob = await c.user('bob');
    const team = await c.group('Team', [{ value: alice }, { value: bob }]);
    const all = await c.group('All', [{ value: alice }, { value: team }]);
    events.length = 0;
    expect((await c.send('DELETE', `/Users/${alice}`)).status).toBe(204);
    const teamNow = await c.send('GET', `/Groups/${team}`);
    expect(teamNow.body['members'].map((m: { value: string }) => m.value)).toEqual([bob]);
    expect(teamNow.body['meta'].version).toBe('W/"2"');
    expect((await c.send('GET', `/Groups/${all}`)).body['members'].map((m: { value: string }) => m.value)).toEqual([team]);
    expect(events.map((e) => `${e.operation} ${e.resourceType}`)).toEqual(['delete User', 'patch Group', 'patch Group']);
    expect(events[1]?.before?.['members']).toHaveLength(2);

    expect((await c.send('DELETE', `/Groups/${team}`)).status).toBe(204);
    // The last member gone: the attribute is unassigned (RFC 7643 §2.5).
    expect((await c.send('GET', `/Groups/${all}`)).body['members']).toBeUndefined();
  });

  it('hands the store the references and a touch when it removes them itself (capabilities.references)', async () => {
    const memory = withoutReferences();
    const seen: DeleteContext[] = [];
    const store: ScimStore = {
      capabilities: { ...memory.capabilities, references: true },
      create: (...args) => memory.create(...args),
      get: (...args) => memory.get(...args),
      replace: (...args) => memory.replace(...args),
      query: (...args) => memory.query(...args),
      // A stand-in for a store that cascades atomically: it reports one changed group.
      delete: async (type, id, expected, ctx) => {
        seen.push(ctx ?? {});
        const deleted = await memory.delete(type, id, expected, ctx);
        if (!deleted.ok) return deleted;
        const group = (await memory.query('Group', { semantics: { matches: () => true, attribute: () => undefined } })).resources[0];
        if (group === undefined) return deleted;
        const after = { ...group, members: [], meta: ctx?.touch?.(group) ?? group.meta };
        return { ok: true, cascaded: [{ resourceType: 'Group', before: group, after }] };
      },
    };
    const events: ChangeEvent[] = [];
    const c = client(groupsServer({ onChange: (event) => void events.push(event) }, store));
    const alice = await c.user('alice');
    await c.group('Team', [{ value: alice }]);
    events.length = 0;
    expect((await c.send('DELETE', `/Users/${alice}`)).status).toBe(204);
    expect(seen[0]?.references).toEqual([{ resourceType: 'Group', attribute: 'members' }]);
    expect(events.map((e) => `${e.operation} ${e.resourceType}`)).toEqual(['delete User', 'patch Group']);
    expect(events[1]?.after?.meta.version).toBe('W/"2"');
  });
});

describe('removing a deleted member in the group\'s write queue (a store without capabilities.references)', () => {
  it('waits for a PATCH of the group in flight and starts from what it stored: no compare-and-swap conflict, both changes kept', async () => {
    const memory = withoutReferences();
    let hold: Promise<void> | undefined;
    let release!: () => void;
    const outcomes: string[] = [];
    const store: ScimStore = {
      ...memory,
      replace: async (type, id, resource, expected, ctx) => {
        if (type === 'Group' && hold !== undefined) {
          const waiting = hold;
          hold = undefined;
          await waiting;
        }
        const written = await memory.replace(type, id, resource, expected, ctx);
        if (type === 'Group') outcomes.push(written.ok ? 'ok' : written.reason);
        return written;
      },
    };
    const c = client(groupsServer({}, store));
    const [alice, bob] = [await c.user('alice'), await c.user('bob')];
    const team = await c.group('Team', [{ value: alice }, { value: bob }]);
    hold = new Promise((resolve) => (release = resolve));
    const renamed = c.patch(`/Groups/${team}`, { op: 'replace', path: 'displayName', value: 'Team 2' });
    // The PATCH now waits inside store.replace, holding the group's queue.
    await new Promise((resolve) => setTimeout(resolve, 10));
    const deleted = c.send('DELETE', `/Users/${alice}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(outcomes).toEqual([]);
    release();
    expect((await renamed).status).toBe(200);
    expect((await deleted).status).toBe(204);
    expect(outcomes).toEqual(['ok', 'ok']);
    const now = (await c.send('GET', `/Groups/${team}`)).body;
    expect(now['displayName']).toBe('Team 2');
    expect(now['members'].map((m: { value: string }) => m.value)).toEqual([bob]);
    expect(now['meta'].version).toBe('W/"3"');
  });
});

describe('element-level changes for the store', () => {
  it('a PATCH tells store.replace which members it added and removed', async () => {
    const memory = createMemoryStore();
    const writes: WriteContext[] = [];
    const store: ScimStore = {
      ...(memory.capabilities === undefined ? {} : { capabilities: memory.capabilities }),
      create: (...args) => memory.create(...args),
      get: (...args) => memory.get(...args),
      delete: (...args) => memory.delete(...args),
      query: (...args) => memory.query(...args),
      replace: (type, id, resource, expected, ctx) => {
        writes.push(ctx);
        return memory.replace(type, id, resource, expected, ctx);
      },
    };
    const c = client(groupsServer({}, store));
    const [alice, bob] = [await c.user('alice'), await c.user('bob')];
    const team = await c.group('Team', [{ value: alice }]);
    await c.patch(`/Groups/${team}`, { op: 'add', path: 'members', value: [{ value: bob }] });
    expect(writes[0]?.changes).toEqual([{ attribute: 'members', added: [expect.objectContaining({ value: bob, type: 'User' })], removed: [] }]);
    await c.patch(`/Groups/${team}`, { op: 'remove', path: 'members', value: [{ value: alice }] });
    expect(writes[1]?.changes).toEqual([{ attribute: 'members', added: [], removed: [expect.objectContaining({ value: alice })] }]);
    // A PUT says nothing element by element.
    await c.send('PUT', `/Groups/${team}`, { displayName: 'Team', members: [] });
    expect(writes[2]?.changes).toBeUndefined();
  });
});
