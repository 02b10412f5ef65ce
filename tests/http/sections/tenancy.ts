import { afterEach, describe, expect, it } from 'vitest';
import { patchBody, userBody } from '../support/fixtures.js';
import { expectError } from '../support/expect-scim.js';
import { scimClient } from '../support/scim-client.js';
import type { StartService, StartedService } from '../support/service-under-test.js';

const TENANTS = [
  { tenant: 'acme', token: 'acme-token-2025' },
  { tenant: 'globex', token: 'globex-token-2025' },
];

/**
 * Tenancy over HTTP (docs/concepts/multi-tenancy.md): each tenant's bearer token picks the tenant,
 * every tenant at the same /scim/v2, and no tenant sees another's users by id, by uniqueness, by
 * filter or by root search. Also the request id coming back through the adapter.
 */
export function describeTenancy(start: StartService): void {
  describe('tenancy', () => {
    let started: StartedService | undefined;
    afterEach(async () => {
      await started?.close();
      started = undefined;
    });
    const clients = async () => {
      started = await start({ tenants: TENANTS });
      return {
        acme: scimClient(started.baseUrl, { Authorization: 'Bearer acme-token-2025' }),
        globex: scimClient(started.baseUrl, { Authorization: 'Bearer globex-token-2025' }),
        anonymous: scimClient(started.baseUrl),
      };
    };

    it('the same userName in two tenants: two users, each unique only within its tenant', async () => {
      const { acme, globex } = await clients();
      const a = await acme.post('/Users', userBody('bjensen'));
      const g = await globex.post('/Users', userBody('bjensen'));
      expect([a.status, g.status]).toEqual([201, 201]);
      expect(a.body.id).not.toBe(g.body.id);
      expectError(await acme.post('/Users', userBody('BJENSEN')), 409, 'uniqueness');
      // Renaming within a tenant checks that tenant only.
      expect((await globex.put(`/Users/${g.body.id}`, userBody('BJensen', { title: 'x' }))).status).toBe(200);
    });

    it("a tenant cannot read, change or delete another tenant's user by id", async () => {
      const { acme, globex } = await clients();
      const id = (await acme.post('/Users', userBody('private'))).body.id as string;
      expectError(await globex.get(`/Users/${id}`), 404);
      expectError(await globex.put(`/Users/${id}`, userBody('private')), 404);
      expectError(await globex.patch(`/Users/${id}`, patchBody({ op: 'replace', path: 'title', value: 'pwned' })), 404);
      expectError(await globex.delete(`/Users/${id}`), 404);
      const still = await acme.get(`/Users/${id}`);
      expect(still.status).toBe(200);
      expect(still.body.title).toBeUndefined();
    });

    it('lists, filters and root search return only the caller tenant\'s users', async () => {
      const { acme, globex } = await clients();
      await acme.post('/Users', userBody('alice'));
      await acme.post('/Users', userBody('bob'));
      const carol = (await globex.post('/Users', userBody('carol'))).body.id as string;
      expect((await acme.get('/Users')).body.totalResults).toBe(2);
      const filtered = await globex.get('/Users', { query: { filter: 'userName eq "alice" or userName eq "carol"' } });
      expect(filtered.body.Resources.map((user: { id: string }) => user.id)).toEqual([carol]);
      const searched = await globex.post('/Users/.search', { filter: 'userName pr' });
      expect(searched.body.totalResults).toBe(1);
      const root = await globex.post('/.search', { filter: 'userName pr' });
      expect(root.body.Resources.map((user: { id: string }) => user.id)).toEqual([carol]);
    });

    it('an unknown token is 401; /ServiceProviderConfig stays readable without one', async () => {
      const { anonymous } = await clients();
      const wrong = scimClient(anonymous.baseUrl, { Authorization: 'Bearer initech-token' });
      for (const reply of [await wrong.get('/Users'), await anonymous.get('/Users')]) {
        expectError(reply, 401);
        expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer realm="SCIM"/);
      }
      const config = await anonymous.get('/ServiceProviderConfig');
      expect(config.status).toBe(200);
      expect(config.body.authenticationSchemes).toEqual([expect.objectContaining({ type: 'oauthbearertoken' })]);
    });

    it('the request id comes back in X-Request-Id: the client\'s, or a generated one', async () => {
      const { acme } = await clients();
      const given = await acme.get('/Users', { headers: { 'X-Request-Id': 'idp-call-7' } });
      expect(given.headers.get('x-request-id')).toBe('idp-call-7');
      const generated = await acme.get('/Nope');
      expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
}
