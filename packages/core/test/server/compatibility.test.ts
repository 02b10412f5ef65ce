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
