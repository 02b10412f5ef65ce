import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerToken, createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { createScimRouter } from '@scimkit/express';
import express from 'express';
import { createTenantsApp } from '../src/create-tenants-app.js';

const SCIM_JSON = 'application/scim+json';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** docs/concepts/multi-tenancy.md's worked example: two customers on one Express app, kept apart. */
describe('two tenants on one Express app', () => {
  let server: Server;
  let origin: string;
  const { app, usersOf } = createTenantsApp({
    tokens: [
      { tenant: 'acme', token: 'acme-2024' },
      { tenant: 'acme', token: 'acme-2025' }, // acme is rotating: both tokens work until 2024's is removed
      { tenant: 'globex', token: 'globex-2025' },
    ],
  });

  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const scim = (token: string, path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${origin}/scim/v2${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, 'Content-Type': SCIM_JSON } });
  const create = (token: string, userName: string) => scim(token, '/Users', { method: 'POST', body: JSON.stringify({ schemas: [USER], userName }) });

  it('each customer provisions its own users, even with the same userName', async () => {
    const acme = await create('acme-2025', 'jsmith');
    const globex = await create('globex-2025', 'jsmith');
    expect([acme.status, globex.status]).toEqual([201, 201]);
    expect((await create('acme-2024', 'JSMITH')).status).toBe(409);
    const acmeId = ((await acme.json()) as { id: string }).id;
    expect((await scim('globex-2025', `/Users/${acmeId}`)).status).toBe(404);
    expect((await scim('acme-2024', `/Users/${acmeId}`)).status).toBe(200);
    const listed = (await (await scim('globex-2025', '/Users')).json()) as { totalResults: number };
    expect(listed.totalResults).toBe(1);
  });

  it("each customer's changes reach that customer's table only", async () => {
    await create('globex-2025', 'only-globex');
    expect(usersOf('globex').list().map((user) => user.userName)).toContain('only-globex');
    expect(usersOf('acme').list().map((user) => user.userName)).not.toContain('only-globex');
    const table = (await (await fetch(`${origin}/app/acme/users`)).json()) as { userName: string }[];
    expect(table.map((user) => user.userName)).toEqual(['jsmith']);
  });

  it('a token no customer has is a 401; after rotation only the listed tokens work', async () => {
    const refused = await scim('initech-2025', '/Users');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="SCIM", error="invalid_token"');
  });
});

/** The URL names the tenant: `tenancy.path` with the router mounted above the tenant segment. */
describe('tenants in the URL on Express (/tenants/{tenant}/scim/v2)', () => {
  let server: Server;
  let origin: string;
  const scim = createScimServer({
    resourceTypes: [userResourceType],
    store: createMemoryStore(),
    tenancy: { path: '/{tenant}/scim/v2' },
    // Each customer's token is only good on its own URL: a token of acme on globex's URL is a 403.
    ...bearerToken({ tokens: [{ token: 'acme-url-token', tenant: 'acme' }, { token: 'globex-url-token', tenant: 'globex' }] }),
  });
  const app = express();
  app.use('/tenants', createScimRouter(scim));

  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const at = (tenant: string, token: string, path: string, init: RequestInit = {}) =>
    fetch(`${origin}/tenants/${tenant}/scim/v2${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, 'Content-Type': SCIM_JSON } });

  it('serves each tenant under its own URL, with meta.location under it, and refuses a token on another tenant URL', async () => {
    const created = await at('acme', 'acme-url-token', '/Users', { method: 'POST', body: JSON.stringify({ schemas: [USER], userName: 'u' }) });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { id: string; meta: { location: string } };
    expect(body.meta.location).toBe(`${origin}/tenants/acme/scim/v2/Users/${body.id}`);
    expect((await at('acme', 'acme-url-token', `/Users/${body.id}`)).status).toBe(200);
    expect((await at('globex', 'acme-url-token', `/Users/${body.id}`)).status).toBe(403);
    expect((await at('globex', 'globex-url-token', `/Users/${body.id}`)).status).toBe(404);
  });
});
