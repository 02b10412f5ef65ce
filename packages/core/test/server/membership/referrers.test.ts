import { describe, expect, it } from 'vitest';
import { createMemoryStore, groupSchema, type ReferenceLookup, type ScimResource, type ScimStore, type StoreContext } from '../../../src/index.js';
import { client, groupsServer } from './membership-helpers.js';

interface Recorded {
  readonly store: ScimStore;
  /** Every `referrers` call: the ids asked. */
  readonly referrers: string[][];
  /** The type of every `query` call. */
  readonly queries: string[];
  /** The `referrers` hint of every `get` and `query` of users. */
  readonly hints: (ReferenceLookup | undefined)[];
}

/** The memory store, recording calls; without `referrers` when `batched` is false (the core's per-resource fallback). */
function recorded(batched: boolean): Recorded {
  const memory = createMemoryStore();
  const referrers: string[][] = [];
  const queries: string[] = [];
  const hints: (ReferenceLookup | undefined)[] = [];
  const hint = (type: string, ctx: StoreContext | undefined): void => {
    if (type === 'User') hints.push(ctx?.referrers);
  };
  const store: ScimStore = {
    ...(memory.capabilities === undefined ? {} : { capabilities: memory.capabilities }),
    create: (...args) => memory.create(...args),
    replace: (...args) => memory.replace(...args),
    delete: (...args) => memory.delete(...args),
    get: (type, id, ctx) => {
      hint(type, ctx);
      return memory.get(type, id, ctx);
    },
    query: (type, query, ctx) => {
      hint(type, ctx);
      queries.push(type);
      return memory.query(type, query, ctx);
    },
    ...(batched
      ? {
          referrers: (lookup: ReferenceLookup, resources: readonly ScimResource[], ctx?: StoreContext) => {
            referrers.push(resources.map((r) => r.id));
            return (memory.referrers as NonNullable<ScimStore['referrers']>)(lookup, resources, ctx);
          },
        }
      : {}),
  };
  return { store, referrers, queries, hints };
}

/** Five users; Team holds u0 and u1, Dept holds Team and u2, All holds Dept; u3 and u4 are in no group. */
async function seed(store: ScimStore) {
  const c = client(groupsServer({}, store));
  const users: string[] = [];
  for (let i = 0; i < 5; i++) users.push(await c.user(`user${i}`));
  const team = await c.group('Team', [{ value: users[0] }, { value: users[1] }]);
  const dept = await c.group('Dept', [{ value: team }, { value: users[2] }]);
  const all = await c.group('All', [{ value: dept }]);
  return { c, users, team, dept, all };
}

describe('User.groups through ScimStore.referrers (one lookup per page and level)', () => {
  it('answers a page of users with one referrers call per nesting level, and the same groups as the per-user fallback', async () => {
    const batched = recorded(true);
    const { c } = await seed(batched.store);
    const fallback = recorded(false);
    const other = await seed(fallback.store);

    batched.referrers.length = 0;
    batched.queries.length = 0;
    const page = await c.send('GET', '/Users?sortBy=userName');
    const groupsOf = (body: Record<string, unknown>) =>
      (body['Resources'] as Record<string, unknown>[]).map((u) => ((u['groups'] as { display: string; type: string }[] | undefined) ?? []).map((g) => `${g.display}:${g.type}`));
    expect(groupsOf(page.body)).toEqual([['Team:direct', 'Dept:indirect', 'All:indirect'], ['Team:direct', 'Dept:indirect', 'All:indirect'], ['Dept:direct', 'All:indirect'], [], []]);
    // Level 1: the five users; level 2: Team and Dept; level 3: Dept and All (per user, deduplicated); level 4: All.
    expect(batched.referrers.length).toBe(4);
    expect(batched.referrers[0]).toHaveLength(5);
    expect(batched.queries).toEqual(['User']);

    fallback.queries.length = 0;
    const same = await other.c.send('GET', '/Users?sortBy=userName');
    expect(groupsOf(same.body)).toEqual(groupsOf(page.body));
    // Without `referrers`: one `members.value eq` query per user and per group reached.
    expect(fallback.queries.filter((type) => type === 'Group').length).toBeGreaterThan(5);
  });

  it('a page of users in no group costs one referrers call, and none when the response does not show groups', async () => {
    const batched = recorded(true);
    const c = client(groupsServer({}, batched.store));
    for (let i = 0; i < 20; i++) await c.user(`solo${i}`);
    batched.referrers.length = 0;
    const page = await c.send('GET', '/Users?count=10');
    expect((page.body['Resources'] as unknown[]).length).toBe(10);
    expect(batched.referrers.map((ids) => ids.length)).toEqual([10]);
    batched.referrers.length = 0;
    await c.send('GET', '/Users?attributes=userName');
    await c.send('GET', '/Users?excludedAttributes=groups');
    expect(batched.referrers).toEqual([]);
  });

  it('walks no further than the direct groups when a group cannot be a member (members.$ref names only User)', async () => {
    const batched = recorded(true);
    const usersOnly = {
      ...groupSchema,
      attributes: groupSchema.attributes.map((a) =>
        a.name === 'members' ? { ...a, subAttributes: a.subAttributes?.map((sub) => (sub.name === '$ref' ? { ...sub, referenceTypes: ['User'] } : sub)) } : a,
      ),
    };
    const c = client(groupsServer({ schemas: [usersOnly as never] }, batched.store));
    const a = await c.user('a');
    await c.group('Team', [{ value: a }]);
    const team2 = await c.group('Other');
    expect((await c.patch(`/Groups/${team2}`, { op: 'add', path: 'members', value: [{ value: a }] })).status).toBe(200);
    batched.referrers.length = 0;
    const read = await c.send('GET', `/Users/${a}`);
    expect((read.body['groups'] as { display: string; type: string }[]).map((g) => `${g.display}:${g.type}`).sort()).toEqual(['Other:direct', 'Team:direct']);
    expect(batched.referrers).toEqual([[a]]);
  });

  it('tells the store, on the read, that the referrers of what it returns will be asked (StoreContext.referrers)', async () => {
    const batched = recorded(true);
    const { c, users } = await seed(batched.store);
    batched.hints.length = 0;
    await c.send('GET', `/Users/${users[0]}`);
    await c.send('GET', '/Users?filter=userName eq "user1"');
    await c.send('GET', `/Users/${users[0]}?attributes=userName`);
    expect(batched.hints).toEqual([
      { resourceType: 'Group', attribute: 'members', caseExact: false },
      { resourceType: 'Group', attribute: 'members', caseExact: false },
      undefined,
    ]);
  });

  it('keeps the groups of each user of a page apart, with a user and a group holding each other', async () => {
    const batched = recorded(true);
    const c = client(groupsServer({}, batched.store));
    const a = await c.user('a');
    const b = await c.user('b');
    const left = await c.group('Left', [{ value: a }]);
    const right = await c.group('Right', [{ value: b }, { value: left }]);
    await c.patch(`/Groups/${left}`, { op: 'add', path: 'members', value: [{ value: b }] });
    const page = await c.send('GET', '/Users?sortBy=userName');
    const [ua, ub] = page.body['Resources'] as Record<string, unknown>[];
    expect(ua?.['groups']).toEqual([expect.objectContaining({ value: left, type: 'direct' }), expect.objectContaining({ value: right, type: 'indirect' })]);
    // In the store's order (creation): Left, then Right; both direct, neither repeated as indirect.
    expect(ub?.['groups']).toEqual([expect.objectContaining({ value: left, type: 'direct' }), expect.objectContaining({ value: right, type: 'direct' })]);
  });
});
