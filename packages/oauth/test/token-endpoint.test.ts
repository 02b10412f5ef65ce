import { base64url, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, createLocalJWKSet, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { revokeClient, rotateClientSecret } from '../src/index.js';
import { assertion, AUDIENCE, basic, form, ISSUER, json, JWT_BEARER_ASSERTION, oauthFixture } from './oauth-fixture.js';

describe('token endpoint: client credentials (RFC 6749 §4.4)', () => {
  it('issues a short-lived signed JWT to a client authenticated with client_secret_basic, carrying client, tenant and scope', async () => {
    const { endpoint, secret, keys } = await oauthFixture();
    const response = await endpoint.handle(form({ grant_type: 'client_credentials' }, { authorization: basic('entra', secret) }));
    expect(response.status).toBe(200);
    expect(response.headers['Cache-Control']).toBe('no-store');
    expect(response.headers['Pragma']).toBe('no-cache');
    const body = json(response);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 600, scope: 'scim' });
    const header = decodeProtectedHeader(body.access_token);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'at+jwt', kid: (await keys.current()).kid });
    const { payload } = await jwtVerify(body.access_token, createLocalJWKSet(await keys.jwks()), { issuer: ISSUER, audience: AUDIENCE });
    expect(payload).toMatchObject({ sub: 'entra', client_id: 'entra', tenant: 'acme', scope: 'scim' });
    expect((payload.exp as number) - (payload.iat as number)).toBe(600);
  });

  it('accepts client_secret_post, and a narrower scope when asked (scim:read)', async () => {
    const { endpoint, secret } = await oauthFixture();
    const response = await endpoint.handle(form({ grant_type: 'client_credentials', client_id: 'entra', client_secret: secret, scope: 'scim:read' }));
    expect(response.status).toBe(200);
    expect(json(response).scope).toBe('scim:read');
    expect(decodeJwt(json(response).access_token).scope).toBe('scim:read');
  });

  it('accepts private_key_jwt (RFC 7523) with the registered key, and refuses the same assertion twice (jti replay)', async () => {
    const { endpoint, privateKey } = await oauthFixture();
    const signed = await assertion(privateKey, 'okta-jwt');
    const request = form({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: signed });
    const first = await endpoint.handle(request);
    expect(first.status).toBe(200);
    expect(decodeJwt(json(first).access_token)).toMatchObject({ client_id: 'okta-jwt', tenant: 'globex' });
    const replayed = await endpoint.handle(request);
    expect(replayed.status).toBe(400);
    expect(json(replayed)).toEqual({ error: 'invalid_client', error_description: expect.stringContaining('used before') });
    // The issuer as audience, and the URL the request arrived at, are accepted too.
    for (const aud of [ISSUER, 'http://127.0.0.1:1/oauth/token']) {
      const other = await endpoint.handle(form({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: await assertion(privateKey, 'okta-jwt', {}, { aud }) }));
      expect(other.status, aud).toBe(200);
    }
  });

  it('refuses bad assertions with invalid_client: expired, wrong audience, too long-lived, no jti, another key, iss/sub mismatch', async () => {
    const { endpoint, privateKey } = await oauthFixture();
    const now = Math.floor(Date.now() / 1000);
    const stranger = (await generateKeyPair('ES256')).privateKey;
    const cases: [string, string][] = [
      ['expired', await assertion(privateKey, 'okta-jwt', {}, { exp: now - 120 })],
      ['aud', await assertion(privateKey, 'okta-jwt', {}, { aud: 'https://elsewhere.example.com/token' })],
      ['lifetime', await assertion(privateKey, 'okta-jwt', {}, { exp: now + 3600 })],
      ['jti', await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setIssuer('okta-jwt').setSubject('okta-jwt').setAudience(ISSUER).setExpirationTime(now + 60).sign(privateKey)],
      ['forged', await assertion(stranger, 'okta-jwt')],
      ['sub', await new SignJWT({ jti: 'x' }).setProtectedHeader({ alg: 'ES256' }).setIssuer('okta-jwt').setSubject('entra').setAudience(ISSUER).setExpirationTime(now + 60).sign(privateKey)],
      ['unknown client', await assertion(privateKey, 'nobody')],
      ['secret client', await assertion(privateKey, 'entra')],
    ];
    for (const [name, signed] of cases) {
      const response = await endpoint.handle(form({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: signed }));
      expect(response.status, name).toBe(400);
      expect(json(response).error, name).toBe('invalid_client');
    }
  });

  it('refuses algorithm confusion: alg none, and HS256 keyed with the client\'s public key', async () => {
    const { endpoint, publicJwk } = await oauthFixture();
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: 'okta-jwt', sub: 'okta-jwt', aud: ISSUER, exp: now + 60, jti: 'n1' };
    const unsigned = `${base64url.encode(JSON.stringify({ alg: 'none' }))}.${base64url.encode(JSON.stringify(claims))}.`;
    const hmacKey = new TextEncoder().encode(JSON.stringify(publicJwk));
    const hs256 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: 'k1' }).sign(hmacKey);
    for (const signed of [unsigned, hs256]) {
      const response = await endpoint.handle(form({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: signed }));
      expect(response.status).toBe(400);
      expect(json(response)).toEqual({ error: 'invalid_client', error_description: expect.stringContaining('algorithm') });
    }
  });

  it('answers every RFC 6749 §5.2 error with its code, never a 500', async () => {
    const { endpoint, secret } = await oauthFixture();
    const auth = { authorization: basic('entra', secret) };
    const cases: [string, ReturnType<typeof form>, number, string][] = [
      ['no grant_type', form({}, auth), 400, 'invalid_request'],
      ['twice', { ...form({}, auth), body: 'grant_type=client_credentials&grant_type=client_credentials' }, 400, 'invalid_request'],
      ['grant', form({ grant_type: 'password', username: 'a', password: 'b' }, auth), 400, 'unsupported_grant_type'],
      ['jwt-bearer grant', form({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: 'x' }, auth), 400, 'unsupported_grant_type'],
      ['wrong secret basic', form({ grant_type: 'client_credentials' }, { authorization: basic('entra', 'nope') }), 401, 'invalid_client'],
      ['unknown client basic', form({ grant_type: 'client_credentials' }, { authorization: basic('ghost', secret) }), 401, 'invalid_client'],
      ['wrong secret post', form({ grant_type: 'client_credentials', client_id: 'entra', client_secret: 'nope' }), 400, 'invalid_client'],
      ['no authentication', form({ grant_type: 'client_credentials' }), 400, 'invalid_client'],
      ['two methods', form({ grant_type: 'client_credentials', client_id: 'entra', client_secret: secret }, auth), 400, 'invalid_request'],
      ['scope', form({ grant_type: 'client_credentials', scope: 'admin' }, auth), 400, 'invalid_scope'],
      ['bad scope token', form({ grant_type: 'client_credentials', scope: 'a"b' }, auth), 400, 'invalid_scope'],
      ['not a form', { ...form({}, auth), headers: { ...auth, 'content-type': 'application/json' }, body: '{"grant_type":"client_credentials"}' }, 400, 'invalid_request'],
      ['GET', { ...form({}, auth), method: 'GET' }, 405, 'invalid_request'],
      ['huge', { ...form({}, auth), body: `grant_type=client_credentials&x=${'a'.repeat(100_000)}` }, 413, 'invalid_request'],
      ['not utf-8', { ...form({}, auth), body: new Uint8Array([0x67, 0x3d, 0xff, 0xfe]) }, 400, 'invalid_request'],
      ['malformed assertion', form({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: 'not.a.jwt' }), 400, 'invalid_client'],
      ['huge assertion', form({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: 'e'.repeat(9000) }), 400, 'invalid_client'],
      ['wrong assertion type', form({ grant_type: 'client_credentials', client_assertion_type: 'urn:x', client_assertion: 'a.b.c' }), 400, 'invalid_client'],
      ['basic garbage', form({ grant_type: 'client_credentials' }, { authorization: 'Basic !!!' }), 401, 'invalid_client'],
    ];
    for (const [name, request, status, code] of cases) {
      const response = await endpoint.handle(request);
      expect(response.status, name).toBe(status);
      expect(json(response).error, name).toBe(code);
      expect(response.headers['Cache-Control'], name).toBe('no-store');
    }
    const challenged = await endpoint.handle(form({ grant_type: 'client_credentials' }, { authorization: basic('entra', 'nope') }));
    expect(challenged.headers['WWW-Authenticate']).toMatch(/^Basic realm=/);
  });

  it('refuses a client not registered for the client_credentials grant with unauthorized_client', async () => {
    const { endpoint, clients } = await oauthFixture();
    const { createClient } = await import('../src/index.js');
    const { secret } = await createClient(clients, { clientId: 'other-grant', grantTypes: ['urn:ietf:params:oauth:grant-type:jwt-bearer'], cost: { N: 1024, r: 8, p: 1 } });
    const response = await endpoint.handle(form({ grant_type: 'client_credentials', client_id: 'other-grant', client_secret: secret as string }));
    expect(response.status).toBe(400);
    expect(json(response).error).toBe('unauthorized_client');
  });

  it('refuses a revoked client, and during a rotation accepts the old and the new secret', async () => {
    const { endpoint, clients, secret } = await oauthFixture();
    const rotated = await rotateClientSecret(clients, 'entra', { cost: { N: 1024, r: 8, p: 1 } });
    for (const which of [secret, rotated.secret as string]) {
      expect((await endpoint.handle(form({ grant_type: 'client_credentials' }, { authorization: basic('entra', which) }))).status).toBe(200);
    }
    await rotateClientSecret(clients, 'entra', { cost: { N: 1024, r: 8, p: 1 } });
    expect((await endpoint.handle(form({ grant_type: 'client_credentials' }, { authorization: basic('entra', secret) }))).status).toBe(401);
    await revokeClient(clients, 'entra');
    const refused = await endpoint.handle(form({ grant_type: 'client_credentials', client_id: 'entra', client_secret: rotated.secret as string }));
    expect(json(refused).error).toBe('invalid_client');
  });

  it('serves the JWKS with every trusted key, keeps verifying tokens of a rotated-out key until it is retired', async () => {
    const { endpoint, keys, secret } = await oauthFixture();
    const before = json(await endpoint.handle(form({ grant_type: 'client_credentials' }, { authorization: basic('entra', secret) }))).access_token as string;
    const oldKid = (await keys.current()).kid;
    const newKid = await keys.rotate();
    const jwks = await endpoint.handle({ method: 'GET', path: '/.well-known/jwks.json' });
    expect(jwks.status).toBe(200);
    const document = json(jwks);
    expect(document.keys.map((key: { kid: string }) => key.kid)).toEqual([oldKid, newKid]);
    expect(document.keys.every((key: Record<string, unknown>) => key['d'] === undefined && key['use'] === 'sig')).toBe(true);
    const after = json(await endpoint.handle(form({ grant_type: 'client_credentials' }, { authorization: basic('entra', secret) }))).access_token as string;
    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    await jwtVerify(before, await keys.verificationKey(), { issuer: ISSUER, audience: AUDIENCE });
    await keys.retire(oldKid);
    await expect(jwtVerify(before, await keys.verificationKey(), { issuer: ISSUER, audience: AUDIENCE })).rejects.toThrow();
    await expect(keys.retire(newKid)).rejects.toThrow(TypeError);
    expect((await endpoint.handle({ method: 'GET', path: '/nothing' })).status).toBe(404);
  });

  it('never writes a secret or an assertion into its log records', async () => {
    const { endpoint, secret, records, privateKey } = await oauthFixture();
    const signed = await assertion(privateKey, 'okta-jwt');
    await endpoint.handle(form({ grant_type: 'client_credentials' }, { authorization: basic('entra', secret) }));
    await endpoint.handle(form({ grant_type: 'client_credentials', client_id: 'entra', client_secret: `${secret}x` }));
    await endpoint.handle(form({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: signed }));
    await endpoint.handle(form({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: signed }));
    const written = JSON.stringify(records);
    expect(records.map((record) => record.message)).toEqual(['access token issued', 'token request refused', 'access token issued', 'token request refused']);
    expect(records[1]).toMatchObject({ code: 'invalid_client', clientId: 'entra' });
    expect(written).not.toContain(secret);
    expect(written).not.toContain(signed.split('.')[2]);
  });

  it('answers 503 temporarily_unavailable when the client store fails', async () => {
    const { endpoint: _unused, keys } = await oauthFixture();
    const { createTokenEndpoint } = await import('../src/index.js');
    const broken = createTokenEndpoint({ issuer: ISSUER, audience: AUDIENCE, keys, clients: { get: () => Promise.reject(new Error('down')), save: async () => undefined, list: async () => [] } });
    const response = await broken.handle(form({ grant_type: 'client_credentials', client_id: 'entra', client_secret: 'x' }));
    expect(response.status).toBe(503);
    expect(json(response).error).toBe('temporarily_unavailable');
  });
});

describe('signing keys', () => {
  it('signs with given private JWKs, so instances share keys', async () => {
    const { createSigningKeys } = await import('../src/index.js');
    const pair = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(pair.privateKey)), kid: 'shared' };
    const [a, b] = [createSigningKeys({ keys: [jwk] }), createSigningKeys({ keys: [jwk] })];
    expect((await a.jwks()).keys[0]).toMatchObject({ kid: 'shared', kty: 'EC' });
    expect((await a.jwks()).keys[0]?.d).toBeUndefined();
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid: 'shared' }).setExpirationTime('1m').sign((await a.current()).privateKey);
    await jwtVerify(token, await b.verificationKey());
  });
});
