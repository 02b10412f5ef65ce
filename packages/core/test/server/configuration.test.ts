import { describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, groupResourceType, userResourceType, type IgnoredAttributeReport, type ScimLogRecord, type ScimStore } from '../../src/index.js';
import { call, post, server, user, USER } from './helpers.js';

const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

async function createUsers(target: ReturnType<typeof server>, n: number, prefix = 'u'): Promise<void> {
  for (let i = 0; i < n; i++) expect((await call(target, post('/Users', user(`${prefix}${String(i).padStart(3, '0')}`)))).status).toBe(201);
}

describe('limits', () => {
  it('maxResults caps count silently and defaultPageSize applies without count', async () => {
    const target = server({ limits: { maxResults: 5, defaultPageSize: 3 } });
    await createUsers(target, 8);
    const defaulted = await call(target, { method: 'GET', path: '/Users' });
    expect(defaulted.body['itemsPerPage']).toBe(3);
    expect(defaulted.body['totalResults']).toBe(8);
    const capped = await call(target, { method: 'GET', path: '/Users', query: { count: '100' } });
    expect(capped.body['itemsPerPage']).toBe(5);
    const config = await call(target, { method: 'GET', path: '/ServiceProviderConfig' });
    expect(config.body['filter']).toEqual({ supported: true, maxResults: 5 });
  });

  it('maxBodyBytes answers 413 for text and byte bodies, and is advertised as bulk.maxPayloadSize', async () => {
    const target = server({ limits: { maxBodyBytes: 100 } });
    const big = JSON.stringify({ userName: 'x', displayName: 'é'.repeat(55) });
    expect(big.length).toBeLessThan(100);
    expect((await call(target, { method: 'POST', path: '/Users', body: big })).status).toBe(413);
    expect((await call(target, { method: 'POST', path: '/Users', body: new TextEncoder().encode(big) })).status).toBe(413);
    expect((await call(target, { method: 'POST', path: '/Users', body: JSON.stringify(user('small')) })).status).toBe(201);
    expect((await call(target, { method: 'GET', path: '/ServiceProviderConfig' })).body['bulk']).toEqual({ supported: false, maxOperations: 0, maxPayloadSize: 100 });
  });

  it('rootSearchMaxResults refuses a larger server-root search with tooMany', async () => {
    const target = server({ limits: { rootSearchMaxResults: 3 } });
    await createUsers(target, 4);
    const refused = await call(target, post('/.search', { schemas: [SEARCH] }));
    expect(refused.status).toBe(400);
    expect(refused.body['scimType']).toBe('tooMany');
    expect((await call(target, post('/.search', { schemas: [SEARCH], filter: 'userName eq "u001"' }))).body['totalResults']).toBe(1);
  });

  it('server-root search queries each type once and asks a paging store for at most limit + 1 resources', async () => {
    const memory = createMemoryStore();
    const calls: { type: string; count: number | undefined; returned: number }[] = [];
    const store: ScimStore = {
      ...memory,
      capabilities: memory.capabilities ?? {},
      create: (...args) => memory.create(...args),
      get: (...args) => memory.get(...args),
      replace: (...args) => memory.replace(...args),
      delete: (...args) => memory.delete(...args),
      query: async (type, query) => {
        const result = await memory.query(type, query);
        // The search's own queries (not the `members.value eq` lookups of each user's computed groups).
        if (query.filter === undefined) calls.push({ type, count: query.count, returned: result.resources.length });
        return result;
      },
    };
    const target = createScimServer({ resourceTypes: [userResourceType, { ...groupResourceType, operations: ['read'], rootSearch: true }], store, limits: { rootSearchMaxResults: 3 } });
    const created = async (name: string) => expect((await target.handle({ method: 'POST', path: '/Users', body: JSON.stringify({ schemas: [USER], userName: name }) })).status).toBe(201);
    for (const name of ['a1', 'a2', 'b1']) await created(name);

    const answered = await call(target, post('/.search', { schemas: [SEARCH] }));
    expect(answered.body['totalResults']).toBe(3);
    expect(calls.map(({ type, count }) => [type, count])).toEqual([['User', 4], ['Group', 4]]);

    for (const name of ['b2', 'b3', 'b4', 'b5']) await created(name);
    calls.length = 0;
    const refused = await call(target, post('/.search', { schemas: [SEARCH] }));
    expect(refused.status).toBe(400);
    expect(refused.body['scimType']).toBe('tooMany');
    expect(refused.body['detail']).toBe('The search matches at least 7 resources; the limit is 3. Narrow the filter.');
    // Refused on the first type, having read no more than limit + 1 of its resources.
    expect(calls).toEqual([{ type: 'User', count: 4, returned: 4 }]);
  });

  it('maxPatchOperations refuses a PATCH with more operations', async () => {
    const target = server({ limits: { maxPatchOperations: 2 } });
    const id = (await call(target, post('/Users', user('ops')))).body['id'];
    const op = { op: 'replace', path: 'title', value: 'x' };
    const reply = await call(target, { method: 'PATCH', path: `/Users/${id}`, body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [op, op, op] }) });
    expect(reply.status).toBe(400);
  });

  it('maxPatchElementVisits refuses a PATCH that examines more elements, writing nothing', async () => {
    const target = server({ limits: { maxPatchElementVisits: 5 } });
    const emails = [1, 2, 3].map((i) => ({ value: `e${i}@example.com`, type: 'work' }));
    const created = (await call(target, post('/Users', { ...user('visits'), emails }))).body;
    const op = { op: 'replace', path: 'emails[type eq "work"].display', value: 'x' };
    const body = (n: number) => JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: Array.from({ length: n }, () => op) });
    const reply = await call(target, { method: 'PATCH', path: `/Users/${String(created['id'])}`, body: body(2) });
    expect(reply.status).toBe(400);
    expect(reply.body['scimType']).toBe('invalidValue');
    expect(reply.body['detail']).toContain('PATCH request too complex');
    expect((await call(target, { method: 'GET', path: `/Users/${String(created['id'])}` })).body).toEqual(created);
  });

  it('rejects invalid limits at start-up', () => {
    expect(() => server({ limits: { maxResults: -1 } })).toThrow(TypeError);
    expect(() => server({ limits: { maxBodyBytes: 1.5 } })).toThrow(TypeError);
  });
});

describe('resource type operations', () => {
  it('offers only the configured operations: other methods are 405, missing endpoints 404', async () => {
    const target = server({ resourceTypes: [{ ...userResourceType, operations: ['read', 'list'] }] });
    const create = await call(target, post('/Users', user('x')));
    expect(create.status).toBe(405);
    expect(create.headers['Allow']).toBe('GET');
    expect((await call(target, post('/Users/.search', {}))).status).toBe(404);
    expect((await call(target, post('/.search', {}))).status).toBe(404);
    const item = await call(target, { method: 'DELETE', path: '/Users/x' });
    expect(item.status).toBe(405);
    expect(item.headers['Allow']).toBe('GET');
    expect((await call(target, { method: 'GET', path: '/ServiceProviderConfig' })).body['patch']).toEqual({ supported: false });
  });

  it('a type with no operations has no endpoint, is not a listed resource type, but its schema is served', async () => {
    const target = server({ resourceTypes: [userResourceType, { ...groupResourceType, operations: [] }] });
    expect((await call(target, { method: 'GET', path: '/Groups' })).status).toBe(404);
    const types = await call(target, { method: 'GET', path: '/ResourceTypes' });
    expect(types.body['Resources'].map((t: { id: string }) => t.id)).toEqual(['User']);
    expect((await call(target, { method: 'GET', path: '/Schemas/urn:ietf:params:scim:schemas:core:2.0:Group' })).status).toBe(200);
    // Not covered by root search unless marked.
    const root = await call(target, post('/.search', { schemas: [SEARCH] }));
    expect(root.status).toBe(200);
  });

  it('rejects an unknown operation at start-up', () => {
    expect(() => server({ resourceTypes: [{ ...userResourceType, operations: ['explode' as never] }] })).toThrow(TypeError);
  });
});

describe('schemas and validation options', () => {
  const badgeSchema = {
    id: 'urn:example:params:scim:schemas:core:2.0:Badge',
    name: 'Badge',
    attributes: [
      { name: 'serial', type: 'string' as const, required: true, mutability: 'immutable' as const, uniqueness: 'server' as const },
      { name: 'holder', type: 'string' as const },
    ],
  };
  const badges = () =>
    createScimServer({
      schemas: [badgeSchema],
      resourceTypes: [{ name: 'Badge', endpoint: '/Badges', schema: badgeSchema.id }],
      store: createMemoryStore(),
    });

  it('PUT that changes an immutable attribute is 400 mutability; keeping it is fine', async () => {
    const target = badges();
    const created = await call(target, post('/Badges', { serial: 'A-1', holder: 'ann' }));
    expect(created.status).toBe(201);
    expect(created.body['meta']['location']).toMatch(/\/Badges\/[0-9a-f-]{36}$/);
    const id = created.body['id'];
    const changed = await call(target, { method: 'PUT', path: `/Badges/${id}`, body: JSON.stringify({ schemas: [badgeSchema.id], serial: 'B-2', holder: 'ann' }) });
    expect(changed.status).toBe(400);
    expect(changed.body['scimType']).toBe('mutability');
    const kept = await call(target, { method: 'PUT', path: `/Badges/${id}`, body: JSON.stringify({ schemas: [badgeSchema.id], serial: 'A-1', holder: 'bob' }) });
    expect(kept.status).toBe(200);
    expect(kept.body['holder']).toBe('bob');
  });

  it('custom unique attributes are enforced (409)', async () => {
    const target = badges();
    expect((await call(target, post('/Badges', { serial: 'S', holder: 'a' }))).status).toBe(201);
    const duplicate = await call(target, post('/Badges', { serial: 's', holder: 'b' }));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body['scimType']).toBe('uniqueness');
  });

  it("unknownAttributes: 'ignore' drops what no schema declares, reporting each attribute to the logger and to onIgnoredAttribute", async () => {
    const reports: IgnoredAttributeReport[] = [];
    const logs: ScimLogRecord[] = [];
    const target = server({ unknownAttributes: 'ignore', onIgnoredAttribute: (report) => reports.push(report), logger: { log: (record) => logs.push(record) } });
    const reply = await call(target, post('/Users', user('lenient', { favouriteColour: 'blue' })));
    expect(reply.status).toBe(201);
    expect(reply.body['favouriteColour']).toBeUndefined();
    const patched = await call(target, {
      method: 'PATCH',
      path: `/Users/${reply.body['id']}`,
      body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'add', value: { favouriteColour: 'red', title: 'T' } }] }),
    });
    expect(patched.status).toBe(200);
    expect(patched.body['title']).toBe('T');
    expect(patched.body['favouriteColour']).toBeUndefined();
    const replaced = await call(target, { method: 'PUT', path: `/Users/${reply.body['id']}`, body: JSON.stringify(user('lenient', { name: { givenName: 'L', shoeSize: 9 } })) });
    expect(replaced.status).toBe(200);
    expect(reports.map((r) => `${r.operation} ${r.resourceType} ${r.path}`)).toEqual(['create User favouriteColour', 'patch User favouriteColour', 'replace User name.shoeSize']);
    expect(reports.every((r) => r.id === reply.body['id'] && typeof r.requestId === 'string')).toBe(true);
    expect(logs.filter((r) => r.level === 'warn').map((r) => r.message)).toEqual([
      expect.stringContaining('favouriteColour'),
      expect.stringContaining('favouriteColour'),
      expect.stringContaining('name.shoeSize'),
    ]);
    // A throwing hook is reported and changes nothing.
    const throwing = server({ unknownAttributes: 'ignore', onIgnoredAttribute: () => { throw new Error('hook'); }, logger: { log: (record) => logs.push(record) } });
    expect((await call(throwing, post('/Users', user('t', { favouriteColour: 'blue' })))).status).toBe(201);
    expect(logs.some((r) => r.level === 'error' && /onIgnoredAttribute/.test(r.message))).toBe(true);
    // Under reject nothing is reported: the request is refused.
    const strict = server({ onIgnoredAttribute: (report) => reports.push(report) });
    expect((await call(strict, post('/Users', user('s', { favouriteColour: 'blue' })))).status).toBe(400);
    expect(reports).toHaveLength(3);
  });

  it('two servers with different schemas live in one process independently', async () => {
    const users = server();
    const other = badges();
    expect((await call(users, { method: 'GET', path: '/Badges' })).status).toBe(404);
    expect((await call(other, { method: 'GET', path: '/Users' })).status).toBe(404);
    expect((await call(other, { method: 'GET', path: '/Schemas' })).body['totalResults']).toBe(1);
  });
});

describe('requests', () => {
  it('accepts a body a framework already parsed', async () => {
    const target = server();
    expect((await call(target, { method: 'POST', path: '/Users', body: user('parsed') })).status).toBe(201);
  });

  it('builds locations from request.baseUrl, else config.baseUrl, else the Host header', async () => {
    const fromRequest = await call(server({ baseUrl: 'https://config.example/scim' }), post('/Users', user('a'), { baseUrl: 'https://request.example/v2/' }));
    expect(fromRequest.body['meta']['location']).toBe(`https://request.example/v2/Users/${fromRequest.body['id']}`);
    expect(fromRequest.headers['Location']).toBe(fromRequest.body['meta']['location']);
    const fromConfig = await call(server({ baseUrl: 'https://config.example/scim' }), post('/Users', user('b')));
    expect(fromConfig.body['meta']['location']).toBe(`https://config.example/scim/Users/${fromConfig.body['id']}`);
    const fromHost = await call(server(), post('/Users', user('c'), { headers: { Host: 'host.example:8443' } }));
    expect(fromHost.body['meta']['location']).toBe(`http://host.example:8443/Users/${fromHost.body['id']}`);
    const badHost = await call(server(), post('/Users', user('d'), { headers: { Host: 'evil"\\x' } }));
    expect(badHost.body['meta']['location']).toBe(`/Users/${badHost.body['id']}`);
    // RFC 3986 reg-names may hold '_' (docker compose service names).
    const underscore = await call(server(), post('/Users', user('e'), { headers: { Host: 'scim_server:8080' } }));
    expect(underscore.body['meta']['location']).toBe(`http://scim_server:8080/Users/${underscore.body['id']}`);
  });

  it('generates ServiceProviderConfig from the configuration', async () => {
    const target = server({
      documentationUri: 'https://docs.example/scim',
      authenticationSchemes: [{ type: 'oauthbearertoken', name: 'OAuth Bearer Token', description: 'Bearer', specUri: 'https://www.rfc-editor.org/info/rfc6750', primary: true }],
    });
    const config = (await call(target, { method: 'GET', path: '/ServiceProviderConfig' })).body;
    expect(config['documentationUri']).toBe('https://docs.example/scim');
    expect(config['authenticationSchemes']).toEqual([{ type: 'oauthbearertoken', name: 'OAuth Bearer Token', description: 'Bearer', specUri: 'https://www.rfc-editor.org/info/rfc6750', primary: true }]);
  });

  it('reads If-Match with any header-name case', async () => {
    const target = server();
    const created = (await call(target, post('/Users', user('hdr')))).body;
    const reply = await call(target, { method: 'DELETE', path: `/Users/${created['id']}`, headers: { 'IF-MATCH': 'W/"999"' } });
    expect(reply.status).toBe(412);
  });
});

describe('stores with fewer capabilities', () => {
  /** The memory store with its capabilities hidden: the core filters, sorts and pages itself. */
  const plain = (): ScimStore => {
    const store = createMemoryStore();
    return { create: store.create, get: store.get, replace: store.replace, delete: store.delete, query: store.query };
  };

  it('gives the same list answers when the core evaluates filter, sort and paging', async () => {
    const full = server();
    const bare = server({ store: plain() });
    for (const target of [full, bare]) {
      for (const name of ['delta', 'Alpha', 'charlie', 'Bravo', 'echo']) await call(target, post('/Users', user(name, { title: name.length > 4 ? 'long' : 'short' })));
    }
    const query = { filter: 'title eq "long" or userName eq "echo"', sortBy: 'userName', sortOrder: 'descending', startIndex: '2', count: '2' };
    const a = await call(full, { method: 'GET', path: '/Users', query });
    const b = await call(bare, { method: 'GET', path: '/Users', query });
    expect(b.body['totalResults']).toBe(a.body['totalResults']);
    expect(b.body['Resources'].map((r: { userName: string }) => r.userName)).toEqual(a.body['Resources'].map((r: { userName: string }) => r.userName));
    expect(a.body['Resources'].map((r: { userName: string }) => r.userName)).toEqual(['delta', 'charlie']);
  });

  it('retries a PATCH without If-Match that loses a compare-and-swap to another process; 412 with If-Match', async () => {
    const store = createMemoryStore();
    let interfere = 0;
    // No `assign`: the PATCH takes the read path, whose compare-and-swap this test races.
    const racing: ScimStore = {
      capabilities: store.capabilities ?? {},
      create: store.create,
      get: store.get,
      delete: store.delete,
      query: store.query,
      async replace(type, id, resource, expected, ctx) {
        if (interfere > 0) {
          interfere--;
          // Another process writes first.
          const current = await store.get(type, id);
          if (current !== undefined) await store.replace(type, id, { ...current, nickName: `other-${interfere}`, meta: { ...current.meta, version: `${current.meta.version}x` } }, current.meta.version, ctx);
        }
        return store.replace(type, id, resource, expected, ctx);
      },
    };
    const target = server({ store: racing });
    const created = (await call(target, post('/Users', user('contended')))).body;
    interfere = 2;
    const patched = await call(target, { method: 'PATCH', path: `/Users/${created['id']}`, body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'title', value: 'mine' }] }) });
    expect(patched.status).toBe(200);
    expect(patched.body['title']).toBe('mine');
    expect(patched.body['nickName']).toBe('other-0');
    interfere = 1;
    const guarded = await call(target, { method: 'PUT', path: `/Users/${created['id']}`, body: JSON.stringify(user('contended', { title: 'guarded' })), headers: { 'If-Match': patched.body['meta']['version'] } });
    expect(guarded.status).toBe(412);
    expect(guarded.body['detail']).toBe('ETag mismatch');
  });
});

describe('queries on meta.location', () => {
  it('never hand a store a filter or sort on meta.location, which only the served form has', async () => {
    const store = createMemoryStore();
    const pushed: unknown[] = [];
    const translating: ScimStore = {
      ...store,
      capabilities: { filter: () => true, sort: true, paging: true },
      async query(type, query) {
        pushed.push(query.filter, query.sort);
        return store.query(type, query);
      },
    };
    const target = server({ store: translating, baseUrl: 'https://example.com/scim/v2' });
    const created = (await call(target, post('/Users', user('located')))).body;
    await call(target, post('/Users', user('other')));
    pushed.length = 0;
    const reply = await call(target, { method: 'GET', path: '/Users', query: { filter: `meta.location eq "https://example.com/scim/v2/Users/${created['id']}"`, sortBy: 'meta.location' } });
    expect(reply.body['totalResults']).toBe(1);
    expect(reply.body['Resources'][0]['userName']).toBe('located');
    expect(pushed.every((value) => value === undefined)).toBe(true);
    // Other queries are still pushed down.
    await call(target, { method: 'GET', path: '/Users', query: { filter: 'userName eq "other"' } });
    expect(pushed.some((value) => value !== undefined)).toBe(true);
  });
});

describe('discovery over several types', () => {
  it('lists schemas of every type and resource types with endpoints', async () => {
    const target = server({ resourceTypes: [userResourceType, groupResourceType] });
    const schemas = await call(target, { method: 'GET', path: '/Schemas' });
    expect(schemas.body['Resources'].map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining([USER, 'urn:ietf:params:scim:schemas:core:2.0:Group']));
    const types = await call(target, { method: 'GET', path: '/ResourceTypes', query: { count: '1' } });
    expect(types.body['totalResults']).toBe(2);
    expect(types.body['itemsPerPage']).toBe(1);
    expect((await call(target, { method: 'GET', path: '/ResourceTypes/group' })).status).toBe(200);
  });
});
