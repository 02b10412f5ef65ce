import { describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, URN, userResourceType, type ScimServerConfig } from '../../../src/index.js';
import { call, post, server, user } from '../helpers.js';

const patchOp = (...Operations: unknown[]) => JSON.stringify({ schemas: [URN.patchOp], Operations });
const patch = (id: string, body: string, headers: Record<string, string> = {}) => ({ method: 'PATCH', path: `/Users/${id}`, body, headers: { 'content-type': 'application/scim+json', ...headers } });

describe('PATCH 204 (RFC 7644 §3.5.2)', () => {
  it('answers 200 with the resource by default, 204 with only the ETag when configured', async () => {
    for (const [config, status] of [[{}, 200], [{ patchResponse: 'noContent' }, 204]] as const) {
      const target = server(config as Partial<ScimServerConfig>);
      const id = (await call(target, post('/Users', user('babs')))).body['id'];
      const response = await target.handle(patch(id, patchOp({ op: 'add', path: 'nickName', value: 'B' })));
      expect(response.status).toBe(status);
      const read = await call(target, { method: 'GET', path: `/Users/${id}` });
      expect(read.body['nickName']).toBe('B');
      expect(response.headers['ETag']).toBe(read.headers['ETag']);
      if (status === 204) expect(response.body).toBeUndefined();
    }
  });

  it('follows Prefer: return=minimal / return=representation (RFC 7240) over the configuration', async () => {
    const target = server({ patchResponse: 'noContent' });
    const id = (await call(target, post('/Users', user('babs')))).body['id'];
    const full = await target.handle(patch(id, patchOp({ op: 'add', path: 'nickName', value: 'B' }), { Prefer: 'return=representation' }));
    expect(full.status).toBe(200);
    const plain = server();
    const other = (await call(plain, post('/Users', user('babs')))).body['id'];
    const minimal = await plain.handle(patch(other, patchOp({ op: 'add', path: 'nickName', value: 'B' }), { prefer: 'handling=strict, RETURN=minimal' }));
    expect(minimal.status).toBe(204);
    const failed = await plain.handle(patch(other, patchOp({ op: 'remove' }), { prefer: 'return=minimal' }));
    expect(failed.status).toBe(400);
  });

  it('answers 200 with the resource when attributes or excludedAttributes is given, whatever the configuration (RFC 7644 §3.5.2 MUST)', async () => {
    const target = server({ patchResponse: 'noContent' });
    const id = (await call(target, post('/Users', user('babs')))).body['id'];
    const selected = await call(target, { ...patch(id, patchOp({ op: 'add', path: 'nickName', value: 'B' })), query: { attributes: 'userName' } });
    expect(selected.status).toBe(200);
    expect(selected.body).toMatchObject({ id, userName: 'babs' });
    expect(selected.body['nickName']).toBeUndefined();
    const excluded = await call(target, { ...patch(id, patchOp({ op: 'add', path: 'title', value: 'T' }), { prefer: 'return=minimal' }), query: { excludedAttributes: 'nickName' } });
    expect(excluded.status).toBe(200);
    expect(excluded.body).toMatchObject({ id, userName: 'babs', title: 'T' });
    expect(excluded.body['nickName']).toBeUndefined();
    const plain = await target.handle(patch(id, patchOp({ op: 'add', path: 'title', value: 'U' })));
    expect(plain.status).toBe(204);
  });
});

describe('returned: "request" attributes (RFC 7643 §7)', () => {
  const badgeSchema = {
    id: 'urn:example:badge',
    name: 'Badge',
    attributes: [
      { name: 'badge', type: 'string', returned: 'request' },
      { name: 'pin', type: 'complex', subAttributes: [{ name: 'label', type: 'string' }, { name: 'code', type: 'string', returned: 'request' }] },
    ],
  } as const;
  const target = () =>
    createScimServer({
      resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: 'urn:example:badge', required: false }] }],
      schemas: [badgeSchema],
      store: createMemoryStore(),
    });

  it('come back on POST, PUT and PATCH when the client sent them, not on GET unless asked for', async () => {
    const s = target();
    const body = user('babs', { schemas: [URN.user, 'urn:example:badge'], 'urn:example:badge': { badge: 'B-1', pin: { label: 'L', code: '42' } } });
    const created = await call(s, post('/Users', body));
    expect(created.body['urn:example:badge']).toEqual({ badge: 'B-1', pin: { label: 'L', code: '42' } });
    const id = created.body['id'];
    const read = await call(s, { method: 'GET', path: `/Users/${id}` });
    expect(read.body['urn:example:badge']).toEqual({ pin: { label: 'L' } });
    const asked = await call(s, { method: 'GET', path: `/Users/${id}`, query: { attributes: 'urn:example:badge:badge' } });
    expect(asked.body['urn:example:badge']).toEqual({ badge: 'B-1' });
    const put = await call(s, { method: 'PUT', path: `/Users/${id}`, headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify(body) });
    expect(put.body['urn:example:badge']).toMatchObject({ badge: 'B-1' });
    const patched = await call(s, patch(id, patchOp({ op: 'replace', path: 'urn:example:badge:badge', value: 'B-2' })));
    expect(patched.body['urn:example:badge']).toEqual({ badge: 'B-2', pin: { label: 'L' } });
    const untouched = await call(s, patch(id, patchOp({ op: 'replace', path: 'nickName', value: 'n' })));
    expect(untouched.body['urn:example:badge']).toEqual({ pin: { label: 'L' } });
  });
});

describe('meta-schemas in /Schemas (RFC 7643 §7, §8.7.2)', () => {
  it('are served when discovery.metaSchemas is on, with RFC 9865 pagination when cursors are', async () => {
    const plain = server();
    expect((await call(plain, { method: 'GET', path: `/Schemas/${URN.schema}` })).status).toBe(404);
    const target = server({ discovery: { metaSchemas: true }, pagination: {} });
    const listed = await call(target, { method: 'GET', path: '/Schemas' });
    const ids = listed.body['Resources'].map((schema: { id: string }) => schema.id);
    expect(ids).toEqual(expect.arrayContaining([URN.schema, URN.resourceType, URN.serviceProviderConfig]));
    expect(listed.body['totalResults']).toBe(ids.length);
    const provider = await call(target, { method: 'GET', path: `/Schemas/${URN.serviceProviderConfig}` });
    expect(provider.status).toBe(200);
    expect(provider.body['meta']).toMatchObject({ resourceType: 'Schema' });
    const names = provider.body['attributes'].map((attribute: { name: string }) => attribute.name);
    expect(names).toEqual(expect.arrayContaining(['patch', 'bulk', 'filter', 'changePassword', 'sort', 'etag', 'authenticationSchemes', 'pagination']));
    const pagination = provider.body['attributes'].find((attribute: { name: string }) => attribute.name === 'pagination');
    expect(pagination.subAttributes.map((sub: { name: string }) => sub.name)).toEqual(['cursor', 'index', 'defaultPaginationMethod', 'defaultPageSize', 'maxPageSize', 'cursorTimeout']);
    expect((await call(target, { method: 'GET', path: `/Schemas/${URN.resourceType.toUpperCase()}` })).status).toBe(200);
  });
});
