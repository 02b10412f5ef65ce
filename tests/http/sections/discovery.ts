import { describe, expect, it } from 'vitest';
import { ENTERPRISE, USER } from '../support/fixtures.js';
import { expectError, expectList, expectScimJson } from '../support/expect-scim.js';
import type { Current } from '../support/service-under-test.js';

const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const CHARACTERISTICS = ['name', 'type', 'multiValued', 'description', 'required', 'caseExact', 'mutability', 'returned', 'uniqueness'];

/** examples/seed-service/README.md "Discovery endpoints", "ServiceProviderConfig"; RFC 7644 §4. */
export function describeDiscovery(service: Current): void {
  describe('GET /ServiceProviderConfig', () => {
    it('describes exactly what the service does', async () => {
      const { client, baseUrl } = service();
      const reply = await client.get('/ServiceProviderConfig');
      expect(reply.status).toBe(200);
      expectScimJson(reply);
      const config = reply.body;
      expect(config.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig']);
      expect(config.patch).toEqual({ supported: true });
      expect(config.bulk.supported).toBe(false);
      expect(config.bulk.maxOperations).toBe(0);
      expect(Number.isInteger(config.bulk.maxPayloadSize)).toBe(true);
      expect(config.filter.supported).toBe(true);
      expect(config.filter.maxResults).toBe(1000);
      expect(config.changePassword).toEqual({ supported: false });
      expect(config.sort).toEqual({ supported: true });
      expect(config.etag).toEqual({ supported: true });
      expect(Array.isArray(config.authenticationSchemes)).toBe(true);
      expect(config.meta).toMatchObject({ resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` });
      expect(reply.headers.get('etag')).toBeNull();
    });

    it('ignores attributes and refuses a filter with 403', async () => {
      const { client } = service();
      const plain = await client.get('/ServiceProviderConfig');
      expect((await client.get('/ServiceProviderConfig', { query: { attributes: 'patch' } })).body).toEqual(plain.body);
      expectError(await client.get('/ServiceProviderConfig', { query: { filter: 'patch.supported eq true' } }), 403);
    });
  });

  describe('GET /Schemas', () => {
    it('lists User, the Enterprise User extension and Group, with complete attribute definitions', async () => {
      const { client, baseUrl } = service();
      const reply = await client.get('/Schemas');
      expectList(reply, 3, 1, 3);
      const ids = reply.body.Resources.map((s: { id: string }) => s.id);
      expect(ids.sort()).toEqual([ENTERPRISE, GROUP, USER].sort());
      const user = reply.body.Resources.find((s: { id: string }) => s.id === USER);
      expect(user.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:Schema']);
      expect(user.meta).toMatchObject({ resourceType: 'Schema', location: `${baseUrl}/Schemas/${USER}` });
      const userName = user.attributes.find((a: { name: string }) => a.name === 'userName');
      for (const key of CHARACTERISTICS) expect(userName, key).toHaveProperty(key);
      expect(userName).toMatchObject({ type: 'string', required: true, caseExact: false, uniqueness: 'server' });
      const emails = user.attributes.find((a: { name: string }) => a.name === 'emails');
      expect(emails.multiValued).toBe(true);
      expect(emails.subAttributes.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['value', 'type', 'primary']));
      const password = user.attributes.find((a: { name: string }) => a.name === 'password');
      expect(password).toMatchObject({ mutability: 'writeOnly', returned: 'never' });
    });

    it('pages with startIndex and count and ignores attributes', async () => {
      const { client } = service();
      const all = await client.get('/Schemas');
      const page = await client.get('/Schemas', { query: { startIndex: 2, count: 1 } });
      expectList(page, 3, 2, 1);
      expect(page.body.Resources[0]).toEqual(all.body.Resources[1]);
      expect((await client.get('/Schemas', { query: { attributes: 'id' } })).body).toEqual(all.body);
      expectError(await client.get('/Schemas', { query: { filter: 'id eq "x"' } }), 403);
    });

    it('serves one schema by URI (raw or percent-encoded); 404 naming an unknown one', async () => {
      const { client } = service();
      for (const path of [`/Schemas/${USER}`, `/Schemas/${encodeURIComponent(ENTERPRISE)}`, `/Schemas/${GROUP}`]) {
        const reply = await client.get(path);
        expect(reply.status, path).toBe(200);
        expectScimJson(reply);
        expect([USER, ENTERPRISE, GROUP]).toContain(reply.body.id);
      }
      const unknown = 'urn:example:params:scim:schemas:Nope/with/slashes';
      const reply = await client.get(`/Schemas/${unknown}`);
      expectError(reply, 404);
      expect(reply.body.detail).toContain(unknown);
    });
  });

  describe('GET /ResourceTypes', () => {
    it('lists only User (Group has no endpoint) and pages', async () => {
      const { client, baseUrl } = service();
      const reply = await client.get('/ResourceTypes');
      expectList(reply, 1, 1, 1);
      const user = reply.body.Resources[0];
      expect(user).toMatchObject({ id: 'User', name: 'User', endpoint: '/Users', schema: USER });
      expect(user.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:ResourceType']);
      expect(user.schemaExtensions).toEqual([{ schema: ENTERPRISE, required: false }]);
      expect(user.meta).toMatchObject({ resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` });
      expectList(await client.get('/ResourceTypes', { query: { startIndex: 2 } }), 1, 2, 0);
      expectError(await client.get('/ResourceTypes', { query: { filter: 'name eq "User"' } }), 403);
    });

    it('serves one resource type by id; 404 naming an unknown one', async () => {
      const { client } = service();
      const reply = await client.get('/ResourceTypes/User');
      expect(reply.status).toBe(200);
      expect(reply.body.endpoint).toBe('/Users');
      for (const id of ['Group', 'Nope']) {
        const missing = await client.get(`/ResourceTypes/${id}`);
        expectError(missing, 404);
        expect(missing.body.detail).toContain(id);
      }
    });
  });

  describe('methods', () => {
    it('discovery endpoints are read-only: 405 with Allow: GET', async () => {
      const { client } = service();
      for (const path of ['/Schemas', '/ResourceTypes', '/ServiceProviderConfig', `/Schemas/${USER}`]) {
        const reply = await client.post(path, {});
        expectError(reply, 405);
        expect(reply.headers.get('allow')).toBe('GET');
      }
    });
  });
}
