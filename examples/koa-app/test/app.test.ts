import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/create-app.js';

const TOKEN = 'test-token';
const SCIM_JSON = 'application/scim+json';

describe('the Koa example app', () => {
  let server: Server;
  let origin: string;
  const { app, users } = createApp({ scimToken: TOKEN });

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

  const scim = (path: string, init: RequestInit = {}, token = TOKEN): Promise<Response> =>
    fetch(`${origin}/scim/v2${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': SCIM_JSON, ...(init.headers as Record<string, string>) },
    });

  it('serves its own routes beside SCIM', async () => {
    const response = await fetch(`${origin}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('refuses SCIM requests without the bearer token, with a SCIM 401', async () => {
    const missing = await fetch(`${origin}/scim/v2/Users`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await missing.json()).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '401' });
    expect((await scim('/Users', {}, 'wrong-token')).status).toBe(401);
  });

  it('advertises the bearer scheme in /ServiceProviderConfig', async () => {
    const config = (await (await scim('/ServiceProviderConfig')).json()) as { authenticationSchemes: { type: string }[] };
    expect(config.authenticationSchemes.map((scheme) => scheme.type)).toEqual(['oauthbearertoken']);
  });

  it('mirrors users created, patched and deleted through SCIM into its own table', async () => {
    const created = await scim('/Users', {
      method: 'POST',
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'bjensen@example.com',
        name: { givenName: 'Barbara', familyName: 'Jensen' },
        emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(created.headers.get('location')).toBe(`${origin}/scim/v2/Users/${id}`);

    const mirrored = await (await fetch(`${origin}/app/users`)).json();
    expect(mirrored).toEqual([{ id, userName: 'bjensen@example.com', displayName: 'Barbara Jensen', email: 'bjensen@example.com', active: true, plan: 'free' }]);

    const patched = await scim(`/Users/${id}`, {
      method: 'PATCH',
      headers: { 'If-Match': created.headers.get('etag') ?? '' },
      body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] }),
    });
    expect(patched.status).toBe(200);
    expect(users.get(id)?.active).toBe(false);

    expect((await scim(`/Users/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await (await fetch(`${origin}/app/users`)).json()).toEqual([]);
  });

  it('serves its own schema extension: advertised, stored, mirrored, and unique where it says so', async () => {
    const EXTENSION = 'urn:example:params:scim:schemas:extension:app:2.0:User';
    const schema = (await (await scim(`/Schemas/${EXTENSION}`)).json()) as { attributes: { name: string; uniqueness: string }[] };
    expect(schema.attributes.map((attribute) => [attribute.name, attribute.uniqueness])).toEqual([
      ['plan', 'none'],
      ['seat', 'server'],
    ]);

    const user = (userName: string) => ({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', EXTENSION], userName, [EXTENSION]: { plan: 'team', seat: 7 } });
    const created = await scim('/Users', { method: 'POST', body: JSON.stringify(user('ann')) });
    expect(created.status).toBe(201);
    const body = (await created.json()) as Record<string, unknown>;
    expect(body[EXTENSION]).toEqual({ plan: 'team', seat: 7 });
    expect(users.get(String(body['id']))?.plan).toBe('team');

    const sameSeat = await scim('/Users', { method: 'POST', body: JSON.stringify(user('bob')) });
    expect(sameSeat.status).toBe(409);
    expect(await sameSeat.json()).toMatchObject({ scimType: 'uniqueness' });
  });

  it('answers malformed JSON with a SCIM invalidSyntax error', async () => {
    const response = await scim('/Users', { method: 'POST', body: '{"userName":' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: '400', scimType: 'invalidSyntax' });
  });
});
