import { describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, URN, userResourceType, type ScimResource, type ScimStore } from '../../src/index.js';
import { call, post, user } from './helpers.js';

const DETAIL = "The store cannot keep the value of 'title': it holds a refused word";

/** A memory store that, like a store with a limit of its own, refuses to keep any resource holding the string "refused". */
function refusingStore(): ScimStore {
  const memory = createMemoryStore();
  const refuses = (resource: ScimResource): boolean => JSON.stringify(resource).includes('refused');
  return {
    ...(memory.capabilities === undefined ? {} : { capabilities: memory.capabilities }),
    create: (type, resource, ctx) => (refuses(resource) ? Promise.resolve({ ok: false, reason: 'invalidValue', detail: DETAIL }) : memory.create(type, resource, ctx)),
    get: (type, id, ctx) => memory.get(type, id, ctx),
    replace: (type, id, resource, expected, ctx) =>
      refuses(resource) ? Promise.resolve({ ok: false, reason: 'invalidValue', detail: DETAIL }) : memory.replace(type, id, resource, expected, ctx),
    delete: (type, id, expected, ctx) => memory.delete(type, id, expected, ctx),
    query: (type, query, ctx) => memory.query(type, query, ctx),
  };
}

function target() {
  return createScimServer({ resourceTypes: [userResourceType], store: refusingStore(), logger: { log: () => undefined }, bulk: {} });
}

const INVALID = { schemas: [URN.error], status: '400', scimType: 'invalidValue', detail: DETAIL };
const patch = (path: string, value: unknown) => ({
  method: 'PATCH',
  path,
  body: JSON.stringify({ schemas: [URN.patchOp], Operations: [{ op: 'replace', path: 'title', value }] }),
  headers: { 'content-type': 'application/scim+json' },
});

describe('a value the store cannot keep (StoreWriteResult invalidValue)', () => {
  it('POST is 400 invalidValue with the store detail, and nothing is created', async () => {
    const server = target();
    const reply = await call(server, post('/Users', user('bjensen', { title: 'refused' })));
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual(INVALID);
    expect((await call(server, { method: 'GET', path: '/Users' })).body['totalResults']).toBe(0);
  });

  it('PUT and PATCH are 400 invalidValue, and the resource keeps its version and values', async () => {
    const server = target();
    const created = await call(server, post('/Users', user('bjensen', { title: 'Tour Guide' })));
    const at = `/Users/${created.body['id']}`;
    const put = await call(server, { method: 'PUT', path: at, body: JSON.stringify(user('bjensen', { title: 'refused' })), headers: { 'content-type': 'application/scim+json' } });
    expect(put.status).toBe(400);
    expect(put.body).toEqual(INVALID);
    const patched = await call(server, patch(at, 'refused'));
    expect(patched.status).toBe(400);
    expect(patched.body).toEqual(INVALID);
    const read = await call(server, { method: 'GET', path: at });
    expect(read.body['title']).toBe('Tour Guide');
    expect(read.headers['ETag']).toBe(created.headers['ETag']);
  });

  it('a bulk operation the store refuses is that operation 400 invalidValue; the others are written', async () => {
    const server = target();
    const created = await call(server, post('/Users', user('bjensen')));
    const reply = await call(
      server,
      post('/Bulk', {
        schemas: [URN.bulkRequest],
        Operations: [
          { method: 'POST', path: '/Users', bulkId: 'a', data: user('refused-one') },
          { method: 'PATCH', path: `/Users/${created.body['id']}`, data: { schemas: [URN.patchOp], Operations: [{ op: 'replace', path: 'title', value: 'refused' }] } },
          { method: 'POST', path: '/Users', bulkId: 'b', data: user('accepted') },
        ],
      }),
    );
    expect(reply.status).toBe(200);
    const [refusedPost, refusedPatch, accepted] = reply.body['Operations'];
    for (const refused of [refusedPost, refusedPatch]) {
      expect(refused.status).toBe('400');
      expect(refused.response).toMatchObject({ scimType: 'invalidValue', detail: DETAIL });
    }
    expect(accepted.status).toBe('201');
    const users = await call(server, { method: 'GET', path: '/Users' });
    expect(users.body['Resources'].map((r: { userName: string }) => r.userName).sort()).toEqual(['accepted', 'bjensen']);
  });
});
