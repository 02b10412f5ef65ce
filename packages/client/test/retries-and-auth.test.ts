import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createScimServer } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createFullServerConfig, createFullServerOAuth, fullServerListener } from '../../../examples/full-server/src/index.js';
import { clientCredentialsAuth, createScimClient, retryAfterMs, ScimResponseError, ScimTimeoutError } from '../src/index.js';
import { listen, serveFullServer, type Served } from './support/serve.js';

const open: Served[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((served) => served.close()));
});

/** A server that answers the statuses given in turn (then 200 with a ListResponse), recording what it got. */
async function scripted(answers: { status: number; headers?: Record<string, string> }[]) {
  const seen: { at: number; authorization: string | undefined; tenant: string | undefined; url: string }[] = [];
  const served = await listen((req, res) => {
    seen.push({ at: Date.now(), authorization: req.headers.authorization, tenant: req.headers['x-tenant'] as string | undefined, url: req.url ?? '' });
    const answer = answers.shift() ?? { status: 200 };
    res.writeHead(answer.status, { 'content-type': 'application/scim+json', ...answer.headers });
    res.end(answer.status === 200 ? JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 0, Resources: [] }) : JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: String(answer.status), detail: 'busy' }));
  });
  open.push(served);
  return { url: served.url, seen };
}

describe('retries (RFC 6585 §4, RFC 9110 §10.2.3)', () => {
  it('retries 429 and 503, waiting what Retry-After asks', async () => {
    const server = await scripted([{ status: 429, headers: { 'retry-after': '1' } }, { status: 503, headers: { 'retry-after': '0' } }]);
    const client = createScimClient({ baseUrl: server.url, retry: { retries: 2 } });
    const started = Date.now();
    expect(await client.users.list({ paging: 'index' }).toArray()).toEqual([]);
    expect(server.seen).toHaveLength(3);
    expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops after the bounded number of retries and throws the last answer', async () => {
    const server = await scripted([{ status: 503, headers: { 'retry-after': '0' } }, { status: 503, headers: { 'retry-after': '0' } }, { status: 503, headers: { 'retry-after': '0' } }]);
    const error = await createScimClient({ baseUrl: server.url, retry: { retries: 1 } }).users.list({ paging: 'index' }).toArray().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScimResponseError);
    expect((error as ScimResponseError).status).toBe(503);
    expect(server.seen).toHaveLength(2);
  });

  it('does not wait longer than maxDelayMs: a Retry-After beyond it is answered at once', async () => {
    const server = await scripted([{ status: 429, headers: { 'retry-after': '120' } }]);
    const started = Date.now();
    const error = await createScimClient({ baseUrl: server.url, retry: { maxDelayMs: 1000 } }).users.list({ paging: 'index' }).toArray().catch((e: unknown) => e);
    expect((error as ScimResponseError).status).toBe(429);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(server.seen).toHaveLength(1);
  });

  it('reads Retry-After as seconds or an HTTP-date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});

describe('timeouts and cancellation', () => {
  it('gives up after timeoutMs with a ScimTimeoutError', async () => {
    const served = await listen(() => undefined); // never answers
    open.push(served);
    const started = Date.now();
    const error = await createScimClient({ baseUrl: served.url, timeoutMs: 200 }).users.get('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScimTimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("aborts with the caller's signal", async () => {
    const served = await listen(() => undefined);
    open.push(served);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by caller')), 50);
    const error = await createScimClient({ baseUrl: served.url }).users.get('x', { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('cancelled by caller');
  });
});

describe('authentication', () => {
  it('client credentials (RFC 6749 §4.4): one token for concurrent requests, a new one after a 401', async () => {
    let issued = 0;
    const tokenRequests: { authorization: string | undefined; body: string }[] = [];
    const tokenServer = await listen((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        tokenRequests.push({ authorization: req.headers.authorization, body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: `token-${++issued}`, token_type: 'Bearer', expires_in: 3600 }));
      });
    });
    open.push(tokenServer);
    // The SCIM server accepts only the second token: the first is "revoked".
    const scim = await serveFullServer({ token: 'token-2' });
    open.push(scim);
    const auth = clientCredentialsAuth({ tokenUrl: `${tokenServer.url}/token`, clientId: 'my client', clientSecret: 's3cr:t', scope: 'scim.read scim.write' });
    const client = createScimClient({ baseUrl: scim.url, auth });
    const [config] = await Promise.all([client.serviceProviderConfig(), client.users.list({ paging: 'index' }).toArray(), client.groups.list({ paging: 'index' }).toArray()]);
    expect(config.etag?.supported).toBe(true);
    expect(issued).toBe(2);
    expect(tokenRequests[0]!.authorization).toBe(`Basic ${Buffer.from('my+client:s3cr%3At').toString('base64')}`);
    expect(new URLSearchParams(tokenRequests[0]!.body).get('grant_type')).toBe('client_credentials');
    expect(new URLSearchParams(tokenRequests[0]!.body).get('scope')).toBe('scim.read scim.write');
  });

  it("client credentials against scimkit's own token endpoint (@scimkit/oauth: the full server with SCIM_CLIENTS)", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    open.push({ url: origin, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) });
    const oauth = await createFullServerOAuth({ clients: [{ clientId: 'pusher', secret: 'a-secret-of-24-characters' }], issuer: origin });
    const scim = createScimServer(createFullServerConfig({ oauth: { verifier: oauth.verifier, tokenEndpointUrl: oauth.tokenEndpointUrl } }));
    server.on('request', fullServerListener(scim, undefined, createNodeHandler(oauth.tokens)));

    const client = createScimClient({ baseUrl: `${origin}/scim/v2`, auth: clientCredentialsAuth({ tokenUrl: oauth.tokenEndpointUrl, clientId: 'pusher', clientSecret: 'a-secret-of-24-characters' }) });
    const created = await client.users.create({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'oauth.user' });
    expect((await client.users.get(created.id!)).userName).toBe('oauth.user');
    // A wrong secret: the token endpoint's OAuth error, said as it is (RFC 6749 §5.2).
    const refused = createScimClient({ baseUrl: `${origin}/scim/v2`, auth: clientCredentialsAuth({ tokenUrl: oauth.tokenEndpointUrl, clientId: 'pusher', clientSecret: 'not-the-secret-of-pusher' }) });
    expect(((await refused.users.get(created.id!).catch((e: unknown) => e)) as Error).message).toMatch(/answered 401: invalid_client/);
  });

  it('a static token and extra headers go on every request', async () => {
    const server = await scripted([]);
    const client = createScimClient({ baseUrl: server.url, auth: 'abc', headers: { 'X-Tenant': 'acme' } });
    await client.users.list({ paging: 'index' }).toArray();
    await client.groups.get('g1', { headers: { 'X-Tenant': 'globex' } }).catch(() => undefined);
    expect(server.seen.map((request) => [request.authorization, request.tenant])).toEqual([
      ['Bearer abc', 'acme'],
      ['Bearer abc', 'globex'], // a call's own header wins over the client's
    ]);
    expect(() => createScimClient({ baseUrl: server.url, auth: 'two\nlines' })).toThrow(TypeError);
  });
});
