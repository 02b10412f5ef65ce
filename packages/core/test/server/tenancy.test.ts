import { describe, expect, it } from 'vitest';
import { bearerToken, groupResourceType, URN, userResourceType, type ChangeEvent, type ScimLogRecord, type ScimRequest, type TenantConfig } from '../../src/index.js';
import { call, post, server, user } from './helpers.js';
import { recordingStore } from './recording-store.js';

const auth = bearerToken({
  tokens: [
    { token: 'acme-token', principal: 'acme-idp', tenant: 'acme' },
    { token: 'globex-token', principal: 'globex-idp', tenant: 'globex' },
  ],
});
const as = (token: string, request: ScimRequest): ScimRequest => ({ ...request, headers: { 'content-type': 'application/scim+json', ...request.headers, authorization: `Bearer ${token}` } });
const patchTitle = (value: string) => JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'title', value }] });

describe('tenant from authenticate', () => {
  it('every store call and change event of a request carries the tenant it authenticated for', async () => {
    const { store, calls } = recordingStore();
    const changes: ChangeEvent[] = [];
    const target = server({ ...auth, store, onChange: (event) => void changes.push(event) });
    const id = (await call(target, as('acme-token', post('/Users', user('bjensen'))))).body['id'] as string;
    await call(target, as('acme-token', { method: 'PATCH', path: `/Users/${id}`, body: patchTitle('t') }));
    await call(target, as('acme-token', { method: 'PUT', path: `/Users/${id}`, body: JSON.stringify(user('bjensen')) }));
    await call(target, as('acme-token', { method: 'GET', path: `/Users/${id}` }));
    await call(target, as('acme-token', { method: 'GET', path: '/Users', query: { filter: 'userName eq "bjensen"' } }));
    await call(target, as('acme-token', post('/.search', {})));
    await call(target, as('acme-token', { method: 'DELETE', path: `/Users/${id}` }));
    expect(new Set(calls.map((entry) => entry.method))).toEqual(new Set(['create', 'get', 'replace', 'query', 'delete']));
    for (const entry of calls) expect(entry.ctx?.tenant, entry.method).toBe('acme');
    expect(changes.map((event) => [event.operation, event.tenant, event.principal])).toEqual([
      ['create', 'acme', 'acme-idp'],
      ['patch', 'acme', 'acme-idp'],
      ['replace', 'acme', 'acme-idp'],
      ['delete', 'acme', 'acme-idp'],
    ]);
  });

  it('tenants never see each other: ids, userName uniqueness, filters, root search', async () => {
    const { store } = recordingStore();
    const target = server({ ...auth, store });
    const acme = (await call(target, as('acme-token', post('/Users', user('bjensen'))))).body['id'] as string;
    const globex = await call(target, as('globex-token', post('/Users', user('bjensen'))));
    expect(globex.status).toBe(201);
    expect((await call(target, as('acme-token', post('/Users', user('BJensen'))))).status).toBe(409);
    expect((await call(target, as('globex-token', { method: 'GET', path: `/Users/${acme}` }))).status).toBe(404);
    expect((await call(target, as('globex-token', { method: 'PATCH', path: `/Users/${acme}`, body: patchTitle('x') }))).status).toBe(404);
    expect((await call(target, as('globex-token', { method: 'DELETE', path: `/Users/${acme}` }))).status).toBe(404);
    const listed = await call(target, as('globex-token', { method: 'GET', path: '/Users', query: { filter: 'userName eq "bjensen"' } }));
    expect(listed.body['Resources'].map((resource: { id: string }) => resource.id)).toEqual([globex.body['id']]);
    const searched = await call(target, as('acme-token', post('/.search', {})));
    expect(searched.body['Resources'].map((resource: { id: string }) => resource.id)).toEqual([acme]);
    expect((await call(target, as('acme-token', { method: 'GET', path: `/Users/${acme}` }))).status).toBe(200);
  });

  it('a tenant that is not a name is a 500 reported (fail closed), never the default tenant', async () => {
    const errors: ScimLogRecord[] = [];
    for (const tenant of ['', 'x'.repeat(257), 'a\nb', 42]) {
      const target = server({ authenticate: () => ({ ok: true, tenant: tenant as string }), logger: { log: (record) => void (record.level === 'error' && errors.push(record)) } });
      expect((await call(target, { method: 'GET', path: '/Users' })).status).toBe(500);
    }
    expect(errors).toHaveLength(4);
  });
});

describe('Bulk in a tenant', () => {
  it('every operation of a BulkRequest acts for the caller tenant: creates, bulkId references, 404 for another tenant', async () => {
    const { store, calls } = recordingStore();
    const changes: ChangeEvent[] = [];
    const target = server({ ...auth, store, bulk: {}, resourceTypes: [userResourceType, groupResourceType], onChange: (event) => void changes.push(event) });
    const globexUser = (await call(target, as('globex-token', post('/Users', user('g1'))))).body['id'] as string;
    const reply = await call(
      target,
      as(
        'acme-token',
        post('/Bulk', {
          schemas: [URN.bulkRequest],
          Operations: [
            { method: 'POST', path: '/Users', bulkId: 'a', data: user('a1') },
            { method: 'POST', path: '/Groups', bulkId: 'g', data: { schemas: [URN.group], displayName: 'Team', members: [{ value: 'bulkId:a' }] } },
            { method: 'PATCH', path: `/Users/${globexUser}`, data: JSON.parse(patchTitle('stolen')) },
            { method: 'DELETE', path: `/Users/${globexUser}` },
          ],
        }),
      ),
    );
    expect(reply.status).toBe(200);
    expect(reply.body['Operations'].map((operation: { status: string }) => operation.status)).toEqual(['201', '201', '404', '404']);
    expect(calls.filter((entry) => entry.ctx?.tenant !== 'globex').every((entry) => entry.ctx?.tenant === 'acme')).toBe(true);
    expect(changes.filter((event) => event.tenant === 'acme').map((event) => event.resourceType)).toEqual(['User', 'Group']);
    const untouched = await call(target, as('globex-token', { method: 'GET', path: `/Users/${globexUser}` }));
    expect(untouched.status).toBe(200);
    expect(untouched.body['title']).toBeUndefined();
    expect((await call(target, as('globex-token', { method: 'GET', path: '/Groups' }))).body['totalResults']).toBe(0);
  });
});

describe('tenant from the URL (tenancy.path)', () => {
  const urlTenants = (extra = {}) => {
    const recorded = recordingStore();
    return { ...recorded, target: server({ store: recorded.store, tenancy: { path: '/{tenant}/scim/v2' }, ...extra }) };
  };

  it('serves /{tenant}/scim/v2/… with the tenant on store calls and in meta.location', async () => {
    const { target, calls } = urlTenants();
    const created = await call(target, post('/acme/scim/v2/Users', user('u1'), { baseUrl: 'https://saas.example/tenants' }));
    expect(created.status).toBe(201);
    expect(created.body['meta'].location).toBe(`https://saas.example/tenants/acme/scim/v2/Users/${created.body['id']}`);
    expect(created.headers['Location']).toBe(created.body['meta'].location);
    expect(calls.every((entry) => entry.ctx?.tenant === 'acme')).toBe(true);
    expect((await call(target, { method: 'GET', path: `/ACME/scim/v2/Users/${created.body['id']}` })).status).toBe(404);
    expect((await call(target, { method: 'GET', path: `/acme/SCIM/V2/Users/${created.body['id']}` })).status).toBe(200);
    expect((await call(target, { method: 'GET', path: `/globex/scim/v2/Users/${created.body['id']}` })).status).toBe(404);
    expect((await call(target, { method: 'GET', path: '/caf%C3%A9/scim/v2/Users' })).status).toBe(200);
    expect(calls.at(-1)?.ctx?.tenant).toBe('café');
    const config = await call(target, { method: 'GET', path: '/globex/scim/v2/ServiceProviderConfig', baseUrl: 'https://saas.example/tenants' });
    expect(config.body['meta'].location).toBe('https://saas.example/tenants/globex/scim/v2/ServiceProviderConfig');
  });

  it('a path that names no tenant is a 404 SCIM error', async () => {
    const { target } = urlTenants();
    for (const path of ['/', '/Users', '/acme/Users', '/acme/scim/v1/Users', '/%E0%A4%A/scim/v2/Users', `/${'x'.repeat(300)}/scim/v2/Users`, '/a%00b/scim/v2/Users']) {
      const reply = await call(target, { method: 'GET', path });
      expect(reply.status, path).toBe(404);
      expect(reply.body['schemas']).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
    }
  });

  it('authentication answers first: without credentials a path naming no tenant is a 401, not a 404', async () => {
    const { target } = urlTenants({ ...auth });
    expect((await call(target, { method: 'GET', path: '/Users' })).status).toBe(401);
    expect((await call(target, as('acme-token', { method: 'GET', path: '/Users' }))).status).toBe(404);
  });

  it('authenticate sees the URL tenant; a credential of another tenant is a 403', async () => {
    const seen: (string | undefined)[] = [];
    const { target } = urlTenants({
      authenticate: async (request: ScimRequest) => {
        seen.push(`${request.tenant} ${request.path}`);
        return auth.authenticate(request);
      },
    });
    expect((await call(target, as('acme-token', { method: 'GET', path: '/acme/scim/v2/Users' }))).status).toBe(200);
    const crossed = await call(target, as('acme-token', { method: 'GET', path: '/globex/scim/v2/Users' }));
    expect(crossed.status).toBe(403);
    expect(crossed.body['detail']).toBe('These credentials are not valid for this tenant');
    expect(seen).toEqual(['acme /Users', 'globex /Users']);
  });

  it('a tenant an adapter sets on the request is used like the URL one', async () => {
    const { store, calls } = recordingStore();
    const target = server({ store });
    expect((await call(target, { method: 'GET', path: '/Users', tenant: 'initech' })).status).toBe(200);
    expect(calls[0]?.ctx?.tenant).toBe('initech');
    expect((await call(target, { method: 'GET', path: '/Users', tenant: '' })).status).toBe(404);
  });

  it('refuses a malformed template at start-up', () => {
    for (const path of ['/scim/v2', '/{tenant}/{tenant}', '/{tenant}/x{y}', 42]) {
      expect(() => server({ tenancy: { path: path as string } })).toThrow(TypeError);
    }
  });
});

describe('per-tenant configuration (tenancy.configure)', () => {
  const EXTENSION = 'urn:example:params:scim:schemas:extension:acme:2.0:User';
  const acmeConfig: TenantConfig = {
    unknownAttributes: 'ignore',
    compatibility: { allowEmptyOperations: true },
    schemas: [{ id: EXTENSION, name: 'AcmeUser', attributes: [{ name: 'costCenter', type: 'string' }] }],
    resourceTypes: [{ id: 'User', name: 'User', endpoint: '/Users', schema: 'urn:ietf:params:scim:schemas:core:2.0:User', schemaExtensions: [{ schema: EXTENSION, required: false }] }],
  };

  it('each tenant gets its own schemas, unknown-attribute policy and tolerances over one shared store', async () => {
    const configured: string[] = [];
    const { store } = recordingStore();
    const target = server({
      ...auth,
      store,
      tenancy: {
        configure: async (tenant) => {
          configured.push(tenant);
          return tenant === 'acme' ? acmeConfig : undefined;
        },
      },
    });
    const body = user('cc', { [EXTENSION]: { costCenter: '42' }, shoeSize: 44 });
    const acme = await call(target, as('acme-token', post('/Users', body)));
    expect(acme.status).toBe(201);
    expect(acme.body[EXTENSION]).toEqual({ costCenter: '42' });
    expect(acme.body['shoeSize']).toBeUndefined();
    expect((await call(target, as('globex-token', post('/Users', body)))).status).toBe(400);
    const emptyPatch = JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [] });
    expect((await call(target, as('acme-token', { method: 'PATCH', path: `/Users/${acme.body['id']}`, body: emptyPatch }))).status).toBe(200);
    const schemas = await call(target, as('acme-token', { method: 'GET', path: '/Schemas' }));
    expect(schemas.body['Resources'].map((schema: { id: string }) => schema.id)).toContain(EXTENSION);
    const globexSchemas = await call(target, as('globex-token', { method: 'GET', path: '/Schemas' }));
    expect(globexSchemas.body['Resources'].map((schema: { id: string }) => schema.id)).not.toContain(EXTENSION);
    await call(target, as('acme-token', { method: 'GET', path: '/Users' }));
    expect(configured).toEqual(['acme', 'globex']);
  });

  it('resolves each tenant once while cached, in a bounded cache, and retries after a failure', async () => {
    const configured: string[] = [];
    let fail = true;
    const errors: ScimLogRecord[] = [];
    const target = server({
      authenticate: (request) => ({ ok: true, tenant: String(request.headers?.['x-tenant']) }),
      tenancy: {
        cacheSize: 2,
        configure: (tenant) => {
          configured.push(tenant);
          if (tenant === 'flaky' && fail) {
            fail = false;
            throw new Error('config service down');
          }
          return tenant === 'broken' ? { resourceTypes: [] } : undefined;
        },
      },
      logger: { log: (record) => void (record.level === 'error' && errors.push(record)) },
    });
    const get = (tenant: string) => call(target, { method: 'GET', path: '/Users', headers: { 'x-tenant': tenant } });
    await Promise.all([get('a'), get('a'), get('a')]);
    await get('b');
    await get('a');
    await get('c'); // evicts b, the least recently used
    await get('b');
    expect(configured).toEqual(['a', 'b', 'c', 'b']);
    expect((await get('flaky')).status).toBe(500);
    expect((await get('flaky')).status).toBe(200);
    expect((await get('broken')).status).toBe(500);
    expect(errors.map((record) => [record.tenant, (record.error as Error).message])).toEqual([
      ['flaky', 'config service down'],
      ['broken', 'createScimServer: resourceTypes must list at least one resource type'],
    ]);
  });

  it('refuses an invalid tenancy configuration at start-up', () => {
    expect(() => server({ tenancy: { cacheSize: 0 } })).toThrow(TypeError);
    expect(() => server({ tenancy: { configure: 'acme' as never } })).toThrow(TypeError);
  });
});

describe('one server per tenant', () => {
  it('stays possible and cheap: servers sharing one store, each bound to its tenant by its own authenticate', async () => {
    const { store, calls } = recordingStore();
    const perTenant = (tenant: string) => server({ store, authenticate: () => ({ ok: true, tenant }) });
    const acme = perTenant('acme');
    const globex = perTenant('globex');
    const id = (await call(acme, post('/Users', user('shared-name')))).body['id'] as string;
    expect((await call(globex, post('/Users', user('shared-name')))).status).toBe(201);
    expect((await call(globex, { method: 'GET', path: `/Users/${id}` })).status).toBe(404);
    expect(new Set(calls.map((entry) => entry.ctx?.tenant))).toEqual(new Set(['acme', 'globex']));
  });
});
