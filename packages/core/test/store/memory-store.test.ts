import { describe, expect, it } from 'vitest';
import { compileFilter, compileSort, parseAttrPath, parseFilter } from '../../src/engine/index.js';
import {
  createMemoryStore,
  createSchemaRegistry,
  groupResourceType,
  uniqueKey,
  userResourceType,
  type ResourceModel,
  type ScimResource,
  type StoreQuery,
} from '../../src/index.js';

const registry = createSchemaRegistry({ resourceTypes: [userResourceType, groupResourceType] });
const model = registry.resourceType('User')!;
const groupModel = registry.resourceType('Group')!;
const USER_CTX = { unique: model.unique };
const GROUP_CTX = { unique: groupModel.unique };

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
function counted(text: string, on: ResourceModel = model): { query: StoreQuery; calls: () => number } {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(parsed.error.detail);
  const compiled = compileFilter(parsed.value, on);
  if (!compiled.ok) throw new Error(compiled.error.detail);
  let calls = 0;
  const matches = compiled.value;
  return {
    query: { filter: parsed.value, semantics: { matches: (r) => (calls++, matches(r)), attribute: (p) => on.facts(p) } },
    calls: () => calls,
  };
}

function group(i: number, members: readonly string[], version = 'W/"1"'): ScimResource {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    id: `g-${i}`,
    displayName: `Group ${i}`,
    members: members.map((value) => ({ value, type: 'User' })),
    meta: { resourceType: 'Group', created: '2026-01-01T00:00:00Z', lastModified: '2026-01-01T00:00:00Z', version },
  };
}

const membersOf = (resource: ScimResource | undefined) => (resource?.['members'] ?? []) as Record<string, unknown>[];
const memberIds = (result: { resources: readonly ScimResource[] }) => result.resources.map((r) => r.id).sort();

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

  it('starts from initial resources and finds them by index before any write', async () => {
    const initial = Array.from({ length: 2000 }, (_, i) => user(i));
    const store = createMemoryStore({ initial: { User: initial } });
    expect(await store.get('User', 'id-2')).toEqual(user(2));
    for (const [filter, ids] of [
      ['userName eq "USER1999"', ['id-1999']],
      ['externalId eq "ext-7"', ['id-7', 'id-507', 'id-1007', 'id-1507']],
      ['displayName eq "d-5"', []],
    ] as const) {
      const { query, calls } = counted(filter);
      expect((await store.query('User', query)).resources.map((r) => r.id)).toEqual(ids);
      expect(calls()).toBeLessThanOrEqual(4);
    }
    expect(await store.create('User', user(3000, { userName: 'USER1' }), USER_CTX)).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    initial[5]!.userName = 'changed after loading';
    expect((await store.get('User', 'id-5'))?.['userName']).toBe('User5');
  });

  it('declares that it filters, sorts, pages (by index and cursor) and cascades references', () => {
    const capabilities = createMemoryStore().capabilities;
    expect(capabilities?.sort).toBe(true);
    expect(capabilities?.paging).toBe(true);
    expect(capabilities?.cursor).toBe(true);
    expect(capabilities?.references).toBe(true);
    const parsed = parseFilter('userName sw "a"');
    expect(parsed.ok && capabilities?.filter?.(parsed.value, { resourceType: 'User', attribute: () => undefined })).toBe(true);
  });

  it('two stores share nothing', async () => {
    const a = createMemoryStore();
    const b = createMemoryStore();
    await a.create('User', user(1), USER_CTX);
    expect(await b.get('User', 'id-1')).toBeUndefined();
    expect((await b.create('User', user(1), USER_CTX)).ok).toBe(true);
  });
});

describe('memory store: frozen resources shared, not copied', () => {
  it('returns the stored object itself, deep-frozen, from get, query, create and replace', async () => {
    const store = createMemoryStore();
    const created = await store.create('User', user(1, { emails: [{ value: 'a@example.com' }] }), USER_CTX);
    const read = await store.get('User', 'id-1');
    expect(read).toBe(created.ok ? created.resource : undefined);
    expect((await store.query('User', counted('userName eq "user1"').query)).resources[0]).toBe(read);
    expect(Object.isFrozen(read)).toBe(true);
    expect(Object.isFrozen(read?.meta)).toBe(true);
    expect(Object.isFrozen(read?.['emails'])).toBe(true);
    expect(Object.isFrozen((read?.['emails'] as object[])[0])).toBe(true);
    expect(() => {
      (read as Record<string, unknown>)['userName'] = 'x';
    }).toThrow(TypeError);
  });

  it('a replace with changes reuses every kept element and copies only the added one', async () => {
    const store = createMemoryStore();
    const ids = Array.from({ length: 1000 }, (_, i) => `u-${i}`);
    await store.create('Group', group(1, ids), GROUP_CTX);
    const before = (await store.get('Group', 'g-1'))!;
    const added = { value: 'u-new', type: 'User' };
    const removed = membersOf(before)[500]!;
    const next = { ...before, members: [...membersOf(before).filter((m) => m !== removed), added], meta: { ...before.meta, version: 'W/"2"' } };
    const written = await store.replace('Group', 'g-1', next, 'W/"1"', { ...GROUP_CTX, changes: [{ attribute: 'members', added: [added], removed: [removed] }] });
    expect(written.ok).toBe(true);
    const after = (await store.get('Group', 'g-1'))!;
    expect(after).toEqual(next);
    const kept = membersOf(after);
    expect(kept[0]).toBe(membersOf(before)[0]);
    expect(kept[700]).toBe(membersOf(before)[701]);
    expect(kept[999]).not.toBe(added);
    expect(Object.isFrozen(kept[999])).toBe(true);
    added.value = 'mutated by the caller';
    expect(membersOf(await store.get('Group', 'g-1'))[999]?.['value']).toBe('u-new');
  });

  it('a replace with a wrong changes hint still stores exactly the resource given', async () => {
    const store = createMemoryStore();
    await store.create('Group', group(1, ['a', 'b', 'c']), GROUP_CTX);
    const next = group(1, ['c', 'x', 'a'], 'W/"2"');
    const hint = { attribute: 'members', added: [{ value: 'nope' }], removed: [{ value: 'a', type: 'User' }] };
    expect((await store.replace('Group', 'g-1', next, 'W/"1"', { ...GROUP_CTX, changes: [hint] })).ok).toBe(true);
    expect(await store.get('Group', 'g-1')).toEqual(next);
    expect(memberIds(await store.query('Group', counted('members.value eq "b"', groupModel).query))).toEqual([]);
    expect(memberIds(await store.query('Group', counted('members.value eq "x"', groupModel).query))).toEqual(['g-1']);
  });

  it('a replace without changes shares the objects the caller passed back unchanged', async () => {
    const store = createMemoryStore();
    await store.create('User', user(1, { name: { givenName: 'A', familyName: 'B' } }), USER_CTX);
    const before = (await store.get('User', 'id-1'))!;
    const next = { ...before, title: 'New', meta: { ...before.meta, version: 'W/"2"' } };
    await store.replace('User', 'id-1', next, 'W/"1"', USER_CTX);
    const after = (await store.get('User', 'id-1'))!;
    expect(after['name']).toBe(before['name']);
    expect(after).toEqual(next);
  });

  it('keeps the key __proto__ as data, never as a prototype', async () => {
    const store = createMemoryStore();
    const odd = JSON.parse('{"__proto__": {"polluted": true}, "plain": 1}') as Record<string, unknown>;
    await store.create('User', user(1, { odd }), USER_CTX);
    const read = (await store.get('User', 'id-1'))!;
    expect(Object.keys(read['odd'] as object)).toEqual(['__proto__', 'plain']);
    expect((read['odd'] as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(read['odd'])).toBe('{"__proto__":{"polluted":true},"plain":1}');
  });
});

describe('memory store: the index on the value of multi-valued attributes', () => {
  const populatedGroups = async () => {
    const store = createMemoryStore();
    for (let i = 0; i < 500; i++) await store.create('Group', group(i, [`u-${i}`, `u-${i + 1}`, 'everyone']), GROUP_CTX);
    return store;
  };

  for (const [filter, expected] of [
    ['members.value eq "u-42"', ['g-41', 'g-42']],
    ['members[value eq "u-42"]', ['g-41', 'g-42']],
    ['members[value eq "u-42" and type eq "User"]', ['g-41', 'g-42']],
    ['members.value eq "U-7" and displayName eq "Group 7"', ['g-7']],
    ['members.value eq "nobody"', []],
  ] as const) {
    it(`${filter} is a lookup, not a scan`, async () => {
      const store = await populatedGroups();
      const { query, calls } = counted(filter, groupModel);
      expect(memberIds(await store.query('Group', query))).toEqual([...expected]);
      expect(calls()).toBeLessThanOrEqual(2);
    });
  }

  it('emails.value eq is a lookup too, and honours NFC and case', async () => {
    const store = createMemoryStore();
    for (let i = 0; i < 300; i++) await store.create('User', user(i, { emails: [{ value: `u${i}@example.com` }, { value: `alt${i}@example.com` }] }), USER_CTX);
    await store.create('User', user(999, { emails: [{ value: 'jos\u00e9@example.com' }] }), USER_CTX);
    for (const [filter, id] of [['emails.value eq "ALT7@example.com"', 'id-7'], ['emails.value eq "JOSE\u0301@example.com"', 'id-999']] as const) {
      const { query, calls } = counted(filter);
      expect(memberIds(await store.query('User', query))).toEqual([id]);
      expect(calls()).toBeLessThanOrEqual(2);
    }
  });

  it('follows writes once built: changes, whole replaces, deletes, duplicates of one key', async () => {
    const store = createMemoryStore();
    await store.create('Group', group(1, ['a', 'b']), GROUP_CTX);
    const find = async (value: string) => memberIds(await store.query('Group', counted(`members.value eq "${value}"`, groupModel).query));
    expect(await find('a')).toEqual(['g-1']);
    const v1 = (await store.get('Group', 'g-1'))!;
    const c = { value: 'c' };
    const upperA = { value: 'A' };
    const v2 = { ...v1, members: [...membersOf(v1).filter((m) => m['value'] !== 'b'), c, upperA], meta: { ...v1.meta, version: 'W/"2"' } };
    await store.replace('Group', 'g-1', v2, 'W/"1"', { ...GROUP_CTX, changes: [{ attribute: 'members', added: [c, upperA], removed: [membersOf(v1)[1]!] }] });
    expect(await find('b')).toEqual([]);
    expect(await find('c')).toEqual(['g-1']);
    // 'a' and 'A' share one key: removing one keeps the group found by the other.
    const v3 = { ...v2, members: membersOf(v2).filter((m) => m['value'] !== 'a'), meta: { ...v2.meta, version: 'W/"3"' } };
    await store.replace('Group', 'g-1', v3, 'W/"2"', { ...GROUP_CTX, changes: [{ attribute: 'members', added: [], removed: [membersOf(v2)[0]!] }] });
    expect(await find('a')).toEqual(['g-1']);
    await store.replace('Group', 'g-1', group(1, ['z'], 'W/"4"'), 'W/"3"', GROUP_CTX);
    expect(await find('a')).toEqual([]);
    expect(await find('z')).toEqual(['g-1']);
    await store.delete('Group', 'g-1');
    expect(await find('z')).toEqual([]);
  });
});

describe('memory store: reference cascade', () => {
  const touch = (resource: ScimResource) => ({ ...resource.meta, version: `${resource.meta.version}*` });
  const references = [{ resourceType: 'Group', attribute: 'members' }];

  it('finds the referencing groups by index, including members added by changes', async () => {
    const store = createMemoryStore();
    for (let i = 0; i < 300; i++) await store.create('Group', group(i, [`u-${i}`]), GROUP_CTX);
    await store.create('User', user(1), USER_CTX);
    const g7 = (await store.get('Group', 'g-7'))!;
    const added = { value: 'id-1', type: 'User' };
    await store.replace('Group', 'g-7', { ...g7, members: [...membersOf(g7), added], meta: { ...g7.meta, version: 'W/"2"' } }, 'W/"1"', {
      ...GROUP_CTX,
      changes: [{ attribute: 'members', added: [added], removed: [] }],
    });
    const result = await store.delete('User', 'id-1', undefined, { references, touch });
    expect(result.ok && result.cascaded?.map((c) => [c.before.id, c.after.meta.version])).toEqual([['g-7', 'W/"2"*']]);
    expect(membersOf(await store.get('Group', 'g-7')).map((m) => m['value'])).toEqual(['u-7']);
    expect(Object.isFrozen(await store.get('Group', 'g-7'))).toBe(true);
  });

  it('leaves the references alone without a touch function', async () => {
    const store = createMemoryStore();
    await store.create('User', user(1), USER_CTX);
    await store.create('Group', group(1, ['id-1']), GROUP_CTX);
    expect(await store.delete('User', 'id-1', undefined, { references })).toEqual({ ok: true });
    expect(membersOf(await store.get('Group', 'g-1'))).toHaveLength(1);
  });
});

describe('memory store: keyset cursors', () => {
  const sorted = (cursor: string, count: number): StoreQuery => {
    const sortBy = parseAttrPath('displayName');
    if (!sortBy.ok) throw new Error(sortBy.error.detail);
    const compare = compileSort(sortBy.value, 'ascending', groupModel);
    if (!compare.ok) throw new Error(compare.error.detail);
    return { semantics: { matches: () => true, compare: compare.value, attribute: (p) => groupModel.facts(p) }, sort: { path: sortBy.value, order: 'ascending' }, cursor, count };
  };

  it('keeps a cursor small whatever the resource holds', async () => {
    const store = createMemoryStore();
    const everyone = Array.from({ length: 5000 }, (_, i) => `u-${i}`);
    for (let i = 0; i < 3; i++) await store.create('Group', group(i, everyone), GROUP_CTX);
    const first = await store.query('Group', sorted('', 1));
    expect(first.nextCursor?.length).toBeLessThan(200);
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('reads an empty, malformed or foreign cursor as the first page and never throws', async () => {
    const store = createMemoryStore();
    for (let i = 0; i < 5; i++) await store.create('Group', group(i, []), GROUP_CTX);
    const first = await store.query('Group', sorted('', 2));
    expect(first.resources.map((r) => r.id)).toEqual(['g-0', 'g-1']);
    expect(first.previousCursor).toBeUndefined();
    const unsorted = await store.query('Group', { semantics: { matches: () => true, attribute: () => undefined }, cursor: '', count: 2 });
    for (const cursor of ['%%%', 'bm90IGpzb24', 'eyJkIjoieCJ9', btoa('{"d":"a","s":-7}'), unsorted.nextCursor ?? '']) {
      const page = await store.query('Group', sorted(cursor, 2));
      expect(page.resources.map((r) => r.id), cursor).toEqual(['g-0', 'g-1']);
    }
  });

  it('pages the whole table from the insertion log without a filter or sort, and counts it', async () => {
    const store = createMemoryStore();
    for (let i = 0; i < 3000; i++) await store.create('User', user(i), USER_CTX);
    for (let i = 0; i < 3000; i += 2) await store.delete('User', `id-${i}`);
    const all = { semantics: { matches: () => true, attribute: () => undefined } };
    let cursor = '';
    const seen: string[] = [];
    for (;;) {
      const page = await store.query('User', { ...all, cursor, count: 400 });
      expect(page.totalResults).toBe(1500);
      seen.push(...page.resources.map((r) => r.id));
      if (page.nextCursor === undefined) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(Array.from({ length: 1500 }, (_, i) => `id-${i * 2 + 1}`));
  });
});

describe('uniqueKey', () => {
  it('is NFC then lower-cased when not caseExact, the value itself when caseExact', () => {
    expect(uniqueKey('jos\u00e9', false)).toBe(uniqueKey('JOSE\u0301', false));
    expect(uniqueKey('JOSE\u0301', false)).toBe('jos\u00e9');
    expect(uniqueKey('BJensen', false)).toBe('bjensen');
    expect(uniqueKey('BJensen', true)).toBe('BJensen');
    expect(uniqueKey('jose\u0301', true)).toBe('jose\u0301');
    expect(uniqueKey('\u212a', false)).toBe('k');
  });
});
