import { afterEach, describe, expect, it } from 'vitest';
import { userBody } from '../support/fixtures.js';
import { expectError } from '../support/expect-scim.js';
import { scimClient } from '../support/scim-client.js';
import type { StartService, StartedService } from '../support/service-under-test.js';

/** The authentication hook: 401 with WWW-Authenticate and a SCIM body; schemes advertised. */
export function describeAuthentication(start: StartService): void {
  describe('authentication', () => {
    let started: StartedService | undefined;
    afterEach(async () => {
      await started?.close();
      started = undefined;
    });

    it('with a bearer token configured: 401 without or with a wrong token, 200 with it', async () => {
      started = await start({ bearerToken: 's3cret' });
      const anonymous = scimClient(started.baseUrl);
      const wrong = scimClient(started.baseUrl, { Authorization: 'non-token' });
      const good = scimClient(started.baseUrl, { Authorization: 'Bearer s3cret' });

      for (const reply of [await anonymous.get('/Users'), await wrong.get('/Users', { query: { filter: 'userName eq "x"' } }), await wrong.post('/Users', userBody('x'))]) {
        expectError(reply, 401);
        expect(reply.body.detail).not.toBe('');
        expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      }
      expect((await good.get('/Users')).status).toBe(200);
      expect((await good.post('/Users', userBody('x'))).status).toBe(201);
      const config = await good.get('/ServiceProviderConfig');
      expect(config.body.authenticationSchemes).toEqual([expect.objectContaining({ type: 'oauthbearertoken', name: expect.any(String), description: expect.any(String) })]);
    });

    it('authenticates before routing (401 where routing would say 404, 405 or 501) and before reading the body', async () => {
      started = await start({ bearerToken: 's3cret' });
      const anonymous = scimClient(started.baseUrl);
      const wrong = scimClient(started.baseUrl, { Authorization: 'Bearer s3cres' });
      for (const client of [anonymous, wrong]) {
        for (const reply of [await client.get('/Nope'), await client.send('DELETE', '/Users'), await client.post('/Bulk', {}), await client.get('/Me')]) {
          expectError(reply, 401);
          expect(reply.headers.get('allow')).toBeNull();
        }
        // Authentication comes before the body is read.
        expectError(await client.send('POST', '/Users', { raw: '{broken', headers: { 'Content-Type': 'application/scim+json' } }), 401);
      }
      const good = scimClient(started.baseUrl, { Authorization: 'Bearer s3cret' });
      expectError(await good.get('/Nope'), 404);
      expectError(await good.send('DELETE', '/Users'), 405);
    });

    it('with a bearer token configured, /ServiceProviderConfig alone is readable without it (RFC 7643 §5)', async () => {
      started = await start({ bearerToken: 's3cret' });
      const anonymous = scimClient(started.baseUrl);
      const config = await anonymous.get('/ServiceProviderConfig');
      expect(config.status).toBe(200);
      expect(config.body.authenticationSchemes).toEqual([expect.objectContaining({ type: 'oauthbearertoken' })]);
      expect((await anonymous.get('/serviceproviderconfig/')).status).toBe(200);
      expect((await anonymous.send('HEAD', '/ServiceProviderConfig')).status).toBe(200);
      for (const reply of [await anonymous.get('/Schemas'), await anonymous.get('/ResourceTypes'), await anonymous.get('/Users'), await anonymous.post('/.search', {})]) {
        expectError(reply, 401);
      }
      // Only reading the configuration is open: anything else asks for the token first.
      expectError(await anonymous.send('DELETE', '/ServiceProviderConfig'), 401);
    });

    it('without a token configured the service is open and ignores any Authorization header', async () => {
      started = await start();
      const client = scimClient(started.baseUrl, { Authorization: 'Bearer whatever' });
      expect((await client.get('/Users')).status).toBe(200);
      expect((await client.get('/ServiceProviderConfig')).body.authenticationSchemes).toEqual([]);
    });
  });
}
