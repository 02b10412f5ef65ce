import { describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, URN, userResourceType, type ScimServerConfig } from '../../../src/index.js';
import { call, post, user } from '../helpers.js';

/** A server whose bearer token names the user (`Bearer <userName>`) and whose `me` finds that user. */
function meServer(overrides: Partial<ScimServerConfig> = {}) {
  const ids = new Map<string, string>();
  const target = createScimServer({
    resourceTypes: [userResourceType],
    store: createMemoryStore(),
    baseUrl: 'https://example.com/v2',
    logger: { log: () => undefined },
    authenticate: (request) => {
      const header = request.headers?.['authorization'];
      return typeof header === 'string' && header.startsWith('Bearer ') ? { ok: true, principal: header.slice(7) } : { ok: false };
    },
    me: (principal) => {
      const id = ids.get(String(principal));
      return id === undefined ? undefined : { resourceType: 'User', id };
    },
    ...overrides,
  });
  return { target, ids };
}

const as = (name: string) => ({ authorization: `Bearer ${name}`, 'content-type': 'application/scim+json' });

describe('/Me (RFC 7644 §3.11)', () => {
  it('is 501 without a resolver', async () => {
    const target = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore() });
    expect((await call(target, { method: 'GET', path: '/Me' })).status).toBe(501);
  });

  it('reads, replaces, patches and deletes the resource the principal stands for, with Location at its canonical URL', async () => {
    const { target, ids } = meServer();
    const created = await call(target, post('/Users', user('babs'), { headers: as('admin') }));
    ids.set('babs', created.body['id']);
    const location = `https://example.com/v2/Users/${created.body['id']}`;

    const read = await call(target, { method: 'GET', path: '/Me', headers: as('babs'), query: { attributes: 'userName' } });
    expect(read.status).toBe(200);
    expect(read.headers['Location']).toBe(location);
    expect(read.body).toMatchObject({ id: created.body['id'], userName: 'babs' });
    expect(read.body['meta']).toBeUndefined();

    const patched = await call(target, {
      method: 'PATCH',
      path: '/Me',
      headers: as('babs'),
      body: JSON.stringify({ schemas: [URN.patchOp], Operations: [{ op: 'add', path: 'nickName', value: 'Babs' }] }),
    });
    expect(patched.status).toBe(200);
    expect(patched.headers['Location']).toBe(location);
    expect(patched.body['nickName']).toBe('Babs');

    const stale = await call(target, { method: 'PUT', path: '/Me', headers: { ...as('babs'), 'if-match': created.headers['ETag'] as string }, body: JSON.stringify(user('babs')) });
    expect(stale.status).toBe(412);
    const replaced = await call(target, { method: 'PUT', path: '/Me', headers: as('babs'), body: JSON.stringify(user('babs', { title: 'Boss' })) });
    expect(replaced.body).toMatchObject({ title: 'Boss' });
    expect(replaced.body['nickName']).toBeUndefined();

    expect((await call(target, { method: 'DELETE', path: '/Me', headers: as('babs') })).status).toBe(204);
    expect((await call(target, { method: 'GET', path: `/Users/${created.body['id']}`, headers: as('admin') })).status).toBe(404);
    expect((await call(target, { method: 'GET', path: '/Me', headers: as('babs') })).status).toBe(404);
  });

  it('is 404 for a principal without a resource, 405 for POST, 401 before anything without credentials', async () => {
    const { target } = meServer();
    expect((await call(target, { method: 'GET', path: '/Me', headers: as('nobody') })).body).toMatchObject({ status: '404' });
    expect((await call(target, { method: 'POST', path: '/Me', headers: as('nobody'), body: '{}' })).status).toBe(405);
    expect((await call(target, { method: 'GET', path: '/Me' })).status).toBe(401);
  });

  it('a resolver naming an unknown type is a reported 500', async () => {
    const errors: string[] = [];
    const { target } = meServer({ me: () => ({ resourceType: 'Robot', id: '1' }), logger: { log: (record) => { if (record.level === 'error') errors.push(record.message); } } });
    expect((await call(target, { method: 'GET', path: '/Me', headers: as('x') })).status).toBe(500);
    expect(errors).toHaveLength(1);
  });
});
