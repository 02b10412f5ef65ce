import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStore, createScimServer, URN, userResourceType, type ScimServer, type ScimServerConfig, type ScimStore } from '../../../src/index.js';
import { call, post, user } from '../helpers.js';
import { indexOnly, recorded } from './store-wrappers.js';

function cursorServer(overrides: Partial<ScimServerConfig> = {}, store: ScimStore = createMemoryStore()): ScimServer {
  return createScimServer({ resourceTypes: [userResourceType], store, logger: { log: () => undefined }, pagination: {}, ...overrides });
}

async function seed(target: ScimServer, names: readonly string[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const name of names) ids.set(name, (await call(target, post('/Users', user(name)))).body['id']);
  return ids;
}

const names = (n: number, prefix = 'u') => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);
const list = (target: ScimServer, query: Record<string, string>) => call(target, { method: 'GET', path: '/Users', query });
const userNames = (body: Record<string, any>): string[] => body['Resources'].map((resource: { userName: string }) => resource.userName);

afterEach(() => {
  vi.useRealTimers();
});

describe('cursor paging (RFC 9865)', () => {
  it('is advertised in /ServiceProviderConfig only when configured', async () => {
    const plain = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore() });
    expect((await call(plain, { method: 'GET', path: '/ServiceProviderConfig' })).body['pagination']).toBeUndefined();
    const target = cursorServer({ limits: { maxResults: 200, defaultPageSize: 50 }, pagination: { cursorTimeout: 600 } });
    expect((await call(target, { method: 'GET', path: '/ServiceProviderConfig' })).body['pagination']).toEqual({
      cursor: true,
      index: true,
      defaultPaginationMethod: 'index',
      defaultPageSize: 50,
      maxPageSize: 200,
      cursorTimeout: 600,
    });
  });

  it.each([
    ['a keyset store (the memory store)', () => recorded(createMemoryStore()), { cursor: '' }],
    ['an index-paged store', () => indexOnly(createMemoryStore()), { startIndex: 1 }],
  ])('walks every page with nextCursor, back with previousCursor, without startIndex: %s', async (_name, makeStore, firstQuery) => {
    const store = makeStore();
    const target = cursorServer({}, store);
    await seed(target, names(25));
    const first = await list(target, { cursor: '', count: '10', sortBy: 'userName' });
    expect(first.status).toBe(200);
    expect(store.queries.at(-1)).toMatchObject({ ...firstQuery, count: 10 });
    expect(first.body).toMatchObject({ schemas: [URN.listResponse], totalResults: 25, itemsPerPage: 10 });
    expect(first.body['startIndex']).toBeUndefined();
    expect(first.body['previousCursor']).toBeUndefined();
    expect(first.body['nextCursor']).toMatch(/^[A-Za-z0-9._~-]+$/);
    const second = await list(target, { cursor: first.body['nextCursor'], count: '10', sortBy: 'userName' });
    const third = await list(target, { cursor: second.body['nextCursor'], count: '10', sortBy: 'userName' });
    expect([...userNames(first.body), ...userNames(second.body), ...userNames(third.body)]).toEqual(names(25));
    expect(third.body['nextCursor']).toBeUndefined();
    const back = await list(target, { cursor: third.body['previousCursor'], count: '10', sortBy: 'userName' });
    expect(userNames(back.body)).toEqual(userNames(second.body));
    const none = await list(target, { cursor: '', count: '0', sortBy: 'userName' });
    expect(none.body).toMatchObject({ totalResults: 25, itemsPerPage: 0, Resources: [] });
    expect(none.body['nextCursor']).toBeUndefined();
  });

  it('takes the cursor in a .search body too, and pages by cursor by default when configured', async () => {
    const target = cursorServer({ pagination: { defaultPaginationMethod: 'cursor' } });
    await seed(target, names(3));
    const searched = await call(target, post('/Users/.search', { schemas: [URN.searchRequest], cursor: '', count: 2 }));
    expect(searched.body['itemsPerPage']).toBe(2);
    const next = await call(target, post('/Users/.search', { schemas: [URN.searchRequest], cursor: searched.body['nextCursor'], count: 2 }));
    expect(next.body['itemsPerPage']).toBe(1);
    const byDefault = await list(target, { count: '2' });
    expect(byDefault.body['nextCursor']).toEqual(expect.any(String));
    expect(byDefault.body['startIndex']).toBeUndefined();
    const indexed = await list(target, { count: '2', startIndex: '1' });
    expect(indexed.body).toMatchObject({ startIndex: 1, itemsPerPage: 2 });
    expect(indexed.body['nextCursor']).toBeUndefined();
  });

  it('refuses forged, altered and foreign cursors with 400 invalidCursor, old ones with expiredCursor', async () => {
    const target = cursorServer({ pagination: { cursorTimeout: 60 } });
    await seed(target, names(5));
    const first = await list(target, { cursor: '', count: '2', filter: 'userName sw "u"' });
    const cursor: string = first.body['nextCursor'];
    const flipped = `${cursor.slice(0, 3)}${cursor[3] === 'A' ? 'B' : 'A'}${cursor.slice(4)}`;
    for (const bad of ['x', 'a.b', flipped, `${cursor}x`, 'é'.repeat(5000)]) {
      expect((await list(target, { cursor: bad, count: '2', filter: 'userName sw "u"' })).body).toMatchObject({ status: '400', scimType: 'invalidCursor' });
    }
    expect((await list(target, { cursor, count: '2', filter: 'userName sw "v"' })).body).toMatchObject({ scimType: 'invalidCursor' });
    expect((await list(target, { cursor, count: '2', filter: 'userName sw "u"', sortBy: 'userName' })).body).toMatchObject({ scimType: 'invalidCursor' });
    expect((await list(target, { cursor, count: '2', filter: 'userName sw "u"', startIndex: '1' })).body).toMatchObject({ scimType: 'invalidCursor' });
    const other = cursorServer();
    await seed(other, names(5));
    expect((await list(other, { cursor, count: '2', filter: 'userName sw "u"' })).body).toMatchObject({ scimType: 'invalidCursor' });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    expect((await list(target, { cursor, count: '2', filter: 'userName sw "u"' })).body).toMatchObject({ status: '400', scimType: 'expiredCursor' });
  });

  it('accepts another server’s cursors when both share cursorSecret', async () => {
    const store = createMemoryStore();
    const pagination = { cursorSecret: 's'.repeat(32) };
    const a = cursorServer({ pagination }, store);
    const b = cursorServer({ pagination }, store);
    await seed(a, names(4));
    const first = await list(a, { cursor: '', count: '2' });
    expect(userNames((await list(b, { cursor: first.body['nextCursor'], count: '2' })).body)).toEqual(names(4).slice(2));
    expect(() => cursorServer({ pagination: { cursorSecret: 'short' } })).toThrow(TypeError);
  });

  it('pages the memory store by its keyset: stable under concurrent inserts and deletes', async () => {
    const store = recorded(createMemoryStore());
    const target = cursorServer({}, store);
    const ids = await seed(target, names(20, 'm'));
    const seen: string[] = [];
    let page = await list(target, { cursor: '', count: '5', sortBy: 'userName' });
    expect(store.queries.at(-1)).toMatchObject({ cursor: '', count: 5 });
    seen.push(...userNames(page.body));
    let round = 0;
    while (page.body['nextCursor'] !== undefined) {
      // Before the next page: insert names that sort before the position, delete one seen and one unseen.
      await seed(target, [`a${round}`, `b${round}`]);
      const unseen = names(20, 'm').find((name) => !seen.includes(name) && ids.has(name) && name !== 'm019');
      for (const name of [seen[seen.length - 1], unseen]) {
        if (name === undefined || !ids.has(name)) continue;
        await call(target, { method: 'DELETE', path: `/Users/${ids.get(name)}` });
        ids.delete(name);
      }
      page = await list(target, { cursor: page.body['nextCursor'], count: '5', sortBy: 'userName' });
      expect(page.status).toBe(200);
      seen.push(...userNames(page.body));
      round++;
    }
    // Every resource present for the whole walk appears exactly once; nothing appears twice.
    expect(new Set(seen).size).toBe(seen.length);
    for (const name of ids.keys()) if (name.startsWith('m')) expect(seen).toContain(name);
    expect(seen.filter((name) => !name.startsWith('m'))).toEqual([]);
  });
});
