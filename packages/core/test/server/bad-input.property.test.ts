import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, groupResourceType, userResourceType, type ScimResponse, type ScimServer } from '../../src/index.js';

/** Every answer is well-formed: never a 500 for bad input, a SCIM JSON body whenever there is one. */
function expectWellFormed(response: ScimResponse): void {
  expect(response.status).toBeGreaterThanOrEqual(200);
  // 501 is the deliberate answer for /Bulk and /Me; nothing else may be a server error.
  if (response.status !== 501) expect(response.status).toBeLessThan(500);
  if (response.body !== undefined) {
    expect(response.headers['Content-Type']).toBe('application/scim+json');
    const body = JSON.parse(response.body) as { status?: string; schemas?: string[] };
    if (response.status >= 400) expect(body.status).toBe(String(response.status));
  }
}

function scim(): ScimServer {
  return createScimServer({
    resourceTypes: [userResourceType, { ...groupResourceType, operations: ['read', 'list', 'search'], rootSearch: true }],
    store: createMemoryStore(),
    logger: { log: ({ level, message, error }) => { if (level === 'error') throw new Error(`unexpected failure reported: ${message}: ${String(error)}`); } },
  });
}

const segment = fc.oneof(
  fc.constantFrom('Users', 'users', 'Groups', '.search', 'Schemas', 'ResourceTypes', 'ServiceProviderConfig', 'Me', 'Bulk', '%', '%E0%A4%A', '__proto__', 'constructor', '..', ''),
  fc.string({ maxLength: 12 }),
);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'get', 'TRACE', '');
const queryValue = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('userName eq "x"', '((((', 'title pr', '-1', '0', '1e309', 'emails[type eq "work"]'), fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }));
const query = fc.dictionary(fc.constantFrom('filter', 'startIndex', 'count', 'sortBy', 'sortOrder', 'attributes', 'excludedAttributes', 'STARTINDEX', '__proto__'), queryValue);
const jsonBody = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.string({ maxLength: 50 }),
  fc.constantFrom('{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"add","path":"__proto__.x","value":1}]}', '{"__proto__":{"a":1}}', '{"userName":{"nested":[1,2,3]}}', '[]', 'null', '"string"', '{"Operations":"nope"}'),
);
const headers = fc.dictionary(fc.constantFrom('content-type', 'if-match', 'if-none-match', 'host', 'Content-Type', 'authorization'), fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('application/json', 'text/plain', '*', 'W/"1"', 'application/scim+json; charset=utf-8')));

describe('bad input never breaks the server', () => {
  it('arbitrary method, path, query, headers and body get a well-formed answer', async () => {
    const server = scim();
    await fc.assert(
      fc.asyncProperty(method, fc.array(segment, { maxLength: 4 }), query, headers, fc.option(jsonBody, { nil: undefined }), async (m, path, q, h, body) => {
        const response = await server.handle({ method: m, path: `/${path.join('/')}`, query: q, headers: h, body });
        expectWellFormed(response);
      }),
      { numRuns: 400 },
    );
  });

  it('arbitrary JSON to every write endpoint of an existing user gets a well-formed answer, and the store stays consistent', async () => {
    const server = scim();
    const created = await server.handle({ method: 'POST', path: '/Users', body: JSON.stringify({ userName: 'target' }) });
    const id = (JSON.parse(created.body ?? '{}') as { id: string }).id;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('POST /Users', `PUT /Users/${id}`, `PATCH /Users/${id}`, 'POST /Users/.search', 'POST /.search'), fc.json({ maxDepth: 5 }), async (route, text) => {
        const [m, path] = route.split(' ') as [string, string];
        expectWellFormed(await server.handle({ method: m, path, body: text, headers: { 'content-type': 'application/scim+json' } }));
      }),
      { numRuns: 400 },
    );
    const read = await server.handle({ method: 'GET', path: `/Users/${id}` });
    expect(read.status).toBe(200);
  });

  it('arbitrary PATCH operations on a user never produce a 500', async () => {
    const server = scim();
    const created = await server.handle({ method: 'POST', path: '/Users', body: JSON.stringify({ userName: 'patched', emails: [{ value: 'a@b.c', type: 'work' }] }) });
    const id = (JSON.parse(created.body ?? '{}') as { id: string }).id;
    const op = fc.record(
      {
        op: fc.constantFrom('add', 'replace', 'remove', 'Add', 'bogus'),
        path: fc.constantFrom('userName', 'emails', 'emails[type eq "work"].value', 'name.givenName', 'active', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager', 'x.y.z', '__proto__', 'emails[', ''),
        value: fc.oneof(fc.json({ maxDepth: 3 }).map((t) => JSON.parse(t) as unknown), fc.constantFrom('True', 'x', 1, null)),
      },
      { requiredKeys: ['op'] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 4 }), async (operations) => {
        const body = JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations });
        expectWellFormed(await server.handle({ method: 'PATCH', path: `/Users/${id}`, body }));
      }),
      { numRuns: 400 },
    );
  });

  it('arbitrary bytes under arbitrary Content-Types (charsets, forms, garbage) never produce a 500 or a write of garbage', async () => {
    const server = scim();
    const contentType = fc.oneof(
      fc.constantFrom('application/scim+json', 'application/json; charset=utf-8', 'application/scim+json; charset=latin1', 'application/json; charset=utf-16', 'application/scim+json; charset=bogus', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', ';', ''),
      fc.string({ maxLength: 30 }),
    );
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.json({ maxDepth: 3 }).map((text) => new TextEncoder().encode(text)),
      fc.constantFrom(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]), new Uint8Array([0xe0, 0xa4]), new Uint8Array([...new TextEncoder().encode('{"userName":"x'), 0xff, 0x22, 0x7d])),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('POST /Users', 'PUT /Users/x', 'PATCH /Users/x', 'POST /Users/.search', 'POST /.search'), contentType, bytes, async (route, type, body) => {
        const [m, path] = route.split(' ') as [string, string];
        const response = await server.handle({ method: m, path, headers: { 'content-type': type }, body });
        expectWellFormed(response);
        if (response.status === 201) expect(response.body).not.toContain('\ufffd');
      }),
      { numRuns: 400 },
    );
  });

  it('bodies a framework already parsed, with prototype keys and lone surrogates at any depth, never pollute or break anything', async () => {
    const server = scim();
    const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'userName', 'name', 'emails', 'value', 'Operations', 'op', 'path', 'filter', 'schemas', '\ud800'), fc.string({ maxLength: 8 }));
    const leaf = fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('value'), { maxLength: 3 }), tie('object')),
      // Built with defineProperty, as JSON.parse does: '__proto__' stays an own key.
      object: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((entries) => {
        const object: Record<string, unknown> = {};
        for (const [name, member] of entries) Object.defineProperty(object, name, { value: member, enumerable: true, writable: true, configurable: true });
        return object;
      }),
    }));
    const created = await server.handle({ method: 'POST', path: '/Users', body: JSON.stringify({ userName: 'parsed-target' }) });
    const id = (JSON.parse(created.body ?? '{}') as { id: string }).id;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('POST /Users', `PUT /Users/${id}`, `PATCH /Users/${id}`, 'POST /Users/.search', 'POST /.search'), value, fc.constantFrom('application/json', 'application/x-www-form-urlencoded', undefined), async (route, body, type) => {
        const [m, path] = route.split(' ') as [string, string];
        const response = await server.handle({ method: m, path, body, ...(type === undefined ? {} : { headers: { 'content-type': type } }) });
        expectWellFormed(response);
        if (type === 'application/x-www-form-urlencoded') expect(response.status).toBe(415);
        expect(Object.keys(Object.prototype)).toEqual([]);
        expect(({} as Record<string, unknown>)['userName']).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });

  it('a write that fails leaves the resource exactly as it was (no partial write)', async () => {
    const server = scim();
    const created = await server.handle({ method: 'POST', path: '/Users', body: JSON.stringify({ userName: 'atomic', emails: [{ value: 'a@b.c', type: 'work' }], name: { givenName: 'A' } }) });
    const id = (JSON.parse(created.body ?? '{}') as { id: string }).id;
    const op = fc.record({
      op: fc.constantFrom('add', 'replace', 'remove'),
      path: fc.constantFrom('title', 'name.givenName', 'emails', 'emails[type eq "work"].value', 'userName', 'active', 'id', 'meta.created', 'nope', '__proto__', 'emails[', 'groups'),
      value: fc.oneof(fc.json({ maxDepth: 2 }).map((text) => JSON.parse(text) as unknown), fc.constantFrom('x', 1, true, null, [], {})),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 4 }), fc.boolean(), async (operations, put) => {
        const before = await server.handle({ method: 'GET', path: `/Users/${id}` });
        const body = put
          ? JSON.stringify(Object.fromEntries(operations.map((o) => [o.path, o.value])))
          : JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations });
        const response = await server.handle({ method: put ? 'PUT' : 'PATCH', path: `/Users/${id}`, body });
        expectWellFormed(response);
        const after = await server.handle({ method: 'GET', path: `/Users/${id}` });
        if (response.status >= 400) expect(after.body).toBe(before.body);
        else expect(after.body).toBe(response.body);
        if (put && response.status === 200) {
          // Put the resource back so the next run starts from a valid user.
          await server.handle({ method: 'PUT', path: `/Users/${id}`, body: JSON.stringify({ userName: 'atomic', emails: [{ value: 'a@b.c', type: 'work' }], name: { givenName: 'A' } }) });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a store and hooks that throw, reject or return garbage never make handle() reject or answer a malformed response', async () => {
    const garbage = fc.oneof(fc.anything({ maxDepth: 2 }), fc.constantFrom(undefined, null, 'x', 42, [], {}, { ok: 'yes' }, { resources: 'x', totalResults: -1 }, { ok: true, resource: 'x' }, { ok: false, reason: 'bogus' }));
    const behaviour = fc.oneof(
      garbage.map((value) => () => value),
      garbage.map((value) => () => Promise.resolve(value)),
      garbage.map((value) => () => Promise.reject(value)),
      garbage.map((value) => () => {
        throw value;
      }),
    );
    const names = ['create', 'get', 'replace', 'delete', 'query', 'authenticate', 'onChange', 'onRequest', 'onResponse', 'logger'] as const;
    const requests = fc.constantFrom(
      { method: 'POST', path: '/Users', body: '{"userName":"g"}' },
      { method: 'GET', path: '/Users' },
      { method: 'GET', path: '/Users/some-id' },
      { method: 'PUT', path: '/Users/some-id', body: '{"userName":"g"}' },
      { method: 'PATCH', path: '/Users/some-id', body: '{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"add","path":"title","value":"t"}]}' },
      { method: 'DELETE', path: '/Users/some-id' },
      { method: 'POST', path: '/.search', body: '{}' },
    );
    await fc.assert(
      fc.asyncProperty(fc.subarray([...names], { minLength: 1 }), fc.array(behaviour, { minLength: names.length, maxLength: names.length }), requests, async (broken, behaviours, request) => {
        const memory = createMemoryStore();
        const pick = (name: (typeof names)[number]) => behaviours[names.indexOf(name)] as () => unknown;
        const store = new Proxy(memory, {
          get(target, key, receiver) {
            if (typeof key === 'string' && (broken as readonly string[]).includes(key)) return pick(key as (typeof names)[number]);
            return Reflect.get(target, key, receiver);
          },
        });
        const server = createScimServer({
          resourceTypes: [userResourceType, { ...groupResourceType, operations: [], rootSearch: true }],
          store,
          ...(broken.includes('authenticate') ? { authenticate: pick('authenticate') as never } : {}),
          ...(broken.includes('onChange') ? { onChange: pick('onChange') as never } : {}),
          ...(broken.includes('onRequest') ? { onRequest: pick('onRequest') as never } : {}),
          ...(broken.includes('onResponse') ? { onResponse: pick('onResponse') as never } : {}),
          logger: broken.includes('logger') ? { log: pick('logger') as never } : { log: () => undefined },
        });
        const response = await server.handle({ ...request, headers: { 'content-type': 'application/scim+json' } });
        expect(response.status).toBeGreaterThanOrEqual(200);
        expect(response.status).toBeLessThan(600);
        if (response.body !== undefined) {
          const body = JSON.parse(response.body) as { status?: string };
          if (response.status >= 400) expect(body.status).toBe(String(response.status));
        }
      }),
      { numRuns: 500 },
    );
  });
});
