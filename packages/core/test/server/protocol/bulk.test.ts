import { describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, groupResourceType, URN, userResourceType, type ChangeEvent, type ScimServerConfig } from '../../../src/index.js';
import { call, post, USER } from '../helpers.js';

const GROUP = URN.group;
const BULK = URN.bulkRequest;

function bulkServer(overrides: Partial<ScimServerConfig> = {}) {
  return createScimServer({
    resourceTypes: [userResourceType, groupResourceType],
    store: createMemoryStore(),
    baseUrl: 'https://example.com/v2',
    logger: { log: () => undefined },
    bulk: {},
    ...overrides,
  });
}

const bulk = (Operations: unknown[], extra: Record<string, unknown> = {}) => post('/Bulk', { schemas: [BULK], Operations, ...extra });

describe('POST /Bulk (RFC 7644 §3.7)', () => {
  it('is 501 when bulk is off, and advertised exactly as configured', async () => {
    const off = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore() });
    expect((await call(off, bulk([]))).status).toBe(501);
    expect((await call(off, { method: 'GET', path: '/ServiceProviderConfig' })).body['bulk']).toMatchObject({ supported: false, maxOperations: 0 });
    const on = bulkServer({ bulk: { maxOperations: 7, maxPayloadSize: 5000 } });
    expect((await call(on, { method: 'GET', path: '/ServiceProviderConfig' })).body['bulk']).toEqual({ supported: true, maxOperations: 7, maxPayloadSize: 5000 });
    expect((await call(on, { method: 'GET', path: '/Bulk' })).status).toBe(405);
  });

  it('creates a user and a group that references it by bulkId, whatever the order (RFC 7644 §3.7.2)', async () => {
    const target = bulkServer();
    const reply = await call(
      target,
      bulk([
        { method: 'POST', path: '/Groups', bulkId: 'ytrewq', data: { schemas: [GROUP], displayName: 'Tour Guides', members: [{ type: 'User', value: 'bulkId:qwerty' }] } },
        { method: 'POST', path: '/Users', bulkId: 'qwerty', data: { schemas: [USER], userName: 'Alice' } },
      ]),
    );
    expect(reply.status).toBe(200);
    expect(reply.body['schemas']).toEqual([URN.bulkResponse]);
    const [group, alice] = reply.body['Operations'];
    expect(alice).toMatchObject({ method: 'POST', bulkId: 'qwerty', status: '201' });
    expect(alice.location).toMatch(/^https:\/\/example\.com\/v2\/Users\/[^/]+$/);
    expect(alice.version).toMatch(/^W\//);
    expect(group).toMatchObject({ method: 'POST', bulkId: 'ytrewq', status: '201' });
    const aliceId = alice.location.split('/').pop();
    const read = await call(target, { method: 'GET', path: new URL(group.location).pathname.replace('/v2', '') });
    expect(read.body['members']).toEqual([expect.objectContaining({ value: aliceId, type: 'User' })]);
    expect(read.headers['ETag']).toBe(group.version);
  });

  it('resolves bulkIds in nested values, $ref, PATCH values and paths', async () => {
    const target = bulkServer();
    const reply = await call(
      target,
      bulk([
        { method: 'POST', path: '/Users', bulkId: 'boss', data: { schemas: [USER], userName: 'boss' } },
        {
          method: 'POST',
          path: '/Users',
          bulkId: 'bob',
          data: { schemas: [USER, URN.enterpriseUser], userName: 'Bob', [URN.enterpriseUser]: { employeeNumber: '11250', manager: { value: 'bulkId:boss' } } },
        },
        { method: 'POST', path: '/Groups', bulkId: 'g', data: { schemas: [GROUP], displayName: 'G', members: [{ value: 'bulkId:bob', $ref: 'https://example.com/v2/Users/bulkId:bob' }] } },
        { method: 'PATCH', path: '/Groups/bulkId:g', data: { schemas: [URN.patchOp], Operations: [{ op: 'add', path: 'members', value: [{ value: 'bulkId:boss' }] }] } },
      ]),
    );
    const [boss, bob, group, patch] = reply.body['Operations'];
    const id = (result: { location: string }) => result.location.split('/').pop();
    expect(patch).toMatchObject({ method: 'PATCH', status: '200', location: group.location });
    const readBob = await call(target, { method: 'GET', path: `/Users/${id(bob)}` });
    expect(readBob.body[URN.enterpriseUser].manager.value).toBe(id(boss));
    const readGroup = await call(target, { method: 'GET', path: `/Groups/${id(group)}` });
    expect(readGroup.body['members']).toEqual([
      expect.objectContaining({ value: id(bob), $ref: `https://example.com/v2/Users/${id(bob)}` }),
      expect.objectContaining({ value: id(boss) }),
    ]);
  });

  it('answers 409 for circular references (RFC 7644 §3.7.1) and creates neither', async () => {
    const target = bulkServer();
    const reply = await call(
      target,
      bulk([
        { method: 'POST', path: '/Groups', bulkId: 'qwerty', data: { schemas: [GROUP], displayName: 'Group A', members: [{ type: 'Group', value: 'bulkId:ytrewq' }] } },
        { method: 'POST', path: '/Groups', bulkId: 'ytrewq', data: { schemas: [GROUP], displayName: 'Group B', members: [{ type: 'Group', value: 'bulkId:qwerty' }] } },
      ]),
    );
    expect(reply.status).toBe(200);
    for (const result of reply.body['Operations']) {
      expect(result.status).toBe('409');
      expect(result.location).toBeUndefined();
      expect(result.response).toMatchObject({ schemas: [URN.error], status: '409' });
    }
    expect((await call(target, { method: 'GET', path: '/Groups' })).body['totalResults']).toBe(0);
  });

  it('answers 400 for a reference no POST declares, and 409 for one whose POST failed', async () => {
    const target = bulkServer();
    const reply = await call(
      target,
      bulk([
        { method: 'POST', path: '/Users', bulkId: 'bad', data: { schemas: [USER] } },
        { method: 'POST', path: '/Groups', bulkId: 'g1', data: { schemas: [GROUP], displayName: 'A', members: [{ value: 'bulkId:bad' }] } },
        { method: 'POST', path: '/Groups', bulkId: 'g2', data: { schemas: [GROUP], displayName: 'B', members: [{ value: 'bulkId:nobody' }] } },
      ]),
    );
    const [bad, g1, g2] = reply.body['Operations'];
    expect(bad).toMatchObject({ status: '400', response: { scimType: 'invalidValue' } });
    expect(g1).toMatchObject({ status: '409' });
    expect(g2).toMatchObject({ status: '400', response: { scimType: 'invalidValue' } });
    expect(g2.response.detail).toContain('bulkId:nobody');
  });

  it('runs each operation through the same pipeline: version is If-Match, errors are the single request errors, onChange fires', async () => {
    const events: ChangeEvent[] = [];
    const target = bulkServer({ onChange: (event) => void events.push(event) });
    const created = await call(target, post('/Users', { schemas: [USER], userName: 'bjensen' }));
    const id = created.body['id'];
    const reply = await call(
      target,
      bulk([
        { method: 'PUT', path: `/Users/${id}`, version: 'W/"stale"', data: { schemas: [USER], userName: 'x' } },
        { method: 'PATCH', path: `/Users/${id}`, version: created.headers['ETag'], data: [{ op: 'replace', path: 'nickName', value: 'Babs' }] },
        { method: 'POST', path: '/Users', bulkId: 'dup', data: { schemas: [USER], userName: 'BJENSEN' } },
        { method: 'DELETE', path: '/Users/nope' },
        { method: 'GET', path: `/Users/${id}` },
      ]),
    );
    const [put, patch, dup, del, get] = reply.body['Operations'];
    expect(put).toMatchObject({ method: 'PUT', status: '412', location: `https://example.com/v2/Users/${id}`, response: { detail: 'ETag mismatch' } });
    expect(patch).toMatchObject({ method: 'PATCH', status: '200', location: `https://example.com/v2/Users/${id}` });
    expect(dup).toMatchObject({ status: '409', response: { scimType: 'uniqueness' } });
    expect(dup.location).toBeUndefined();
    expect(del).toMatchObject({ method: 'DELETE', status: '404' });
    expect(get).toMatchObject({ method: 'GET', status: '400', response: { scimType: 'invalidValue' } });
    expect(events.map((event) => event.operation)).toEqual(['create', 'patch']);
    expect((await call(target, { method: 'GET', path: `/Users/${id}` })).body['nickName']).toBe('Babs');
  });

  it('stops after failOnErrors errors and reports only what it performed', async () => {
    const target = bulkServer();
    const reply = await call(
      target,
      bulk(
        [
          { method: 'POST', path: '/Users', bulkId: 'a', data: { schemas: [USER], userName: 'a' } },
          { method: 'POST', path: '/Users', bulkId: 'b', data: { schemas: [USER] } },
          { method: 'POST', path: '/Users', bulkId: 'c', data: { schemas: [USER], userName: 'c' } },
        ],
        { failOnErrors: 1 },
      ),
    );
    expect(reply.body['Operations'].map((result: { status: string }) => result.status)).toEqual(['201', '400']);
    expect((await call(target, { method: 'GET', path: '/Users' })).body['totalResults']).toBe(1);
  });

  it('enforces maxOperations and maxPayloadSize with 413 naming the limit (RFC 7644 §3.7.4)', async () => {
    const target = bulkServer({ bulk: { maxOperations: 2, maxPayloadSize: 300 } });
    const three = await call(target, bulk([1, 2, 3].map((n) => ({ method: 'DELETE', path: `/Users/${n}` }))));
    expect(three.status).toBe(413);
    expect(three.body['detail']).toContain('maxOperations (2)');
    const large = await call(target, bulk([{ method: 'POST', path: '/Users', bulkId: 'x', data: { schemas: [USER], userName: 'x'.repeat(400) } }]));
    expect(large.status).toBe(413);
    expect(large.body['detail']).toBe('The size of the bulk operation exceeds the maxPayloadSize (300).');
  });

  it('refuses a body that is not a BulkRequest, and answers malformed operations one by one', async () => {
    const target = bulkServer();
    expect((await call(target, post('/Bulk', []))).body).toMatchObject({ status: '400', scimType: 'invalidSyntax' });
    expect((await call(target, post('/Bulk', { schemas: [BULK] }))).body).toMatchObject({ status: '400', scimType: 'invalidSyntax' });
    expect((await call(target, post('/Bulk', { schemas: [URN.patchOp], Operations: [] }))).body).toMatchObject({ scimType: 'invalidValue' });
    expect((await call(target, bulk([], { failOnErrors: 0 }))).body).toMatchObject({ scimType: 'invalidValue' });
    const reply = await call(
      target,
      bulk([
        'nope',
        { method: 'POST', path: '/Users', data: { schemas: [USER], userName: 'no-bulk-id' } },
        { method: 'PUT', path: '/Users/1' },
        { method: 'POST', path: '/Users', bulkId: 'same', data: { schemas: [USER], userName: 'one' } },
        { method: 'POST', path: '/Users', bulkId: 'same', data: { schemas: [USER], userName: 'two' } },
        { method: 'POST', path: '/Bulk', bulkId: 'nested', data: { schemas: [BULK], Operations: [] } },
      ]),
    );
    expect(reply.body['Operations'].map((result: { status: string }) => result.status)).toEqual(['400', '400', '400', '201', '400', '400']);
  });
});
