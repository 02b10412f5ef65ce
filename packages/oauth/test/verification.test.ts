import { createServer, type Server } from 'node:http';
import { base64url, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, userResourceType, type ScimRequest } from '@scimkit/core';
import { createTokenVerifier, oauthAuthentication, revokeClient, scopePolicy } from '../src/index.js';
import { AUDIENCE, basic, form, ISSUER, json, oauthFixture } from './oauth-fixture.js';

const get = (path: string, token?: string): ScimRequest => ({ method: 'GET', path, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

async function issued(endpoint: Awaited<ReturnType<typeof oauthFixture>>['endpoint'], secret: string, scope?: string): Promise<string> {
  const response = await endpoint.handle(form({ grant_type: 'client_credentials', ...(scope === undefined ? {} : { scope }) }, { authorization: basic('entra', secret) }));
  return json(response).access_token as string;
}

describe('verification of access tokens', () => {
  let jwksServer: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (jwksServer === undefined ? resolve() : jwksServer.close(() => resolve())));
    jwksServer = undefined;
  });

  it('accepts its own tokens with tenant, principal and scopes, and refuses expired, wrong-audience, forged and revoked-client tokens', async () => {
    const { endpoint, keys, clients, secret } = await oauthFixture();
    const verifier = createTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, keys, clients });
    const token = await issued(endpoint, secret, 'scim:read');
    const ok = await verifier.verify(token);
    expect(ok).toEqual({ ok: true, token: { principal: { clientId: 'entra', issuer: ISSUER, subject: 'entra' }, tenant: 'acme', scopes: ['scim:read'], expiresAt: expect.any(Number) } });

    const current = await keys.current();
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims: Record<string, unknown>, key = current.privateKey) =>
      new SignJWT({ client_id: 'entra', scope: 'scim', ...claims }).setProtectedHeader({ alg: 'ES256', kid: current.kid }).setIssuer(ISSUER).setSubject('entra').sign(key);
    const stranger = (await generateKeyPair('ES256')).privateKey;
    const refused: [string, string, string][] = [
      ['expired', await sign({ aud: AUDIENCE, exp: now - 60 }), 'expired'],
      ['audience', await sign({ aud: 'https://other.example.com', exp: now + 60 }), 'aud'],
      ['forged', await sign({ aud: AUDIENCE, exp: now + 60 }, stranger), 'signature'],
      ['no exp', await sign({ aud: AUDIENCE }), 'exp'],
      ['garbage', 'abc.def.ghi', 'not a JWT'],
      ['alg none', `${base64url.encode(JSON.stringify({ alg: 'none', kid: current.kid }))}.${base64url.encode(JSON.stringify({ iss: ISSUER, aud: AUDIENCE, sub: 'entra', client_id: 'entra', exp: now + 60 }))}.`, 'algorithm'],
      ['HS256 keyed with the public key', await new SignJWT({ client_id: 'entra', scope: 'scim' }).setProtectedHeader({ alg: 'HS256', kid: current.kid }).setIssuer(ISSUER).setSubject('entra').setAudience(AUDIENCE).setExpirationTime(now + 60).sign(new TextEncoder().encode(JSON.stringify((await keys.jwks()).keys[0]))), 'algorithm'],
      ['foreign issuer', await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setIssuer('https://evil.example.com').setExpirationTime(now + 60).sign(stranger), 'issuer'],
    ];
    for (const [name, candidate, reason] of refused) {
      const outcome = await verifier.verify(candidate);
      expect(outcome.ok, name).toBe(false);
      expect(outcome.ok ? '' : outcome.reason, name).toContain(reason);
    }
    await revokeClient(clients, 'entra');
    expect(await verifier.verify(token)).toEqual({ ok: false, reason: 'The client of this access token has been revoked' });
  });

  it('with revocationCacheMs, an active client is not looked up again within that time', async () => {
    const { endpoint, keys, clients, secret } = await oauthFixture();
    let lookups = 0;
    const counted = { ...clients, get: (id: string) => (lookups++, clients.get(id)) };
    const verifier = createTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, keys, clients: counted, revocationCacheMs: 60_000 });
    const token = await issued(endpoint, secret);
    for (let i = 0; i < 5; i++) expect((await verifier.verify(token)).ok).toBe(true);
    expect(lookups).toBe(1);
  });

  it('accepts another issuer\'s JWTs through its JWKS URL, with the tenant and scopes from its claims', async () => {
    const pair = await generateKeyPair('RS256');
    const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'entra-1', alg: 'RS256' }] };
    let fetched = 0;
    jwksServer = createServer((_req, res) => {
      fetched++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(jwks));
    });
    await new Promise<void>((resolve) => jwksServer?.listen(0, '127.0.0.1', resolve));
    const address = jwksServer.address() as { port: number };
    const issuer = 'https://login.microsoftonline.com/tid-1/v2.0';
    const verifier = createTokenVerifier({ trusted: [{ issuer, audience: 'api://scim', jwksUrl: `http://127.0.0.1:${address.port}/keys` }] });
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ tid: 'tid-1', azp: 'entra-app', roles: ['scim'] }).setProtectedHeader({ alg: 'RS256', kid: 'entra-1' }).setIssuer(issuer).setAudience('api://scim').setSubject('sp-1').setExpirationTime(now + 300).sign(pair.privateKey);
    expect(await verifier.verify(token)).toEqual({ ok: true, token: { principal: { clientId: 'entra-app', issuer, subject: 'sp-1' }, tenant: 'tid-1', scopes: ['scim'], expiresAt: now + 300 } });
    expect(fetched).toBe(1);
    const wrongAudience = await new SignJWT({ tid: 'tid-1' }).setProtectedHeader({ alg: 'RS256', kid: 'entra-1' }).setIssuer(issuer).setAudience('api://other').setExpirationTime(now + 300).sign(pair.privateKey);
    expect((await verifier.verify(wrongAudience)).ok).toBe(false);
  });

  it('an unreachable JWKS URL is a refusal within its timeout, never a hang', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const pair = await generateKeyPair('RS256');
    const issuer = 'https://idp.example.com';
    const verifier = createTokenVerifier({ trusted: [{ issuer, audience: 'scim', jwksUrl: `http://127.0.0.1:${port}/keys`, jwksTimeoutMs: 500 }] });
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'RS256', kid: 'x' }).setIssuer(issuer).setAudience('scim').setSubject('c').setExpirationTime('5m').sign(pair.privateKey);
    const started = Date.now();
    const outcome = await verifier.verify(token);
    expect(outcome).toEqual({ ok: false, reason: expect.stringContaining('could not be fetched') });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('oauthAuthentication and scopePolicy on a SCIM server', () => {
  it('authenticates access tokens beside static tokens, advertises both schemes, and says why a token is refused', async () => {
    const { endpoint, keys, clients, secret } = await oauthFixture();
    const auth = oauthAuthentication({
      verifier: createTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, keys, clients }),
      tokens: [{ token: 'okta-static', principal: 'okta', tenant: 'acme' }],
      tokenEndpointUrl: 'https://scim.example.com/oauth/token',
    });
    const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), tenancy: {}, ...auth, ...scopePolicy(), logger: { log: () => undefined } });
    const readToken = await issued(endpoint, secret, 'scim:read');
    expect((await scim.handle(get('/Users', readToken))).status).toBe(200);
    expect((await scim.handle(get('/Users', 'okta-static'))).status).toBe(200);
    const write = await scim.handle({ method: 'POST', path: '/Users', headers: { authorization: `Bearer ${readToken}`, 'content-type': 'application/scim+json' }, body: '{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"a"}' });
    expect(write.status).toBe(403);
    expect(write.headers['WWW-Authenticate']).toBe('Bearer realm="SCIM", error="insufficient_scope", scope="scim:write"');
    const bad = await scim.handle(get('/Users', `${readToken.slice(0, -4)}AAAA`));
    expect(bad.status).toBe(401);
    expect(bad.headers['WWW-Authenticate']).toMatch(/^Bearer realm="SCIM", error="invalid_token", error_description="The access token signature is not valid"$/);
    const config = JSON.parse((await scim.handle(get('/ServiceProviderConfig'))).body ?? '{}');
    expect(config.authenticationSchemes).toEqual([
      expect.objectContaining({ type: 'oauth2', specUri: 'https://www.rfc-editor.org/info/rfc6749', documentationUri: 'https://scim.example.com/oauth/token', primary: true }),
      expect.objectContaining({ type: 'oauthbearertoken', specUri: 'https://www.rfc-editor.org/info/rfc6750' }),
    ]);
  });

  it('scopePolicy: scim allows everything, per-type scopes where configured, requireScopes refuses scope-less callers', () => {
    const { authorize } = scopePolicy({ resourceTypes: { Group: { write: ['scim:groups:write'] } } });
    const event = (access: 'read' | 'write' | 'bulk' | 'discovery', scopes?: string[], resourceType?: string) => ({ access, operation: 'x', inBulk: false, ...(scopes === undefined ? {} : { scopes }), ...(resourceType === undefined ? {} : { resourceType }) });
    expect(authorize(event('read', ['scim:read']))).toBeUndefined();
    expect(authorize(event('write', ['scim:read']))).toEqual({ ok: false, scope: 'scim:write' });
    expect(authorize(event('bulk', ['scim:write']))).toEqual({ ok: false, scope: 'scim:bulk' });
    expect(authorize(event('bulk', ['scim']))).toBeUndefined();
    expect(authorize(event('write', ['scim:write'], 'Group'))).toEqual({ ok: false, scope: 'scim:groups:write' });
    expect(authorize(event('write', ['scim:groups:write'], 'Group'))).toBeUndefined();
    expect(authorize(event('write', ['scim:write'], 'User'))).toBeUndefined();
    expect(authorize(event('discovery', []))).toBeUndefined();
    expect(authorize(event('write'))).toBeUndefined();
    expect(scopePolicy({ requireScopes: true }).authorize(event('read'))).toEqual({ ok: false, scope: 'scim:read' });
  });
});
