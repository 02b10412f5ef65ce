import { describe, expect, it } from 'vitest';
import { bearerToken, type ScimRequest } from '../../src/index.js';
import { findToken } from '../../src/auth/constant-time.js';
import { call, server } from '../server/helpers.js';

const get = (path: string, authorization?: string): ScimRequest => ({ method: 'GET', path, headers: authorization === undefined ? {} : { Authorization: authorization } });

describe('bearerToken', () => {
  const auth = bearerToken({
    tokens: [
      { token: 'acme-2024', principal: { client: 'acme-entra', key: 'old' }, tenant: 'acme' },
      { token: 'acme-2025', principal: { client: 'acme-entra', key: 'new' }, tenant: 'acme' },
      { token: 'globex-1', principal: 'globex-okta', tenant: 'globex' },
    ],
  });

  it('accepts every listed token (old and new during a rotation) with its principal and tenant', async () => {
    expect(await auth.authenticate(get('/Users', 'Bearer acme-2024'))).toEqual({ ok: true, principal: { client: 'acme-entra', key: 'old' }, tenant: 'acme' });
    expect(await auth.authenticate(get('/Users', 'Bearer acme-2025'))).toEqual({ ok: true, principal: { client: 'acme-entra', key: 'new' }, tenant: 'acme' });
    expect(await auth.authenticate(get('/Users', 'bearer   globex-1 '))).toEqual({ ok: true, principal: 'globex-okta', tenant: 'globex' });
  });

  it('refuses a missing token without an error code and a wrong one with invalid_token (RFC 6750 §3.1)', async () => {
    expect(await auth.authenticate(get('/Users'))).toEqual({ ok: false, detail: 'A bearer token is required' });
    for (const header of ['Bearer acme-202', 'Bearer acme-20245', 'Basic YWNtZTp4', 'Bearer', 'Bearer a b', 'Bearer acme-2024, Bearer globex-1', `Bearer ${'x'.repeat(20_000)}`]) {
      const refused = await auth.authenticate(get('/Users', header));
      expect(refused, header.slice(0, 40)).toEqual({ ok: false, detail: 'The bearer token is not valid', challenge: 'Bearer realm="SCIM", error="invalid_token"' });
    }
  });

  it('leaves reading /ServiceProviderConfig open by default (RFC 7643 §5), and only that read', async () => {
    expect(await auth.authenticate(get('/ServiceProviderConfig'))).toEqual({ ok: true });
    expect(await auth.authenticate({ method: 'HEAD', path: '/serviceproviderconfigs/' })).toEqual({ ok: true });
    expect(await auth.authenticate(get('/ServiceProviderConfig', 'Bearer globex-1'))).toEqual({ ok: true, principal: 'globex-okta', tenant: 'globex' });
    expect(await auth.authenticate(get('/ServiceProviderConfig', 'Bearer wrong'))).toEqual({ ok: true });
    for (const request of [get('/Schemas'), get('/ResourceTypes'), { method: 'DELETE', path: '/ServiceProviderConfig' }, get('/ServiceProviderConfig/x'), get('/Users/ServiceProviderConfig')]) {
      expect((await auth.authenticate(request)).ok).toBe(false);
    }
    const closed = bearerToken({ tokens: [{ token: 't' }], publicServiceProviderConfig: false });
    expect((await closed.authenticate(get('/ServiceProviderConfig'))).ok).toBe(false);
  });

  it('asks verify for tokens it does not list, and refuses what verify refuses', async () => {
    const seen: string[] = [];
    const jwtLike = bearerToken({
      tokens: [{ token: 'static', tenant: 'acme' }],
      verify: async (token, request) => {
        seen.push(`${token} ${request.path}`);
        return token === 'eyJ.signed.ok' ? { principal: { sub: 'okta' }, tenant: 'initech' } : undefined;
      },
    });
    expect(await jwtLike.authenticate(get('/Users', 'Bearer static'))).toEqual({ ok: true, tenant: 'acme' });
    expect(await jwtLike.authenticate(get('/Users', 'Bearer eyJ.signed.ok'))).toEqual({ ok: true, principal: { sub: 'okta' }, tenant: 'initech' });
    expect((await jwtLike.authenticate(get('/Users', 'Bearer eyJ.forged'))).ok).toBe(false);
    expect(seen).toEqual(['eyJ.signed.ok /Users', 'eyJ.forged /Users']);
  });

  it('advertises the oauthbearertoken scheme, with overrides', () => {
    expect(auth.authenticationSchemes).toEqual([
      expect.objectContaining({ type: 'oauthbearertoken', name: 'OAuth Bearer Token', specUri: 'https://www.rfc-editor.org/info/rfc6750', primary: true }),
    ]);
    const documented = bearerToken({ tokens: [{ token: 't' }], scheme: { documentationUri: 'https://example.com/scim-auth', primary: false } });
    expect(documented.authenticationSchemes[0]).toMatchObject({ type: 'oauthbearertoken', documentationUri: 'https://example.com/scim-auth', primary: false });
  });

  it('refuses an invalid configuration at start-up', () => {
    expect(() => bearerToken({})).toThrow(TypeError);
    expect(() => bearerToken({ tokens: [] })).toThrow(TypeError);
    expect(() => bearerToken({ tokens: [{ token: '' }] })).toThrow(TypeError);
    expect(() => bearerToken({ tokens: [{ token: 'has space' }] })).toThrow(TypeError);
    expect(() => bearerToken({ tokens: [{ token: 'same' }, { token: 'same', tenant: 'b' }] })).toThrow(/twice/);
    expect(() => bearerToken({ tokens: 'secret' as never })).toThrow(TypeError);
    expect(() => bearerToken({ verify: 'yes' as never })).toThrow(TypeError);
  });

  it('in a server: 401 with the challenge, the tenant on the request, the scheme in /ServiceProviderConfig', async () => {
    const tenants: (string | undefined)[] = [];
    const target = server({ ...auth, onRequest: (event) => void tenants.push(event.tenant) });
    const refused = await call(target, get('/Users', 'Bearer nope'));
    expect(refused.status).toBe(401);
    expect(refused.headers['WWW-Authenticate']).toBe('Bearer realm="SCIM", error="invalid_token"');
    expect((await call(target, get('/Users'))).headers['WWW-Authenticate']).toBe('Bearer realm="SCIM"');
    expect((await call(target, get('/Users', 'Bearer globex-1'))).status).toBe(200);
    const config = await call(target, get('/ServiceProviderConfig'));
    expect(config.status).toBe(200);
    expect(config.body['authenticationSchemes']).toEqual([expect.objectContaining({ type: 'oauthbearertoken' })]);
    expect(tenants).toEqual(['globex', undefined]);
  });
});

describe('constant-time token lookup', () => {
  it('finds the matching token, the first of duplicates, or -1, comparing every entry in full', () => {
    const known = ['alpha', 'beta', 'gamma', 'beta'];
    expect(findToken(known, 'alpha')).toBe(0);
    expect(findToken(known, 'beta')).toBe(1);
    expect(findToken(known, 'gamma')).toBe(2);
    expect(findToken(known, 'delta')).toBe(-1);
    expect(findToken([], 'alpha')).toBe(-1);
  });

  it('refuses prefixes, extensions, a repeated shorter token and a one-character change', () => {
    const known = ['abcdef'];
    for (const near of ['abcde', 'abcdefg', 'abc', 'abcabc', 'a', 'abcdeF', 'Abcdef', 'bcdef', 'abcdef=']) expect(findToken(known, near)).toBe(-1);
    // Read at position % length, a shorter candidate that repeats to the token still differs in length.
    expect(findToken(['abab'], 'ab')).toBe(-1);
  });
});
