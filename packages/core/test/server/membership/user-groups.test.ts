import { describe, expect, it } from 'vitest';
import { createMemoryStore, type ScimStore, type StoreQuery } from '../../../src/index.js';
import { BASE, client, groupsServer } from './membership-helpers.js';

/** A memory store that counts what the core asks of it. */
function countingStore(): { store: ScimStore; gets: string[]; queries: { type: string; query: StoreQuery }[] } {
  const memory = createMemoryStore();
  const gets: string[] = [];
  const queries: { type: string; query: StoreQuery }[] = [];
  const store: ScimStore = {
    ...(memory.capabilities === undefined ? {} : { capabilities: memory.capabilities }),
    create: (...args) => memory.create(...args),
    replace: (...args) => memory.replace(...args),
    delete: (...args) => memory.delete(...args),
    get: (type, id, ctx) => {
      gets.push(`${type}/${id}`);
      return memory.get(type, id, ctx);
    },
    query: (type, query, ctx) => {
      queries.push({ type, query });
      return memory.query(type, query, ctx);
    },
  };
  return { store, gets, queries };
}

describe('User.groups, computed on read', () => {
  it('computes the same groups over a store that pushes no filter down (the core filters in memory)', async () => {
    const memory = createMemoryStore();
    const store: ScimStore = {
      capabilities: { ...memory.capabilities, filter: () => false },
      create: (...args) => memory.create(...args),
      replace: (...args) => memory.replace(...args),
      delete: (...args) => memory.delete(...args),
      get: (...args) => memory.get(...args),
      query: (type, query, ctx) => {
        expect(query.filter).toBeUndefined();
        return memory.query(type, query, ctx);
      },
    };
    const c = client(groupsServer({}, store));
    const alice = await c.user('alice');
    const bob = await c.user('bob');
    const team = await c.group('Team', [{ value: alice }]);
    expect((await c.send('GET', `/Users/${alice}`)).body['groups']).toEqual([{ value: team, $ref: `${BASE}/Groups/${team}`, display: 'Team', type: 'direct' }]);
    expect((await c.send('GET', `/Users/${bob}`)).body['groups']).toBeUndefined();
  });

  it('lists direct groups and, through nested groups, indirect ones (RFC 7643 §4.1.2)', async () => {
    const c = client(groupsServer());
    const alice = await c.user('alice');
    const team = await c.group('Team', [{ value: alice }]);
    const dept = await c.group('Dept', [{ value: team }]);
    const all = await c.group('All', [{ value: dept }, { value: alice }]);
    const read = await c.send('GET', `/Users/${alice}`);
    expect(read.body['groups']).toEqual([
      { value: team, $ref: `${BASE}/Groups/${team}`, display: 'Team', type: 'direct' },
      { value: all, $ref: `${BASE}/Groups/${all}`, display: 'All', type: 'direct' },
      { value: dept, $ref: `${BASE}/Groups/${dept}`, display: 'Dept', type: 'indirect' },
    ]);
    const bob = await c.user('bob');
    expect((await c.send('GET', `/Users/${bob}`)).body['groups']).toBeUndefined();
  });

  it('honours attributes and excludedAttributes, and is readOnly', async () => {
    const c = client(groupsServer());
    const alice = await c.user('alice');
    const team = await c.group('Team', [{ value: alice }]);
    expect((await c.send('GET', `/Users/${alice}?attributes=groups.display`)).body['groups']).toEqual([{ display: 'Team' }]);
    expect((await c.send('GET', `/Users/${alice}?excludedAttributes=groups`)).body['groups']).toBeUndefined();
    expect((await c.send('GET', `/Users/${alice}?attributes=userName`)).body['groups']).toBeUndefined();
    // readOnly: a client's groups are ignored on write; the computed ones are shown.
    const put = await c.send('PUT', `/Users/${alice}`, { userName: 'alice', groups: [{ value: 'made-up' }] });
    expect(put.status).toBe(200);
    expect(put.body['groups']).toEqual([{ value: team, $ref: `${BASE}/Groups/${team}`, display: 'Team', type: 'direct' }]);
  });

  it('does not change the user meta.version when only its groups change', async () => {
    const c = client(groupsServer());
    const alice = await c.user('alice');
    const before = await c.send('GET', `/Users/${alice}`);
    await c.group('Team', [{ value: alice }]);
    const after = await c.send('GET', `/Users/${alice}`);
    expect(after.body['groups']).toHaveLength(1);
    expect(after.headers['ETag']).toBe(before.headers['ETag']);
    expect(after.body['meta'].version).toBe(before.body['meta'].version);
  });

  it('filters by groups.value eq (members of the group and of groups nested in it) and by groups.display co', async () => {
    const c = client(groupsServer());
    const [alice, bob, carol] = [await c.user('alice'), await c.user('bob'), await c.user('carol')];
    const team = await c.group('Team', [{ value: alice }]);
    const dept = await c.group('Dept', [{ value: team }, { value: bob }]);
    const names = async (query: string) =>
      ((await c.send('GET', `/Users?${query}`)).body['Resources'] as { userName: string }[]).map((u) => u.userName);
    expect(await names(`filter=${encodeURIComponent(`groups.value eq "${team}"`)}`)).toEqual(['alice']);
    expect((await names(`filter=${encodeURIComponent(`groups.value eq "${dept}"`)}`)).sort()).toEqual(['alice', 'bob']);
    expect(await names(`filter=${encodeURIComponent(`groups[value eq "${dept}"] and userName sw "b"`)}`)).toEqual(['bob']);
    expect((await names(`filter=${encodeURIComponent('groups.display co "ea"')}`)).sort()).toEqual(['alice']);
    expect((await names(`filter=${encodeURIComponent('groups.display co "e"')}`)).sort()).toEqual(['alice', 'bob']);
    expect(await names(`filter=${encodeURIComponent('not (groups pr)')}`)).toEqual(['carol']);
    const paged = await c.send('GET', `/Users?count=1&filter=${encodeURIComponent(`groups.value eq "${dept}"`)}`);
    expect(paged.body['totalResults']).toBe(2);
    expect(paged.body['Resources']).toHaveLength(1);
    const search = await c.send('POST', '/Users/.search', { filter: `groups.value eq "${team}"`, attributes: ['groups'] });
    expect(search.body['Resources']).toEqual([
      {
        schemas: [expect.any(String)],
        id: alice,
        groups: [
          { value: team, $ref: `${BASE}/Groups/${team}`, display: 'Team', type: 'direct' },
          { value: dept, $ref: `${BASE}/Groups/${dept}`, display: 'Dept', type: 'indirect' },
        ],
      },
    ]);
    expect(carol).toBeTypeOf('string');
  });

  it('sorts by groups.display like a stored attribute', async () => {
    const c = client(groupsServer());
    const [alice, bob] = [await c.user('alice'), await c.user('bob')];
    await c.group('Zeta', [{ value: alice }]);
    await c.group('Alpha', [{ value: bob }]);
    const sorted = await c.send('GET', '/Users?sortBy=groups.display');
    expect((sorted.body['Resources'] as { userName: string }[]).map((u) => u.userName)).toEqual(['bob', 'alice']);
  });

  it('groups.value eq reads the group, not every user, and only the page of users', async () => {
    const counted = countingStore();
    const c = client(groupsServer({}, counted.store));
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await c.user(`u${i}`));
    const team = await c.group('Team', ids.slice(0, 20).map((value) => ({ value })));
    counted.gets.length = 0;
    counted.queries.length = 0;
    const reply = await c.send('GET', `/Users?count=5&excludedAttributes=groups&filter=${encodeURIComponent(`groups.value eq "${team}"`)}`);
    expect(reply.body['totalResults']).toBe(20);
    expect(reply.body['Resources']).toHaveLength(5);
    expect(counted.queries.filter((q) => q.type === 'User')).toEqual([]);
    expect(counted.gets.filter((g) => g.startsWith('User/'))).toHaveLength(5);
  });

  it('costs nothing when not shown: no group lookup for excluded groups, none for groups lists', async () => {
    const counted = countingStore();
    const c = client(groupsServer({}, counted.store));
    const alice = await c.user('alice');
    await c.group('Team', [{ value: alice }]);
    counted.gets.length = 0;
    counted.queries.length = 0;
    await c.send('GET', `/Users/${alice}?excludedAttributes=groups`);
    await c.send('GET', `/Users?attributes=userName`);
    await c.send('GET', '/Groups?excludedAttributes=members');
    expect(counted.queries.filter((q) => q.query.filter !== undefined)).toEqual([]);
    expect(counted.gets).toEqual([`User/${alice}`]);
    // Shown (returned: default): one members.value lookup per level of nesting.
    await c.send('GET', `/Users/${alice}`);
    expect(counted.queries.filter((q) => q.type === 'Group' && q.query.filter !== undefined)).toHaveLength(2);
  });
});
