import { SignJWT, type CryptoKey } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { JWT_BEARER_ASSERTION, revokeClient } from '@scimkit/oauth';
import { rawExchange } from '../../adapter-support/raw-exchange.js';
import { scimClient, type ScimReply } from '../support/scim-client.js';
import { AUDIENCE, createOAuthService, ISSUER } from './oauth-service.js';
import { ADAPTERS_WITH_TOKEN_ENDPOINT, type ServedPair } from './serve-with-token-endpoint.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

async function tokenRequest(origin: string, params: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(`${origin}/oauth/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(params).toString() });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

function clientAssertion(privateKey: CryptoKey, aud: string, jti = globalThis.crypto.randomUUID()): Promise<string> {
  return new SignJWT({ jti }).setProtectedHeader({ alg: 'RS256', kid: 'okta-1' }).setIssuer('okta-jwt').setSubject('okta-jwt').setAudience(aud).setIssuedAt().setExpirationTime('1m').sign(privateKey);
}

function expectInvalidToken(reply: ScimReply, reason: string): void {
  expect(reply.status).toBe(401);
  expect(reply.body.schemas).toEqual([ERROR]);
  expect(reply.headers.get('www-authenticate')).toMatch(new RegExp(`^Bearer realm="SCIM", error="invalid_token", error_description="[^"]*${reason}`));
}

function expectInsufficientScope(reply: ScimReply, scope: string): void {
  expect(reply.status).toBe(403);
  expect(reply.body.schemas).toEqual([ERROR]);
  expect(reply.headers.get('www-authenticate')).toBe(`Bearer realm="SCIM", error="insufficient_scope", scope="${scope}"`);
}

describe.each(ADAPTERS_WITH_TOKEN_ENDPOINT)('OAuth over %s', (_name, serve) => {
  let served: ServedPair | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it('a token obtained with a secret and one with a private-key JWT both work on /scim/v2, each for its client\'s tenant', async () => {
    const service = await createOAuthService();
    served = await serve(service.scim, service.tokens);
    const bySecret = await tokenRequest(served.origin, { grant_type: 'client_credentials' }, { Authorization: basic('entra', service.secret) });
    expect(bySecret.status).toBe(200);
    expect(bySecret.headers.get('cache-control')).toBe('no-store');
    expect(bySecret.body).toMatchObject({ token_type: 'Bearer', scope: 'scim', expires_in: 600 });
    const acme = scimClient(`${served.origin}/scim/v2`, { Authorization: `Bearer ${bySecret.body.access_token}` });
    expect((await acme.post('/Users', { schemas: [USER], userName: 'bjensen' })).status).toBe(201);
    expect((await acme.get('/Users')).body.totalResults).toBe(1);

    const signed = await clientAssertion(service.privateKey, `${served.origin}/oauth/token`);
    const byKey = await tokenRequest(served.origin, { grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: signed, scope: 'scim:read' });
    expect(byKey.status).toBe(200);
    const globex = scimClient(`${served.origin}/scim/v2`, { Authorization: `Bearer ${byKey.body.access_token}` });
    // Another tenant: acme's user is not there.
    expect((await globex.get('/Users')).body.totalResults).toBe(0);
    // The same assertion again is a replay.
    const replayed = await tokenRequest(served.origin, { grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: signed });
    expect(replayed.status).toBe(400);
    expect(replayed.body.error).toBe('invalid_client');

    // The static token keeps working beside the access tokens; /ServiceProviderConfig advertises both schemes.
    const okta = scimClient(`${served.origin}/scim/v2`, { Authorization: 'Bearer static-okta-token' });
    expect((await okta.get('/Users')).body.totalResults).toBe(1);
    const config = await scimClient(`${served.origin}/scim/v2`).get('/ServiceProviderConfig');
    expect(config.body.authenticationSchemes.map((scheme: { type: string }) => scheme.type)).toEqual(['oauth2', 'oauthbearertoken']);
    const jwks = await fetch(`${served.origin}/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    expect(((await jwks.json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid)).toEqual([(await service.keys.current()).kid]);
  });

  it('refuses expired, wrong-audience and forged tokens (401 invalid_token saying why), and a revoked client\'s token and token requests', async () => {
    const service = await createOAuthService();
    served = await serve(service.scim, service.tokens);
    const key = await service.keys.current();
    const now = Math.floor(Date.now() / 1000);
    const sign = (aud: string, exp: number, privateKey = key.privateKey) =>
      new SignJWT({ client_id: 'entra', tenant: 'acme', scope: 'scim' }).setProtectedHeader({ alg: key.alg, kid: key.kid }).setIssuer(ISSUER).setSubject('entra').setAudience(aud).setExpirationTime(exp).sign(privateKey);
    const { privateKey: stranger } = await (await import('jose')).generateKeyPair('ES256');
    const at = (token: string) => scimClient(`${served?.origin}/scim/v2`, { Authorization: `Bearer ${token}` });
    expectInvalidToken(await at(await sign(AUDIENCE, now - 120)).get('/Users'), 'expired');
    expectInvalidToken(await at(await sign('https://other.example.com/scim/v2', now + 60)).get('/Users'), 'aud');
    expectInvalidToken(await at(await sign(AUDIENCE, now + 60, stranger)).get('/Users'), 'signature');

    const issued = await tokenRequest(served.origin, { grant_type: 'client_credentials', client_id: 'entra', client_secret: service.secret });
    const client = at(issued.body.access_token);
    expect((await client.get('/Users')).status).toBe(200);
    await revokeClient(service.clients, 'entra');
    expectInvalidToken(await client.get('/Users'), 'revoked');
    const again = await tokenRequest(served.origin, { grant_type: 'client_credentials' }, { Authorization: basic('entra', service.secret) });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('invalid_client');
    expect(again.headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  it('never writes a secret, an assertion or an access token into the logs', async () => {
    const service = await createOAuthService();
    served = await serve(service.scim, service.tokens);
    const signed = await clientAssertion(service.privateKey, ISSUER);
    const issued = await tokenRequest(served.origin, { grant_type: 'client_credentials' }, { Authorization: basic('entra', service.secret) });
    await tokenRequest(served.origin, { grant_type: 'client_credentials', client_id: 'entra', client_secret: `${service.secret}-wrong` });
    await tokenRequest(served.origin, { grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: signed });
    await tokenRequest(served.origin, { grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: signed });
    const client = scimClient(`${served.origin}/scim/v2`, { Authorization: `Bearer ${issued.body.access_token}` });
    await client.get('/Users');
    await scimClient(`${served.origin}/scim/v2`, { Authorization: `Bearer ${issued.body.access_token}x` }).get('/Users');
    const written = JSON.stringify(service.logs, (_key, value: unknown) => (value instanceof Error ? `${value.name}: ${value.message}` : value));
    expect(service.logs.length).toBeGreaterThanOrEqual(6);
    for (const secret of [service.secret, signed, signed.split('.')[2] as string, issued.body.access_token as string, (issued.body.access_token as string).split('.')[2] as string]) {
      expect(written).not.toContain(secret);
    }
  });

  it('checks scopes for every operation: read, write, Bulk and each Bulk operation', async () => {
    const service = await createOAuthService();
    served = await serve(service.scim, service.tokens);
    const origin = served.origin;
    const token = async (scope: string) => (await tokenRequest(origin, { grant_type: 'client_credentials', scope }, { Authorization: basic('entra', service.secret) })).body.access_token as string;
    const full = scimClient(`${origin}/scim/v2`, { Authorization: `Bearer ${await token('scim')}` });
    const created = await full.post('/Users', { schemas: [USER], userName: 'alice' });
    const id = created.body.id as string;
    const reader = scimClient(`${origin}/scim/v2`, { Authorization: `Bearer ${await token('scim:read')}` });
    const writer = scimClient(`${origin}/scim/v2`, { Authorization: `Bearer ${await token('scim:write')}` });
    const bulker = scimClient(`${origin}/scim/v2`, { Authorization: `Bearer ${await token('scim:bulk scim:read')}` });
    const patch = { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] };
    const search = { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'], filter: 'userName eq "alice"' };
    const bulk = { schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'], Operations: [{ method: 'POST', path: '/Users', bulkId: 'b', data: { schemas: [USER], userName: 'bob' } }] };

    // Reads: scim:read (and scim) yes, scim:write alone no.
    for (const [path, body] of [['/Users', undefined], [`/Users/${id}`, undefined], ['/Users/.search', search], ['/.search', search]] as const) {
      const read = (client: typeof reader) => (body === undefined ? client.get(path) : client.post(path, body));
      expect((await read(reader)).status, path).toBe(200);
      expect((await read(full)).status, path).toBe(200);
      expectInsufficientScope(await read(writer), 'scim:read');
    }
    // Writes: scim:write yes, scim:read no.
    expectInsufficientScope(await reader.post('/Users', { schemas: [USER], userName: 'carol' }), 'scim:write');
    expectInsufficientScope(await reader.put(`/Users/${id}`, { schemas: [USER], userName: 'alice' }), 'scim:write');
    expectInsufficientScope(await reader.patch(`/Users/${id}`, patch), 'scim:write');
    expectInsufficientScope(await reader.delete(`/Users/${id}`), 'scim:write');
    expect((await writer.post('/Users', { schemas: [USER], userName: 'carol' })).status).toBe(201);
    expect((await writer.put(`/Users/${id}`, { schemas: [USER], userName: 'alice' })).status).toBe(200);
    expect((await writer.patch(`/Users/${id}`, patch)).status).toBe(200);
    // Bulk: scim:bulk for the request, then each operation's own scope.
    expectInsufficientScope(await writer.post('/Bulk', bulk), 'scim:bulk');
    const partial = await bulker.post('/Bulk', bulk);
    expect(partial.status).toBe(200);
    expect(partial.body.Operations[0].status).toBe('403');
    expect(partial.body.Operations[0].response.detail).toContain('scim:write');
    expect((await full.post('/Bulk', bulk)).body.Operations[0].status).toBe('201');
    // Discovery needs no particular scope; nothing was written by a refused request.
    expect((await writer.get('/Schemas')).status).toBe(200);
    expect((await full.get('/Users', { query: { filter: 'userName eq "bob"' } })).body.totalResults).toBe(1);
    expect((await writer.delete(`/Users/${id}`)).status).toBe(204);
  });

  it('rate limit: a burst gets 429 with Retry-After and a SCIM body before any body is read or store called; honouring Retry-After lets the next request through', async () => {
    const service = await createOAuthService({ rateLimit: { perSecond: 3 } });
    served = await serve(service.scim, service.tokens);
    const client = scimClient(`${served.origin}/scim/v2`, { Authorization: 'Bearer static-okta-token' });
    const replies: ScimReply[] = [];
    for (let i = 0; i < 6; i++) replies.push(await client.get('/Users'));
    expect(replies.filter((reply) => reply.status === 200).length).toBe(3);
    const limited = replies.filter((reply) => reply.status === 429);
    expect(limited.length).toBe(3);
    const refused = limited[0] as ScimReply;
    expect(refused.body).toMatchObject({ schemas: [ERROR], status: '429' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    // While limited, a POST whose body never finishes arrives is refused at once, before its body is
    // read (no 408 after the body timeout), and the store is never called.
    const before = service.calls.count;
    const started = Date.now();
    const raw = await rawExchange(served.port, [
      'POST /scim/v2/Users HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer static-okta-token\r\nContent-Type: application/scim+json\r\nContent-Length: 100000\r\n\r\n{"schemas":',
    ], { settleMs: 5_000 });
    expect(raw).toMatch(/^HTTP\/1\.1 429 /);
    expect(raw.toLowerCase()).toContain('retry-after:');
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(service.calls.count).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await client.get('/Users')).status).toBe(200);
  });
});
