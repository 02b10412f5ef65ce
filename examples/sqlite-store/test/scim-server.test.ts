import { createScimServer, userResourceType, type ScimResponse, type ScimStore, type StoreQuery } from '@scimkit/core';
import { describe, expect, it } from 'vitest';
import { createSqliteStore, openDatabase } from '../src/index.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** The SQLite store behind a real server, with the queries it receives recorded. */
async function serve() {
  const store = createSqliteStore(await openDatabase());
  const queries: StoreQuery[] = [];
  const recording: ScimStore = { ...store, query: (type, query) => (queries.push(query), store.query(type, query)) };
  const scim = createScimServer({ resourceTypes: [userResourceType], store: recording, baseUrl: 'https://app.example.com/scim/v2' });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response: ScimResponse = await scim.handle({
      method,
      path: path.split('?')[0] ?? path,
      query: Object.fromEntries(new URLSearchParams(path.split('?')[1] ?? '')),
      headers: { 'content-type': 'application/scim+json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { ...response, json: response.body === undefined ? undefined : (JSON.parse(response.body) as Record<string, any>) };
  };
  return { call, queries };
}

describe('the SQLite store behind createScimServer', () => {
  it('creates, reads, and refuses a userName that differs only in case with 409 uniqueness', async () => {
    const { call } = await serve();
    const created = await call('POST', '/Users', { schemas: [USER], userName: 'bjensen', externalId: 'E-1' });
    expect(created.status).toBe(201);
    const read = await call('GET', `/Users/${created.json?.['id']}`);
    expect(read.json).toEqual(created.json);
    const duplicate = await call('POST', '/Users', { schemas: [USER], userName: 'BJensen' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json).toMatchObject({ status: '409', scimType: 'uniqueness' });
  });

  it('hands userName / externalId equality to SQL and evaluates every other filter in the core', async () => {
    const { call, queries } = await serve();
    await call('POST', '/Users', { schemas: [USER], userName: 'bjensen', externalId: 'E-1', name: { givenName: 'Barbara' } });
    await call('POST', '/Users', { schemas: [USER], userName: 'jsmith', externalId: 'E-2', name: { givenName: 'John' } });

    const byName = await call('GET', `/Users?filter=${encodeURIComponent('userName eq "BJENSEN"')}`);
    expect(byName.json?.['Resources'].map((user: { userName: string }) => user.userName)).toEqual(['bjensen']);
    expect(queries.at(-1)?.filter).toMatchObject({ kind: 'compare', op: 'eq', path: { attr: 'userName' } });

    const byExternalId = await call('GET', `/Users?filter=${encodeURIComponent('externalId eq "E-2"')}`);
    expect(byExternalId.json?.['totalResults']).toBe(1);
    expect(queries.at(-1)?.filter).toBeDefined();

    const byGivenName = await call('GET', `/Users?filter=${encodeURIComponent('name.givenName sw "j"')}`);
    expect(byGivenName.json?.['Resources'].map((user: { userName: string }) => user.userName)).toEqual(['jsmith']);
    expect(queries.at(-1)?.filter).toBeUndefined();
  });

  it('refuses a write holding a stale ETag with 412, through the UPDATE … WHERE version = ? swap', async () => {
    const { call } = await serve();
    const created = await call('POST', '/Users', { schemas: [USER], userName: 'bjensen' });
    const id = String(created.json?.['id']);
    const etag = created.headers['ETag'] ?? '';
    const first = await call('PUT', `/Users/${id}`, { schemas: [USER], userName: 'bjensen', displayName: 'One' }, { 'if-match': etag });
    expect(first.status).toBe(200);
    const second = await call('PUT', `/Users/${id}`, { schemas: [USER], userName: 'bjensen', displayName: 'Two' }, { 'if-match': etag });
    expect(second.status).toBe(412);
    expect((await call('GET', `/Users/${id}`)).json?.['displayName']).toBe('One');
    expect((await call('DELETE', `/Users/${id}`, undefined, { 'if-match': etag })).status).toBe(412);
    expect((await call('DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await call('GET', `/Users/${id}`)).status).toBe(404);
  });
});
