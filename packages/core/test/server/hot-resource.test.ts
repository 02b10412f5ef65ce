import { describe, expect, it } from 'vitest';
import { createMemoryStore, type ScimResource, type ScimStore } from '../../src/index.js';
import { call, post, server, user } from './helpers.js';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const json = { 'content-type': 'application/scim+json' };

/** The memory store, counting `get` calls; `meddle` runs before each `replace`, `after` after it (another process writing). */
function counting(meddle?: (memory: ScimStore, id: string) => Promise<void>, after?: (memory: ScimStore, id: string) => Promise<void>): { store: ScimStore; gets: () => number } {
  const memory = createMemoryStore();
  let gets = 0;
  const store: ScimStore = {
    ...(memory.capabilities === undefined ? {} : { capabilities: memory.capabilities }),
    create: (...args) => memory.create(...args),
    delete: (...args) => memory.delete(...args),
    query: (...args) => memory.query(...args),
    get: (type, id, ctx) => {
      gets++;
      return memory.get(type, id, ctx);
    },
    replace: async (type, id, resource, expected, ctx) => {
      await meddle?.(memory, id);
      const written = await memory.replace(type, id, resource, expected, ctx);
      await after?.(memory, id);
      return written;
    },
  };
  return { store, gets: () => gets };
}

const addEmail = (n: number) => ({ schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'emails', value: [{ value: `e${n}@example.com`, type: 'work' }] }] });

describe('writes to one hot resource (KeyedMutex: each queued write starts from the previous one)', () => {
  it('40 concurrent PATCHes all apply, and the queued ones read nothing from the store', async () => {
    const { store, gets } = counting();
    const scim = server({ store });
    const id = (await call(scim, post('/Users', user('hot')))).body['id'] as string;
    const before = gets();
    const replies = await Promise.all(Array.from({ length: 40 }, (_, n) => call(scim, { method: 'PATCH', path: `/Users/${id}`, headers: json, body: JSON.stringify(addEmail(n)) })));
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 40 }, () => 200));
    const final = (await call(scim, { method: 'GET', path: `/Users/${id}`, headers: json })).body;
    expect((final['emails'] as { value: string }[]).map((e) => e.value).sort()).toEqual(Array.from({ length: 40 }, (_, n) => `e${n}@example.com`).sort());
    // The first write reads; the 39 queued behind it start from the one before them.
    expect(gets() - before).toBeLessThan(40);
  });

  it('starts again from a read when another process wrote in between: no update lost', async () => {
    let outside = 0;
    const { store } = counting(async (memory, id) => {
      // Every third write, another process adds an email first (a compare-and-swap the queued write then loses).
      if (++outside % 3 !== 0) return;
      const current = (await memory.get('User', id)) as ScimResource;
      const emails = [...((current['emails'] as unknown[] | undefined) ?? []), { value: `outside${outside}@example.com` }];
      const version = `W/"outside-${outside}"`;
      await memory.replace('User', id, { ...current, emails, meta: { ...current.meta, version } }, current.meta.version, { unique: [] });
    });
    const scim = server({ store });
    const id = (await call(scim, post('/Users', user('contended')))).body['id'] as string;
    const replies = await Promise.all(Array.from({ length: 12 }, (_, n) => call(scim, { method: 'PATCH', path: `/Users/${id}`, headers: json, body: JSON.stringify(addEmail(n)) })));
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 12 }, () => 200));
    const final = (await call(scim, { method: 'GET', path: `/Users/${id}`, headers: json })).body;
    const values = (final['emails'] as { value: string }[]).map((e) => e.value);
    for (let n = 0; n < 12; n++) expect(values).toContain(`e${n}@example.com`);
    expect(values.filter((v) => v.startsWith('outside')).length).toBeGreaterThan(0);

  });

  it('judges If-Match on the stored version when another process wrote after the previous queued write', async () => {
    let first = true;
    const { store } = counting(undefined, async (memory, id) => {
      if (!first) return;
      first = false;
      const current = (await memory.get('User', id)) as ScimResource;
      await memory.replace('User', id, { ...current, title: 'outside', meta: { ...current.meta, version: 'W/"outside"' } }, current.meta.version, { unique: [] });
    });
    const scim = server({ store });
    const id = (await call(scim, post('/Users', user('judged')))).body['id'] as string;
    const [a, b] = await Promise.all([
      call(scim, { method: 'PATCH', path: `/Users/${id}`, headers: json, body: JSON.stringify(addEmail(1)) }),
      call(scim, { method: 'PATCH', path: `/Users/${id}`, headers: { ...json, 'if-match': 'W/"outside"' }, body: JSON.stringify(addEmail(2)) }),
    ]);
    expect(a.status).toBe(200);
    // Queued behind the first, the second starts from the first's write (stale: the outside write
    // came after it), so it reads again and its If-Match holds (RFC 7644 §3.14).
    expect(b.status).toBe(200);
    const final = (await call(scim, { method: 'GET', path: `/Users/${id}`, headers: json })).body;
    expect(final['title']).toBe('outside');
    expect((final['emails'] as { value: string }[]).map((e) => e.value)).toEqual(['e1@example.com', 'e2@example.com']);
  });
});
