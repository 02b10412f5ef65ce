import { describe, expect, it } from 'vitest';
import { createMemoryStore, type ScimResource, type ScimStore, type ScimServer } from '../../src/index.js';
import { estimateBytes, RecentVersions } from '../../src/server/write/recent-versions.js';
import { call, post, server, user } from './helpers.js';

/** A server that keeps recent versions (off by default: docs/configuration.md). */
const enabled: typeof server = (config = {}) => server({ recentVersions: { maxEntries: 10_000 }, ...config });

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const json = { 'content-type': 'application/scim+json' };

/** One memory store behind two servers (two instances of a service), counting the calls each server's side makes. */
function shared(capabilities?: ScimStore['capabilities']): { side: () => { store: ScimStore; calls: string[] }; memory: ScimStore } {
  const memory = createMemoryStore();
  const side = () => {
    const calls: string[] = [];
    const store: ScimStore = {
      ...(capabilities === undefined ? {} : { capabilities }),
      create: (...args) => (calls.push('create'), memory.create(...args)),
      get: (...args) => (calls.push('get'), memory.get(...args)),
      replace: (...args) => (calls.push('replace'), memory.replace(...args)),
      delete: (...args) => (calls.push('delete'), memory.delete(...args)),
      query: (...args) => (calls.push('query'), memory.query(...args)),
    };
    return { store, calls };
  };
  return { side, memory };
}

const rename = (displayName: string) => JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: displayName }] });
const patch = (scim: ScimServer, id: string, body: string, headers: Record<string, string> = {}) => call(scim, { method: 'PATCH', path: `/Users/${id}`, headers: { ...json, ...headers }, body });
const get = (scim: ScimServer, path: string) => call(scim, { method: 'GET', path, headers: json });

describe('recent versions: a PUT or PATCH starts from the version this server last saw', () => {
  it('after a GET by id, a POST or a one-resource lookup, a PATCH is one store call: the compare-and-swap', async () => {
    const { side } = shared();
    const { store, calls } = side();
    const scim = enabled({ store });
    const id = (await call(scim, post('/Users', user('ann')))).body['id'] as string;
    calls.length = 0;
    expect((await patch(scim, id, rename('after POST'))).status).toBe(200);
    expect(calls).toEqual(['replace']);
    calls.length = 0;
    expect((await patch(scim, id, rename('after PATCH'))).status).toBe(200);
    expect(calls).toEqual(['replace']);

    // A server that has not seen it reads first; a GET by id, or a lookup finding it alone, is then enough.
    const other = side();
    const second = enabled({ store: other.store });
    expect((await patch(second, id, rename('unseen'))).body['displayName']).toBe('unseen');
    expect(other.calls).toEqual(['get', 'replace']);
    const third = side();
    const okta = enabled({ store: third.store });
    await get(okta, `/Users/${id}`);
    third.calls.length = 0;
    await call(okta, { method: 'PUT', path: `/Users/${id}`, headers: json, body: JSON.stringify(user('ann', { displayName: 'put' })) });
    expect(third.calls).toEqual(['replace']);
    const fourth = side();
    const entra = enabled({ store: fourth.store });
    expect((await get(entra, `/Users?filter=${encodeURIComponent('userName eq "ann"')}`)).body['totalResults']).toBe(1);
    fourth.calls.length = 0;
    const done = await patch(entra, id, rename('entra'));
    expect(fourth.calls).toEqual(['replace']);
    expect(done.body['displayName']).toBe('entra');
    expect(done.body['meta'].version).toBe('W/"6"');
  });

  it('a base another instance made stale costs a missed swap and a read, and no update is lost', async () => {
    const { side } = shared();
    const a = side();
    const b = side();
    const one = enabled({ store: a.store });
    const two = enabled({ store: b.store });
    const id = (await call(one, post('/Users', user('bob')))).body['id'] as string;
    await call(two, { method: 'PATCH', path: `/Users/${id}`, headers: json, body: JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'title', value: 'set by two' }] }) });
    a.calls.length = 0;
    const done = await patch(one, id, rename('set by one'));
    expect(done.status).toBe(200);
    expect(a.calls).toEqual(['replace', 'get', 'replace']);
    expect(done.body['title']).toBe('set by two');
    expect(done.body['displayName']).toBe('set by one');
    expect(done.body['meta'].version).toBe('W/"3"');
    // And its next write starts from what it wrote.
    a.calls.length = 0;
    await patch(one, id, rename('again'));
    expect(a.calls).toEqual(['replace']);
  });

  it('judges If-Match on the stored version, never on a stale base', async () => {
    const { side } = shared();
    const a = side();
    const one = enabled({ store: a.store });
    const two = enabled({ store: side().store });
    const id = (await call(one, post('/Users', user('cy')))).body['id'] as string;
    const stale = 'W/"1"';
    const current = (await patch(two, id, rename('two'))).body['meta'].version as string;
    expect(current).toBe('W/"2"');
    // The base one keeps is at W/"1": If-Match W/"1" holds on it, but the store says 412.
    expect((await patch(one, id, rename('late'), { 'if-match': stale })).status).toBe(412);
    // one's base is now W/"2" (its read); two writes W/"3": If-Match W/"3" fails on the base, holds on the stored version.
    const newer = (await patch(two, id, rename('two again'))).body['meta'].version as string;
    expect(newer).toBe('W/"3"');
    a.calls.length = 0;
    const held = await patch(one, id, rename('on time'), { 'if-match': newer });
    expect(a.calls).toEqual(['get', 'replace']);
    expect(held.status).toBe(200);
    expect(held.body['displayName']).toBe('on time');
  });

  it('answers a PATCH that changes nothing, or that fails, from the stored version, not from a stale base', async () => {
    const { side } = shared();
    const a = side();
    const one = enabled({ store: a.store });
    const two = enabled({ store: side().store });
    const id = (await call(one, post('/Users', user('di', { displayName: 'same' })))).body['id'] as string;
    await patch(two, id, rename('moved'));
    // On one's base displayName is already 'same': no change there, but the store holds 'moved'.
    const written = await patch(one, id, rename('same'));
    expect(written.status).toBe(200);
    expect(written.body['displayName']).toBe('same');
    expect(written.body['meta'].version).toBe('W/"3"');
    // Now the other way: two sets what one's base lacks; one's no-op PATCH answers the stored resource.
    await patch(two, id, rename('moved again'));
    const unchanged = await patch(one, id, JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'moved again' }] }));
    expect(unchanged.status).toBe(200);
    expect(unchanged.body['meta'].version).toBe('W/"4"');
    // Deleted by two: one's PATCH from its base misses, reads, and answers 404.
    expect((await call(two, { method: 'DELETE', path: `/Users/${id}` })).status).toBe(204);
    expect((await patch(one, id, rename('gone'))).status).toBe(404);
  });

  it('confirms a refusal from the recent version with a read, and decides it once when that version is still stored', async () => {
    const { side } = shared();
    const a = side();
    let asked = 0;
    const refuse = () => (++asked, { status: 403, detail: 'not now' });
    const one = enabled({ store: a.store, beforeWrite: refuse });
    const two = enabled({ store: side().store });
    const id = (await call(enabled({ store: side().store }), post('/Users', user('gus')))).body['id'] as string;
    await get(one, `/Users/${id}`);
    a.calls.length = 0;
    expect((await patch(one, id, rename('refused'))).status).toBe(403);
    expect(a.calls).toEqual(['get']);
    expect(asked).toBe(1);
    // Stale: the hook saw the old version first, then the stored one.
    await patch(two, id, rename('moved'));
    asked = 0;
    a.calls.length = 0;
    expect((await patch(one, id, rename('refused'))).status).toBe(403);
    expect(a.calls).toEqual(['get']);
    expect(asked).toBe(2);
  });

  it('keeps nothing by default, for a store that owns versions or ids, or with maxEntries 0', async () => {
    for (const [capabilities, config, make] of [
      [{ versions: 'store' as const }, {}, enabled],
      [{ ids: 'store' as const }, {}, enabled],
      [undefined, { recentVersions: { maxEntries: 0 } }, enabled],
      // The default: off.
      [undefined, {}, server],
    ] as const) {
      const { side } = shared(capabilities);
      const { store, calls } = side();
      const scim = make({ store, ...config });
      const id = (await call(scim, post('/Users', user('ed')))).body['id'] as string;
      calls.length = 0;
      await patch(scim, id, rename('x'));
      expect(calls).toEqual(['get', 'replace']);
    }
  });

  it('keys by tenant: a tenant never starts from another tenant\'s resource', async () => {
    const { side } = shared();
    const { store, calls } = side();
    const scim = enabled({ store, authenticate: (request) => ({ ok: true, tenant: String(request.headers?.['x-tenant'] ?? 'a') }) });
    const id = (await call(scim, post('/Users', user('fay'), { headers: { ...json, 'x-tenant': 'a' } }))).body['id'] as string;
    calls.length = 0;
    expect((await patch(scim, id, rename('b'), { 'x-tenant': 'b' })).status).toBe(404);
    expect(calls).toEqual(['get']);
  });

  it('refuses bounds that are not non-negative integers', () => {
    expect(() => enabled({ recentVersions: { maxEntries: -1 } })).toThrow(/recentVersions.maxEntries/);
    expect(() => enabled({ recentVersions: { maxBytes: 1.5 } })).toThrow(/recentVersions.maxBytes/);
  });
});

describe('RecentVersions', () => {
  const resource = (id: string, extra: Record<string, unknown> = {}): ScimResource => ({ schemas: [], id, meta: { resourceType: 'User', created: '2026-01-01T00:00:00Z', lastModified: '2026-01-01T00:00:00Z', version: 'W/"1"' }, ...extra });

  it('drops the least recently kept entry past maxEntries, and re-keeping moves an entry last', () => {
    const recent = new RecentVersions({ maxEntries: 2, maxBytes: 1 << 20 });
    recent.remember('a', resource('a'));
    recent.remember('b', resource('b'));
    recent.remember('a', resource('a'));
    recent.remember('c', resource('c'));
    expect(recent.get('b')).toBeUndefined();
    expect(recent.get('a')?.id).toBe('a');
    expect(recent.get('c')?.id).toBe('c');
    expect(recent.size.entries).toBe(2);
  });

  it('keeps its bytes within maxBytes, never keeps an entry over a sixteenth of them, and forgets', () => {
    const recent = new RecentVersions({ maxEntries: 100, maxBytes: 16 * 400 });
    const big = resource('big', { note: 'x'.repeat(500) });
    recent.remember('big', big);
    expect(recent.get('big')).toBeUndefined();
    for (let i = 0; i < 100; i++) recent.remember(`k${i}`, resource(`k${i}`, { note: 'y'.repeat(200) }));
    expect(recent.size.bytes).toBeLessThanOrEqual(16 * 400);
    expect(recent.size.entries).toBeLessThan(100);
    expect(recent.get('k99')?.id).toBe('k99');
    recent.remember('k99', big);
    expect(recent.get('k99')).toBeUndefined();
    const { bytes } = recent.size;
    recent.forget('k98');
    expect(recent.size.bytes).toBeLessThan(bytes);
  });

  it('estimates about the JSON length, and stops counting past the cap (a large group is not walked)', () => {
    const value = { a: 'x'.repeat(100), b: [1, 2, 3], c: { d: true } };
    const estimate = estimateBytes(value, 1 << 20);
    expect(estimate).toBeGreaterThanOrEqual(JSON.stringify(value).length);
    expect(estimate).toBeLessThan(2 * JSON.stringify(value).length);
    const members = Array.from({ length: 100_000 }, (_, i) => ({ value: `u${i}` }));
    expect(estimateBytes({ members }, 64 * 1024)).toBeGreaterThan(64 * 1024);
    expect(estimateBytes({ members: members.slice(0, 10) }, 64 * 1024)).toBeLessThan(1024);
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100; i++) deep = { deep };
    expect(estimateBytes(deep, 1 << 20)).toBeGreaterThan(1 << 20);
  });
});
