import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScimRequest } from '@scimkit/core';
import { JWT_BEARER_ASSERTION, oauthFixture } from './oauth-fixture.js';

const NAMES = ['grant_type', 'client_id', 'client_secret', 'client_assertion', 'client_assertion_type', 'scope', 'x'];
const VALUES = fc.oneof(
  fc.constantFrom('client_credentials', 'password', 'entra', 'okta-jwt', JWT_BEARER_ASSERTION, 'scim', 'scim:read', '', 'a.b.c', 'eyJhbGciOiJub25lIn0.eyJpc3MiOiJva3RhLWp3dCJ9.'),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

describe('token endpoint under generated hostile input', () => {
  it('answers every generated request with a well-formed RFC 6749 error (or a token), never a 500 or a throw', async () => {
    const { endpoint } = await oauthFixture();
    const request = fc.record({
      method: fc.constantFrom('POST', 'GET', 'PUT', 'post', 'HEAD'),
      path: fc.constantFrom('/oauth/token', '/oauth/token/', '/.well-known/jwks.json', '/x'),
      contentType: fc.constantFrom('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8', 'application/json', 'text/plain', undefined),
      authorization: fc.option(fc.oneof(fc.constantFrom('Basic ', 'Basic ZW50cmE6', 'Bearer x', 'Basic !!'), fc.string({ maxLength: 30 }).map((text) => `Basic ${Buffer.from(text).toString('base64')}`)), { nil: undefined }),
      params: fc.array(fc.tuple(fc.constantFrom(...NAMES), VALUES), { maxLength: 8 }),
      raw: fc.option(fc.uint8Array({ maxLength: 200 }), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(request, async (generated) => {
        const body = generated.raw ?? generated.params.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
        const scimRequest: ScimRequest = {
          method: generated.method,
          path: generated.path,
          headers: { ...(generated.contentType === undefined ? {} : { 'content-type': generated.contentType }), ...(generated.authorization === undefined ? {} : { authorization: generated.authorization }) },
          body,
        };
        const response = await endpoint.handle(scimRequest);
        expect(response.status).toBeLessThan(500);
        const parsed = JSON.parse(response.body ?? 'null') as Record<string, unknown>;
        if (response.status === 200) expect(parsed['keys'] ?? parsed['access_token']).toBeDefined();
        else expect(typeof parsed['error']).toBe('string');
      }),
      { numRuns: Number(process.env['FUZZ_RUNS'] ?? 300) },
    );
  });
});
