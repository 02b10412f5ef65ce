import { describe, expect, it } from 'vitest';
import { createMemoryStore, groupResourceType, userResourceType, type ScimStore } from '../../../src/index.js';
import { createServerContext } from '../../../src/server/config/server-context.js';
import { changingCopies, client, groupsServer } from './membership-helpers.js';

const config = (store: ScimStore) => ({ resourceTypes: [userResourceType, groupResourceType], store });
const EXTENSION = 'urn:example:params:scim:schemas:extension:test:2.0:Group';

/** A stored version as the memory store hands it out: deep-frozen. */
const frozenGroup = () =>
  Object.freeze({
    id: 'g',
    members: Object.freeze([Object.freeze({ value: 'u1' })]),
    [EXTENSION]: Object.freeze({ tags: Object.freeze(['a']) }),
  });

describe('ServerCaches (docs/architecture.md, "Server caches")', () => {
  it('belongs to one server: two servers over one store share none; a tenant uses its server\'s', async () => {
    const store = createMemoryStore();
    const a = createServerContext({ ...config(store), tenancy: { configure: () => ({ resourceTypes: [userResourceType, groupResourceType] }) } });
    const b = createServerContext(config(store));
    expect(a.caches).not.toBe(b.caches);
    expect((await a.tenants?.get('acme'))?.caches).toBe(a.caches);
    const group = frozenGroup();
    a.caches.adopt(group);
    expect(a.caches.versions.has(group.members)).toBe(true);
    expect(b.caches.versions.has(group.members)).toBe(false);
  });

  it('registers a stored version only when the store declares immutableResults, whether or not its arrays are frozen', () => {
    const memory = createMemoryStore();
    const declared = createServerContext(config(memory)).caches;
    const undeclared = createServerContext(config({ ...memory, capabilities: { ...memory.capabilities, immutableResults: false } })).caches;
    const read = frozenGroup();
    const written = frozenGroup();
    for (const caches of [declared, undeclared]) {
      caches.adopt(read);
      caches.afterWrite({ before: read, after: written, changes: [{ attribute: 'members', added: [], removed: [] }] });
    }
    for (const group of [read, written]) {
      expect(declared.versions.has(group.members)).toBe(true);
      expect(declared.versions.has(group[EXTENSION].tags)).toBe(true);
      expect(undeclared.versions.has(group.members)).toBe(false);
    }
    // Only what was read or written is registered.
    expect(declared.versions.has(Object.freeze([]))).toBe(false);
  });

  it.each([
    ['the memory store (stored versions registered)', () => createMemoryStore()],
    ['a store that changes in place what it handed out (nothing registered)', () => changingCopies(createMemoryStore())],
  ])('derives the same member digests and sizes, write after write, over %s', async (_, makeStore) => {
    const c = client(groupsServer({ limits: { maxValuesPerAttribute: 3 } }, makeStore()));
    const users = [];
    for (const name of ['u1', 'u2', 'u3', 'u4']) users.push(await c.user(name));
    const [u1, u2, u3, u4] = users as [string, string, string, string];
    const g = await c.group('Team', [{ value: u1 }]);
    const inGroup = async () => {
      const reply = await c.send('GET', `/Users?filter=${encodeURIComponent(`groups.value eq "${g}"`)}&attributes=userName`);
      return (reply.body['Resources'] as { userName: string }[]).map((user) => user.userName).sort();
    };
    const add = async (id: string) => (await c.patch(`/Groups/${g}`, { op: 'add', path: 'members', value: [{ value: id }] })).status;
    const remove = async (id: string) => (await c.patch(`/Groups/${g}`, { op: 'remove', path: `members[value eq "${id}"]` })).status;

    expect(await inGroup()).toEqual(['u1']);
    expect(await add(u2)).toBe(200);
    expect(await inGroup()).toEqual(['u1', 'u2']);
    expect(await add(u3)).toBe(200);
    // A fourth member breaks limits.maxValuesPerAttribute (the size of the stored list plus one).
    expect(await add(u4)).toBe(400);
    expect(await inGroup()).toEqual(['u1', 'u2', 'u3']);
    expect(await remove(u1)).toBe(200);
    expect(await inGroup()).toEqual(['u2', 'u3']);
    expect(await add(u4)).toBe(200);
    expect(await inGroup()).toEqual(['u2', 'u3', 'u4']);
  });
});
