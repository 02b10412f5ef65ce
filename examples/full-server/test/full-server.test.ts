import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryStore, createScimServer } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createFullServerConfig, type FullServerOptions } from '../src/index.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

const running: Server[] = [];
afterEach(async () => {
  const servers = running.splice(0);
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

async function start(options: FullServerOptions = {}): Promise<string> {
  const server = createServer(createNodeHandler(createScimServer(createFullServerConfig(options)), { basePath: '/scim/v2' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/scim/v2`;
}

async function send(
  url: string,
  method: string,
  body?: unknown,
  token = 's3cret',
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; etag: string | null }> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/scim+json', authorization: `Bearer ${token}`, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text), etag: response.headers.get('etag') };
}

describe('full server', () => {
  it('needs the bearer token when one is configured, compared in constant time', async () => {
    const base = await start({ token: 's3cret' });
    expect((await send(`${base}/Users`, 'GET', undefined, 'wrong')).status).toBe(401);
    expect((await send(`${base}/Users`, 'GET', undefined, 's3cret-and-more')).status).toBe(401);
    expect((await send(`${base}/Users`, 'GET')).status).toBe(200);
    const config = await send(`${base}/ServiceProviderConfig`, 'GET');
    expect(config.body.authenticationSchemes[0].type).toBe('oauthbearertoken');
    expect(config.body.etag.supported).toBe(true);
  });

  it('serves Users with the Enterprise extension and Groups with membership, end to end', async () => {
    const base = await start({ token: 's3cret' });
    const types = await send(`${base}/ResourceTypes`, 'GET');
    expect(types.body.Resources.map((t: { name: string }) => t.name)).toEqual(['User', 'Group']);
    const alice = await send(`${base}/Users`, 'POST', { schemas: [USER, ENTERPRISE], userName: 'alice', [ENTERPRISE]: { employeeNumber: '7' } });
    expect(alice.status).toBe(201);
    const group = await send(`${base}/Groups`, 'POST', { schemas: [GROUP], displayName: 'Engineering', members: [{ value: alice.body.id }] });
    expect(group.status).toBe(201);
    expect(group.body.members).toEqual([{ value: alice.body.id, $ref: `${base}/Users/${alice.body.id}`, type: 'User', display: 'alice' }]);
    const read = await send(`${base}/Users/${alice.body.id}`, 'GET');
    expect(read.body.groups).toEqual([{ value: group.body.id, $ref: `${base}/Groups/${group.body.id}`, display: 'Engineering', type: 'direct' }]);
    expect(read.body[ENTERPRISE]).toEqual({ employeeNumber: '7' });
    const search = await send(`${base}/Groups/.search`, 'POST', { filter: `members.value eq "${alice.body.id}"`, excludedAttributes: ['members'] });
    expect(search.body.Resources).toEqual([expect.objectContaining({ id: group.body.id, displayName: 'Engineering' })]);
    expect(search.body.Resources[0].members).toBeUndefined();
    const removed = await send(`${base}/Groups/${group.body.id}`, 'PATCH', {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: alice.body.id }] }],
    });
    // PATCH answers 204 (RFC 7644 §3.5.2 allows it; Entra ID and its validator expect it), with the ETag.
    expect(removed.status).toBe(204);
    expect(removed.body).toBeUndefined();
    expect(removed.etag).toBe('W/"2"');
    expect((await send(`${base}/Users/${alice.body.id}`, 'GET')).body.groups).toBeUndefined();
  });

  it('refuses the reserved group name and names the resource in a 404', async () => {
    const base = await start();
    const reserved = await send(`${base}/Groups`, 'POST', { schemas: [GROUP], displayName: 'administrators' });
    expect(reserved.status).toBe(400);
    expect(reserved.body).toMatchObject({ scimType: 'invalidValue', detail: 'The group name "administrators" is reserved' });
    expect((await send(`${base}/Groups`, 'GET')).body.totalResults).toBe(0);
    const missing = await send(`${base}/Users/2819c223`, 'GET');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('Resource 2819c223 not found');
  });

  it('offers Bulk, cursor paging and the meta-schemas, and leaves /Me off', async () => {
    const base = await start({ token: 's3cret', cursorSecret: 'a-cursor-secret-of-at-least-32-characters' });
    const config = (await send(`${base}/ServiceProviderConfig`, 'GET')).body;
    expect(config.bulk).toMatchObject({ supported: true, maxOperations: 1000 });
    expect(config.patch.supported).toBe(true);
    const schemas = (await send(`${base}/Schemas`, 'GET')).body.Resources.map((s: { id: string }) => s.id);
    expect(schemas).toEqual(expect.arrayContaining(['urn:ietf:params:scim:schemas:core:2.0:Schema', 'urn:ietf:params:scim:schemas:core:2.0:ResourceType']));

    const bulk = await send(`${base}/Bulk`, 'POST', {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'],
      Operations: [
        { method: 'POST', path: '/Users', bulkId: 'u', data: { schemas: [USER], userName: 'bulk.user' } },
        { method: 'POST', path: '/Groups', bulkId: 'g', data: { schemas: [GROUP], displayName: 'Bulk', members: [{ value: 'bulkId:u' }] } },
      ],
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.Operations.map((o: { status: string }) => o.status)).toEqual(['201', '201']);
    const user = (await send(`${base}/Users?filter=userName eq "bulk.user"`, 'GET')).body.Resources[0];
    expect(user.groups).toEqual([expect.objectContaining({ display: 'Bulk', type: 'direct' })]);

    await send(`${base}/Users`, 'POST', { schemas: [USER], userName: 'second' });
    const first = await send(`${base}/Users?cursor&count=1`, 'GET');
    expect(first.body.Resources).toHaveLength(1);
    expect(typeof first.body.nextCursor).toBe('string');
    const next = await send(`${base}/Users?cursor=${encodeURIComponent(first.body.nextCursor)}&count=1`, 'GET');
    expect(next.body.Resources).toHaveLength(1);
    expect(next.body.Resources[0].id).not.toBe(first.body.Resources[0].id);

    // Without personal tokens no principal stands for a user: /Me is not offered (RFC 7644 §3.11).
    expect((await send(`${base}/Me`, 'GET')).status).toBe(501);
  });

  it('serves /Me for a personal token (the User it stands for) and 404 for the client token', async () => {
    const store = createMemoryStore();
    const setup = await start({ token: 's3cret', store });
    const alice = (await send(`${setup}/Users`, 'POST', { schemas: [USER], userName: 'alice', displayName: 'Alice' })).body;
    const base = await start({ token: 's3cret', store, userTokens: [{ token: 'alice-secret', userId: alice.id }] });
    const me = await send(`${base}/Me`, 'GET', undefined, 'alice-secret');
    expect(me.status).toBe(200);
    expect(me.body.userName).toBe('alice');
    const renamed = await send(`${base}/Me`, 'PATCH', { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'Alice B' }] }, 'alice-secret', { prefer: 'return=representation' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.displayName).toBe('Alice B');
    expect((await send(`${base}/Users/${alice.id}`, 'GET')).body.displayName).toBe('Alice B');
    expect((await send(`${base}/Me`, 'GET')).status).toBe(404);
  });

  it('answers PATCH with the resource when the client asks for it', async () => {
    const base = await start();
    const alice = await send(`${base}/Users`, 'POST', { schemas: [USER], userName: 'alice' });
    const patch = { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: 'False' }] };
    const full = await send(`${base}/Users/${alice.body.id}`, 'PATCH', patch, 's3cret', { prefer: 'return=representation' });
    expect(full.status).toBe(200);
    // The entra profile reads Entra ID's string boolean.
    expect(full.body.active).toBe(false);
    const strict = await start({ compatibility: 'strict', patchResponse: 'resource' });
    const bob = await send(`${strict}/Users`, 'POST', { schemas: [USER], userName: 'bob' });
    const refused = await send(`${strict}/Users/${bob.body.id}`, 'PATCH', patch);
    expect(refused.status).toBe(400);
  });
});
