import { describe, expect, it } from 'vitest';
import { bearerToken, groupResourceType, userResourceType, type AdmissionEvent, type AuthorizationEvent, type ScimRequest } from '../../src/index.js';
import { call, post, server, user } from './helpers.js';

const auth = bearerToken({
  tokens: [
    { token: 'reader', principal: 'reader', tenant: 'acme', scopes: ['scim:read'] },
    { token: 'writer', principal: 'writer', tenant: 'acme', scopes: ['scim:read', 'scim:write'] },
    { token: 'all', principal: 'all', tenant: 'acme', scopes: ['scim:read', 'scim:write', 'scim:bulk'] },
    { token: 'static', principal: 'static' },
  ],
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' });

/** A scope policy written against the hook: read, write and bulk scopes. */
function policy(seen: AuthorizationEvent[]) {
  return (event: AuthorizationEvent) => {
    seen.push(event);
    if (event.scopes === undefined || event.access === 'discovery') return undefined;
    const needed = `scim:${event.access}`;
    return event.scopes.includes(needed) ? undefined : { ok: false as const, scope: needed };
  };
}

describe('authorize: scopes per operation', () => {
  it('hands the caller\'s scopes and the operation to the hook; a refusal is 403 insufficient_scope with a SCIM body', async () => {
    const seen: AuthorizationEvent[] = [];
    const scim = server({ ...auth, authorize: policy(seen), bulk: {} });
    const read = await call(scim, { method: 'GET', path: '/Users', headers: bearer('reader') });
    expect(read.status).toBe(200);
    expect(seen.at(-1)).toEqual({ access: 'read', operation: 'list', resourceType: 'User', inBulk: false, principal: 'reader', tenant: 'acme', scopes: ['scim:read'] });
    const refused = await call(scim, post('/Users', user('bjensen'), { headers: bearer('reader') }));
    expect(refused.status).toBe(403);
    expect(refused.headers['WWW-Authenticate']).toBe('Bearer realm="SCIM", error="insufficient_scope", scope="scim:write"');
    expect(refused.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
    expect(refused.body.detail).toContain('scim:write');
    expect((await call(scim, post('/Users', user('bjensen'), { headers: bearer('writer') }))).status).toBe(201);
    // A token without scopes (a static token) is the policy's to decide: this one lets it through.
    expect((await call(scim, post('/Users', user('static'), { headers: bearer('static') }))).status).toBe(201);
    expect((await call(scim, { method: 'GET', path: '/Schemas', headers: bearer('reader') })).status).toBe(200);
  });

  it('checks the Bulk request, then each of its operations as what it does', async () => {
    const seen: AuthorizationEvent[] = [];
    const scim = server({ ...auth, authorize: policy(seen), bulk: {} });
    const bulk = {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'],
      Operations: [
        { method: 'POST', path: '/Users', bulkId: 'a', data: user('a') },
        { method: 'DELETE', path: '/Users/bulkId:a' },
      ],
    };
    const refusedBulk = await call(scim, post('/Bulk', bulk, { headers: bearer('writer') }));
    expect(refusedBulk.status).toBe(403);
    expect(refusedBulk.headers['WWW-Authenticate']).toContain('scope="scim:bulk"');
    const answered = await call(scim, post('/Bulk', bulk, { headers: bearer('all') }));
    expect(answered.status).toBe(200);
    expect(answered.body.Operations.map((operation: { status: string }) => operation.status)).toEqual(['201', '204']);
    expect(seen.filter((event) => event.inBulk).map((event) => `${event.access}:${event.operation}`)).toEqual(['write:create', 'write:delete']);
  });

  it('a Bulk operation the scopes do not cover fails alone, with a 403 in its result', async () => {
    const scim = server({
      ...auth,
      bulk: {},
      resourceTypes: [userResourceType, groupResourceType],
      authorize: (event) => (event.resourceType === 'Group' && event.access === 'write' ? { ok: false, scope: 'groups:write' } : undefined),
    });
    const bulk = {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'],
      Operations: [
        { method: 'POST', path: '/Users', bulkId: 'a', data: user('a') },
        { method: 'POST', path: '/Groups', bulkId: 'g', data: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'g' } },
      ],
    };
    const answered = await call(scim, post('/Bulk', bulk, { headers: bearer('all') }));
    expect(answered.body.Operations.map((operation: { status: string }) => operation.status)).toEqual(['201', '403']);
    expect(answered.body.Operations[1].response.detail).toContain('groups:write');
  });

  it('a hook answering nonsense is a 500, reported', async () => {
    const logged: unknown[] = [];
    const scim = server({ ...auth, authorize: () => ({ ok: false, scope: 'bad"quote' }) as never, logger: { log: (record) => void logged.push(record) } });
    expect((await call(scim, { method: 'GET', path: '/Users', headers: bearer('all') })).status).toBe(500);
    expect(logged.some((record) => (record as { level: string }).level === 'error')).toBe(true);
  });
});

describe('admit: the pre-body stage', () => {
  it('is undefined without the hook', async () => {
    expect(await server().admit({ method: 'POST', path: '/Users' })).toBeUndefined();
  });

  it('sees the authenticated caller, tenant and endpoint before any body, and its refusal is answered as is', async () => {
    const seen: AdmissionEvent[] = [];
    const scim = server({
      ...auth,
      admit: (event) => {
        seen.push(event);
        return event.principal === 'reader' ? { status: 429, detail: 'Too many requests', headers: { 'Retry-After': '3' } } : undefined;
      },
    });
    const head: ScimRequest = { method: 'POST', path: '/Users', headers: { ...bearer('reader'), 'content-length': '99' } };
    const refused = await scim.admit(head);
    expect(refused?.status).toBe(429);
    expect(refused?.headers['Retry-After']).toBe('3');
    expect(refused?.headers['Connection']).toBe('close');
    expect(refused?.headers['X-Request-Id']).toMatch(/./);
    expect(JSON.parse(refused?.body ?? '{}')).toMatchObject({ status: '429', detail: 'Too many requests' });
    expect(seen[0]).toMatchObject({ authenticated: true, principal: 'reader', tenant: 'acme', scopes: ['scim:read'], operation: 'create', resourceType: 'User' });
    expect(await scim.admit({ method: 'GET', path: '/Users', headers: bearer('writer') })).toBeUndefined();
    // Refused credentials are left to handle(), which answers the 401.
    expect(await scim.admit({ method: 'GET', path: '/Users', headers: bearer('nope') })).toBeUndefined();
    expect(seen).toHaveLength(2);
  });

  it('a throwing or malformed hook is a 500, never a rejection', async () => {
    const throwing = server({ admit: () => { throw new Error('boom'); } });
    expect((await throwing.admit({ method: 'GET', path: '/Users' }))?.status).toBe(500);
    const malformed = server({ admit: () => ({ status: 200, detail: 'fine' }) });
    expect((await malformed.admit({ method: 'GET', path: '/Users' }))?.status).toBe(500);
  });
});
