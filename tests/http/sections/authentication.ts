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

    it('routes before authenticating: an unknown route is 404 even without credentials', async () => {
      started = await start({ bearerToken: 's3cret' });
      expectError(await scimClient(started.baseUrl).get('/Nope'), 404);
    });

    it('without a token configured the service is open and ignores any Authorization header', async () => {
      started = await start();
      const client = scimClient(started.baseUrl, { Authorization: 'Bearer whatever' });
      expect((await client.get('/Users')).status).toBe(200);
      expect((await client.get('/ServiceProviderConfig')).body.authenticationSchemes).toEqual([]);
    });
  });
}
