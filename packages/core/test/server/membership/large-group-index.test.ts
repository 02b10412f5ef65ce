import { describe, expect, it } from 'vitest';
import { createMemoryStore, URN, type ScimResource, type ScimStore } from '../../../src/index.js';
import { INDEXED_LENGTH } from '../../../src/patch/element-key-cache.js';
import { changingCopies, client, GROUP, groupsServer, withoutReferences } from './membership-helpers.js';

const SIZE = INDEXED_LENGTH + 200;
const meta = (resourceType: string) => ({ resourceType, created: '2026-01-01T00:00:00Z', lastModified: '2026-01-01T00:00:00Z', version: 'W/"1"' });

/** Users u0…u(SIZE+49), and group g holding the first SIZE of them, bulk-loaded. */
function initial(): Record<string, ScimResource[]> {
  const users: ScimResource[] = [];
  for (let i = 0; i < SIZE + 50; i++) users.push({ schemas: [URN.user], id: `u${i}`, userName: `user${i}`, meta: meta('User') });
  const members = users.slice(0, SIZE).map((u) => ({ value: u.id, type: 'User' }));
  return { User: users, Group: [{ schemas: [GROUP], id: 'g', displayName: 'Everyone', members, meta: meta('Group') }] };
}

/** The memory store, as a store without `capabilities.references`: the core removes a deleted user from the group. */
function withoutReferencesOverInitial(): ScimStore {
  return withoutReferences(createMemoryStore({ initial: initial() }));
}

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) % below) as number;
  };
}

/**
 * A large group is looked up in the server's index of its member keys from its second PATCH on,
 * and the index follows every write (PATCH, delete cascades, PUT). Whatever the sequence, the group
 * must hold exactly what scanning it would give: each member once, removed ones gone.
 */
describe(`a group of ${SIZE} members patched many times`, () => {
  it.each([
    ['the store removes deleted members', () => createMemoryStore({ initial: initial() })],
    ['the core removes deleted members', withoutReferencesOverInitial],
    // Nothing registered as a stored version: no index, no remembered size or digest, the same answers.
    ['the store hands out copies it later changes', () => changingCopies(createMemoryStore({ initial: initial() }))],
  ])('holds exactly the members the requests leave, when %s', async (_, makeStore) => {
    const c = client(groupsServer({}, makeStore()));
    const model: string[] = Array.from({ length: SIZE }, (_, i) => `u${i}`);
    const deleted = new Set<string>();
    const next = random(7);
    const pick = () => `u${next(SIZE + 50)}`;
    const patch = (...operations: unknown[]) => c.send('PATCH', '/Groups/g?excludedAttributes=members', { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations });
    const add = (id: string) => {
      if (!deleted.has(id) && !model.includes(id)) model.push(id);
    };
    const remove = (id: string) => {
      const at = model.indexOf(id.toLowerCase());
      if (at >= 0) model.splice(at, 1);
    };

    for (let step = 0; step < 120; step++) {
      const id = pick();
      const kind = next(9);
      if (step === 40 || step === 80) {
        // A whole new list: the lineage starts over.
        const members = model.slice(1).map((value) => ({ value }));
        expect((await c.send('PUT', '/Groups/g', { schemas: [GROUP], displayName: 'Everyone', members })).status).toBe(200);
        model.shift();
      } else if (kind < 4) {
        // Entra's add: a member already there changes nothing; a deleted user is a dangling reference (400).
        const reply = await patch({ op: 'Add', path: 'members', value: [{ value: id }] });
        expect(reply.status).toBe(deleted.has(id) ? 400 : 200);
        add(id);
      } else if (kind < 7) {
        // Entra's remove, the id in another case: members.value is caseExact false.
        const spelled = next(2) === 0 ? id : id.toUpperCase();
        expect((await patch({ op: 'Remove', path: 'members', value: [{ value: spelled }] })).status).toBe(200);
        remove(spelled);
      } else if (kind === 7) {
        // Added and removed in one request, plus another member removed.
        const other = pick();
        const reply = await patch({ op: 'add', path: 'members', value: [{ value: id }] }, { op: 'remove', path: 'members', value: [{ value: id }, { value: other }] });
        expect(reply.status).toBe(deleted.has(id) ? 400 : 200);
        if (!deleted.has(id)) {
          remove(id);
          remove(other);
        }
      } else if (!deleted.has(id)) {
        expect((await c.send('DELETE', `/Users/${id}`)).status).toBe(204);
        deleted.add(id);
        remove(id);
      }
      if (step % 10 === 9 || step === 119) {
        const group = (await c.send('GET', '/Groups/g')).body;
        expect((group['members'] as { value: string }[]).map((m) => m.value)).toEqual(model);
      }
    }
  }, 60_000);
});
