import { describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, userResourceType, type ScimServer } from '../../src/index.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

async function serverWith(unquotedFilterValues: boolean | undefined): Promise<ScimServer> {
  const server = createScimServer({
    resourceTypes: [userResourceType],
    store: createMemoryStore(),
    ...(unquotedFilterValues === undefined ? {} : { compatibility: { unquotedFilterValues } }),
  });
  for (const userName of ['OMalley', 'jsmith']) {
    const created = await server.handle({ method: 'POST', path: '/Users', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [USER], userName }) });
    expect(created.status).toBe(201);
  }
  return server;
}

async function search(server: ScimServer, filter: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await server.handle({ method: 'GET', path: '/Users', query: { filter } });
  return { status: response.status, body: JSON.parse(response.body ?? '{}') as Record<string, unknown> };
}

describe('compatibility.unquotedFilterValues (the Microsoft SCIM validator sends `userName sw O`)', () => {
  it('is off by default: a bare value is 400 invalidFilter, as RFC 7644 §3.4.2.2 requires', async () => {
    const { status, body } = await search(await serverWith(undefined), 'userName sw O');
    expect(status).toBe(400);
    expect(body.scimType).toBe('invalidFilter');
  });

  it('when on, reads bare values as strings and the filter matches', async () => {
    const server = await serverWith(true);
    const { status, body } = await search(server, 'userName sw O');
    expect(status).toBe(200);
    expect(body.totalResults).toBe(1);
    expect((body.Resources as { userName: string }[])[0]?.userName).toBe('OMalley');
    // quoted values keep working
    expect((await search(server, 'userName eq "jsmith"')).body.totalResults).toBe(1);
  });
});

describe('compatibility.serviceConfigurationPath (the Microsoft SCIM validator requests /serviceConfiguration)', () => {
  const serve = (compatibility?: 'entra' | { serviceConfigurationPath: boolean }, endpoint?: string) =>
    createScimServer({
      resourceTypes: [endpoint === undefined ? userResourceType : { ...userResourceType, name: 'Legacy', endpoint }],
      store: createMemoryStore(),
      ...(compatibility === undefined ? {} : { compatibility }),
    });

  it('is off by default: 404, RFC 7644 §4 names only /ServiceProviderConfig', async () => {
    expect((await serve().handle({ method: 'GET', path: '/serviceConfiguration' })).status).toBe(404);
  });

  it('when on (or with the entra profile), serves the same document as /ServiceProviderConfig, for GET only', async () => {
    for (const server of [serve({ serviceConfigurationPath: true }), serve('entra')]) {
      const alias = await server.handle({ method: 'GET', path: '/serviceConfiguration' });
      const real = await server.handle({ method: 'GET', path: '/ServiceProviderConfig' });
      expect(alias.status).toBe(200);
      expect(JSON.parse(alias.body ?? '')).toEqual(JSON.parse(real.body ?? ''));
      expect((await server.handle({ method: 'POST', path: '/serviceConfiguration', body: '{}' })).status).toBe(405);
    }
  });

  it('off, leaves the path to a resource type that owns it', async () => {
    const server = serve({ serviceConfigurationPath: false }, '/serviceConfiguration');
    const listed = await server.handle({ method: 'GET', path: '/serviceConfiguration' });
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body ?? '').schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
  });
});

describe('compatibility.valueFilterInAttributes (the Microsoft SCIM validator sends attributes=emails[type eq "work"])', () => {
  const serve = async (compatibility?: 'entra' | { valueFilterInAttributes: boolean }) => {
    const server = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), ...(compatibility === undefined ? {} : { compatibility }) });
    const created = await server.handle({
      method: 'POST',
      path: '/Users',
      headers: { 'content-type': 'application/scim+json' },
      body: JSON.stringify({ schemas: [USER], userName: 'bjensen', displayName: 'Babs', emails: [{ value: 'b@example.com', type: 'work' }] }),
    });
    return { server, id: JSON.parse(created.body ?? '{}').id as string };
  };
  const attributes = 'emails[type eq "work"],userName';

  it('is off by default: 400 invalidPath, RFC 7644 §3.4.2.5 lists attribute names only', async () => {
    const { server, id } = await serve();
    const reply = await server.handle({ method: 'GET', path: `/Users/${id}`, query: { attributes } });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body ?? '').scimType).toBe('invalidPath');
  });

  it('when on (or with the entra profile), reads each value filter as the attribute it filters, on reads and lists', async () => {
    for (const compatibility of [{ valueFilterInAttributes: true }, 'entra' as const]) {
      const { server, id } = await serve(compatibility);
      const read = JSON.parse((await server.handle({ method: 'GET', path: `/Users/${id}`, query: { attributes } })).body ?? '');
      expect(read.emails).toEqual([{ value: 'b@example.com', type: 'work' }]);
      expect(read.userName).toBe('bjensen');
      expect(read.displayName).toBeUndefined();
      const listed = JSON.parse((await server.handle({ method: 'GET', path: '/Users', query: { attributes: 'emails[value co "]"]' } })).body ?? '');
      expect(listed.Resources[0].emails).toEqual([{ value: 'b@example.com', type: 'work' }]);
      expect(listed.Resources[0].displayName).toBeUndefined();
    }
  });
});

describe('compatibility.omitPaginationConfig (Python scim2-models 0.6 refuses RFC 9865 pagination in /ServiceProviderConfig)', () => {
  const serve = (compatibility?: 'entra' | 'strict' | { omitPaginationConfig: boolean }) =>
    createScimServer({
      resourceTypes: [userResourceType],
      store: createMemoryStore(),
      pagination: {},
      discovery: { metaSchemas: true },
      ...(compatibility === undefined ? {} : { compatibility }),
    });
  const document = async (server: ReturnType<typeof serve>, path: string) => JSON.parse((await server.handle({ method: 'GET', path })).body ?? '') as Record<string, unknown>;
  const metaSchemaNames = async (server: ReturnType<typeof serve>) =>
    ((await document(server, '/Schemas/urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'))['attributes'] as { name: string }[]).map((attribute) => attribute.name);

  it('is off by default and in every profile: the document advertises cursors (RFC 9865 §4)', async () => {
    for (const server of [serve(), serve('entra'), serve('strict')]) {
      expect((await document(server, '/ServiceProviderConfig'))['pagination']).toMatchObject({ cursor: true, index: true });
      expect(await metaSchemaNames(server)).toContain('pagination');
    }
  });

  it('when on, leaves pagination out of the document and its meta-schema, and cursor paging still answers', async () => {
    const server = serve({ omitPaginationConfig: true });
    const config = await document(server, '/ServiceProviderConfig');
    expect(config['pagination']).toBeUndefined();
    expect(config).toMatchObject({ filter: { supported: true }, sort: { supported: true }, etag: { supported: true } });
    expect(await metaSchemaNames(server)).not.toContain('pagination');
    const page = await server.handle({ method: 'GET', path: '/Users', query: { cursor: '', count: '1' } });
    expect(page.status).toBe(200);
  });
});
