import { createScimServer, createMemoryStore, userResourceType } from '@scimkit/core';
import { generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { describe, expect, it } from 'vitest';
import { jwtAuthentication } from '../src/jwt-authentication.js';

const ISSUER = 'https://login.example.com/';
const AUDIENCE = 'https://saas.example.com/scim';

describe('jwtAuthentication (jose)', async () => {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const other = await generateKeyPair('ES256');
  const sign = (claims: Record<string, unknown>, options: { key?: CryptoKey; expires?: string; issuer?: string; audience?: string } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer(options.issuer ?? ISSUER)
      .setAudience(options.audience ?? AUDIENCE)
      .setSubject('entra-provisioning')
      .setIssuedAt()
      .setExpirationTime(options.expires ?? '5m')
      .sign(options.key ?? privateKey);
  const auth = jwtAuthentication({ key: publicKey, issuer: ISSUER, audience: AUDIENCE });
  const request = (token: string) => ({ method: 'GET', path: '/Users', headers: { authorization: `Bearer ${token}` } });

  it('accepts a valid token: the tenant from the tid claim, the principal from sub and azp', async () => {
    expect(await auth.authenticate(request(await sign({ tid: 'acme', azp: 'entra-app' })))).toEqual({
      ok: true,
      tenant: 'acme',
      principal: { subject: 'entra-provisioning', client: 'entra-app' },
    });
  });

  it('refuses expired, forged, foreign and tenant-less tokens with invalid_token', async () => {
    for (const token of [
      await sign({ tid: 'acme' }, { expires: '-1m' }),
      await sign({ tid: 'acme' }, { key: other.privateKey }),
      await sign({ tid: 'acme' }, { issuer: 'https://evil.example.com/' }),
      await sign({ tid: 'acme' }, { audience: 'https://another-app.example.com/' }),
      await sign({}),
      'not.a.jwt',
    ]) {
      expect(await auth.authenticate(request(token))).toEqual({ ok: false, detail: 'The bearer token is not valid', challenge: 'Bearer realm="SCIM", error="invalid_token"' });
    }
  });

  it('in a server, the token decides the tenant of the store calls', async () => {
    const store = createMemoryStore();
    const tenants: (string | undefined)[] = [];
    const server = createScimServer({ resourceTypes: [userResourceType], store, ...auth, onRequest: (event) => void tenants.push(event.tenant) });
    const ok = await server.handle(request(await sign({ tid: 'globex' })));
    expect(ok.status).toBe(200);
    expect(tenants).toEqual(['globex']);
    const config = JSON.parse((await server.handle({ method: 'GET', path: '/ServiceProviderConfig' })).body ?? '{}');
    expect(config.authenticationSchemes).toEqual([expect.objectContaining({ type: 'oauthbearertoken', name: 'OAuth Bearer Token (JWT)' })]);
  });
});
