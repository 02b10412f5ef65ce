import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createScimServer } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createFullServerConfig, createFullServerOAuth, parseClients } from '../src/index.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const running: Server[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** The full server as main.ts wires it with SCIM_CLIENTS, SCIM_TOKEN and SCIM_RATE_LIMIT. */
async function start(env: { clients: string; token?: string; rate?: number }): Promise<string> {
  const parsed = parseClients(env.clients);
  if (!parsed.ok) throw new Error(parsed.error);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push(server);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const oauth = await createFullServerOAuth({ clients: parsed.clients, issuer: origin });
  const scim = createScimServer(
    createFullServerConfig({
      ...(env.token === undefined ? {} : { token: env.token }),
      oauth: { verifier: oauth.verifier, tokenEndpointUrl: oauth.tokenEndpointUrl },
      ...(env.rate === undefined ? {} : { rateLimit: env.rate }),
    }),
  );
  const scimHandler = createNodeHandler(scim, { basePath: '/scim/v2' });
  const tokenHandler = createNodeHandler(oauth.tokens);
  server.on('request', (req, res) => scimHandler(req, res, () => tokenHandler(req, res)));
  return origin;
}

async function token(origin: string, id: string, secret: string, scope?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret, ...(scope === undefined ? {} : { scope }) }),
  });
  return { status: response.status, body: await response.json() };
}

const scim = (origin: string, bearer: string, method = 'GET', path = '/Users', body?: unknown) =>
  fetch(`${origin}/scim/v2${path}`, { method, headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/scim+json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

describe('full server with SCIM_CLIENTS, SCIM_TOKEN and SCIM_RATE_LIMIT', () => {
  it('parses SCIM_CLIENTS and refuses bad entries without echoing a secret', () => {
    expect(parseClients('entra:0123456789abcdef:acme,okta:fedcba9876543210')).toEqual({
      ok: true,
      clients: [
        { clientId: 'entra', secret: '0123456789abcdef', tenant: 'acme' },
        { clientId: 'okta', secret: 'fedcba9876543210' },
      ],
    });
    for (const bad of ['entra', 'entra:short', 'en tra:0123456789abcdef', 'a:0123456789abcdef:bad tenant', 'a:0123456789abcdef,a:0123456789abcdef', 'a:0123456789abcdef:t:x']) {
      const parsed = parseClients(bad);
      expect(parsed.ok, bad).toBe(false);
      if (!parsed.ok) expect(parsed.error).not.toContain('0123456789abcdef');
    }
  });

  it('serves POST /oauth/token beside /scim/v2 with scope scim (or scim:read when asked); SCIM_TOKEN keeps working; both schemes advertised', async () => {
    const origin = await start({ clients: 'entra:0123456789abcdef:acme', token: 'static-token' });
    const full = await token(origin, 'entra', '0123456789abcdef');
    expect(full.status).toBe(200);
    expect(full.body.scope).toBe('scim');
    expect((await scim(origin, full.body.access_token, 'POST', '/Users', { schemas: [USER], userName: 'bjensen' })).status).toBe(201);
    const read = await token(origin, 'entra', '0123456789abcdef', 'scim:read');
    expect(read.body.scope).toBe('scim:read');
    expect((await scim(origin, read.body.access_token)).status).toBe(200);
    const refused = await scim(origin, read.body.access_token, 'POST', '/Users', { schemas: [USER], userName: 'x' });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="scim:write"');
    expect((await token(origin, 'entra', 'wrong-secret-0000')).body.error).toBe('invalid_client');
    // The static token acts for the default tenant: acme's user is not there.
    const viaStatic = await scim(origin, 'static-token');
    expect(viaStatic.status).toBe(200);
    expect(((await viaStatic.json()) as { totalResults: number }).totalResults).toBe(0);
    const config = (await (await fetch(`${origin}/scim/v2/ServiceProviderConfig`)).json()) as { authenticationSchemes: { type: string; documentationUri?: string }[] };
    expect(config.authenticationSchemes).toEqual([expect.objectContaining({ type: 'oauth2', documentationUri: `${origin}/oauth/token` }), expect.objectContaining({ type: 'oauthbearertoken' })]);
    expect((await fetch(`${origin}/.well-known/jwks.json`)).status).toBe(200);
  });

  it('SCIM_RATE_LIMIT: requests per second per tenant (plus as many in a burst), then 429 with Retry-After', async () => {
    const origin = await start({ clients: 'entra:0123456789abcdef:acme', rate: 2 });
    const { body } = await token(origin, 'entra', '0123456789abcdef');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await scim(origin, body.access_token)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const limited = await scim(origin, body.access_token);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
