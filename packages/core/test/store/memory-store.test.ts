import { describe, expect, it } from 'vitest';
import { compileFilter, parseFilter } from '../../src/engine/index.js';
import { createMemoryStore, createSchemaRegistry, userResourceType, type ScimResource, type StoreQuery } from '../../src/index.js';

const model = createSchemaRegistry({ resourceTypes: [userResourceType] }).resourceType('User')!;
const USER_CTX = { unique: model.unique };

function user(i: number, extra: Record<string, unknown> = {}): ScimResource {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: `id-${i}`,
    userName: `User${i}`,
    externalId: `ext-${i % 500}`,
    ...extra,
    meta: { resourceType: 'User', created: '2026-01-01T00:00:00Z', lastModified: '2026-01-01T00:00:00Z', version: 'W/"1"' },
  };
}

/** A query whose predicate counts how many resources the store had to look at. */
function counted(text: string): { query: StoreQuery; calls: () => number } {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(parsed.error.detail);
  const compiled = compileFilter(parsed.value, model);
  if (!compiled.ok) throw new Error(compiled.error.detail);
  let calls = 0;
  const matches = compiled.value;
  return {
    query: { filter: parsed.value, semantics: { matches: (r) => (calls++, matches(r)), attribute: (p) => model.facts(p) } },
    calls: () => calls,
  };
}

describe('memory store indexes', () => {
  const populated = async () => {
    const store = createMemoryStore();
    for (let i = 0; i < 2000; i++) await store.create('User', user(i), USER_CTX);
    return store;
  };

  for (const [filter, expected] of [
    ['userName eq "user1234"', ['id-1234']],
    ['USERNAME eq "USER7"', ['id-7']],
    ['id eq "id-42"', ['id-42']],
    ['externalId eq "ext-3"', ['id-3', 'id-503', 'id-1003', 'id-1503']],
    ['userName eq "user1" or userName eq "user2"', ['id-1', 'id-2']],
    ['userName eq "user9" and externalId eq "ext-9"', ['id-9']],
    ['userName eq "nobody"', []],
  ] as const) {
    it(`${filter} is a lookup, not a scan`, async () => {
      const store = await populated();
      const { query, calls } = counted(filter);
      const result = await store.query('User', query);
      expect(result.resources.map((r) => r.id).sort()).toEqual([...expected].sort());
      expect(calls()).toBeLessThanOrEqual(4);
    });
  }

  it('falls back to a scan for everything else, with the same answers', async () => {
    const store = await populated();
    const { query, calls } = counted('userName co "user199"');
    const result = await store.query('User', query);
    expect(result.totalResults).toBe(11);
    expect(calls()).toBe(2000);
  });

  it('keeps indexes right across renames and deletes', async () => {
    const store = createMemoryStore();
    await store.create('User', user(1), USER_CTX);
    const renamed = { ...user(1, { userName: 'Renamed' }), meta: { ...user(1).meta, version: 'W/"2"' } };
    await store.replace('User', 'id-1', renamed, 'W/"1"', USER_CTX);
    expect((await store.query('User', counted('userName eq "user1"').query)).totalResults).toBe(0);
    expect((await store.query('User', counted('userName eq "renamed"').query)).totalResults).toBe(1);
    await store.delete('User', 'id-1');
    expect((await store.query('User', counted('userName eq "renamed"').query)).totalResults).toBe(0);
    expect((await store.query('User', counted('externalId eq "ext-1"').query)).totalResults).toBe(0);
  });

  it('starts from initial resources and finds them by index after the first write', async () => {
    const store = createMemoryStore({ initial: { User: [user(1), user(2)] } });
    expect(await store.get('User', 'id-2')).toEqual(user(2));
    expect(await store.create('User', user(3, { userName: 'USER1' }), USER_CTX)).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    expect((await store.query('User', counted('userName eq "user2"').query)).resources.map((r) => r.id)).toEqual(['id-2']);
  });

  it('declares that it filters, sorts and pages', () => {
    const capabilities = createMemoryStore().capabilities;
    expect(capabilities?.sort).toBe(true);
    expect(capabilities?.paging).toBe(true);
    const parsed = parseFilter('userName sw "a"');
    expect(parsed.ok && capabilities?.filter?.(parsed.value)).toBe(true);
  });

  it('two stores share nothing', async () => {
    const a = createMemoryStore();
    const b = createMemoryStore();
    await a.create('User', user(1), USER_CTX);
    expect(await b.get('User', 'id-1')).toBeUndefined();
    expect((await b.create('User', user(1), USER_CTX)).ok).toBe(true);
  });
});
