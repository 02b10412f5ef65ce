import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createScimServer } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createFullServerConfig, type FullServerOptions } from '../src/index.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

let running: Server | undefined;
afterEach(async () => {
  const server = running;
  running = undefined;
  if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function start(options: FullServerOptions = {}): Promise<string> {
  const server = createServer(createNodeHandler(createScimServer(createFullServerConfig(options)), { basePath: '/scim/v2' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running = server;
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/scim/v2`;
}

async function send(url: string, method: string, body?: unknown, token = 's3cret'): Promise<{ status: number; body: any; etag: string | null }> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/scim+json', authorization: `Bearer ${token}` },
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
    expect(removed.status).toBe(200);
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
});
