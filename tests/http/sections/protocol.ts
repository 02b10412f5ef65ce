import { describe, expect, it } from 'vitest';
import { userBody } from '../support/fixtures.js';
import { expectError, expectList, expectScimJson } from '../support/expect-scim.js';
import type { Current } from '../support/service-under-test.js';

/** Media types, routing, body limits: examples/seed-service/README.md "Common conventions", docs/errors.md. */
export function describeProtocol(service: Current): void {
  describe('routing', () => {
    it('answers an unknown route with a SCIM 404', async () => {
      const { client } = service();
      expectError(await client.get('/Nope'), 404);
      expectError(await client.get('/Users/a/b'), 404);
      expectError(await client.post('/Widgets/.search', {}), 404);
    });

    it('answers a wrong method with 405 and an Allow header', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('methods'))).body;
      const onItem = await client.post(`/Users/${created.id}`, {});
      expectError(onItem, 405);
      expect(onItem.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['DELETE', 'GET', 'PATCH', 'PUT']);
      const onCollection = await client.send('DELETE', '/Users');
      expectError(onCollection, 405);
      expect(onCollection.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['GET', 'POST']);
      const onSearch = await client.get('/Users/.search');
      expectError(onSearch, 405);
      expect(onSearch.headers.get('allow')).toBe('POST');
    });

    it('tolerates a trailing slash and endpoint names in another case', async () => {
      const { client } = service();
      await client.post('/Users', userBody('slash'));
      expectList(await client.get('/Users/'), 1, 1, 1);
      expectList(await client.get('/users'), 1, 1, 1);
      expect((await client.get('/serviceproviderconfig')).status).toBe(200);
    });

    it('answers 501 for the RFC features it does not offer (/Bulk, /Me)', async () => {
      const { client } = service();
      expectError(await client.post('/Bulk', { schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'], Operations: [] }), 501);
      expectError(await client.get('/Me'), 501);
    });
  });

  describe('request bodies', () => {
    it('accepts application/scim+json (with charset), application/json and no Content-Type', async () => {
      const { client } = service();
      const body = (name: string) => JSON.stringify(userBody(name));
      expect((await client.send('POST', '/Users', { raw: body('ct1'), headers: { 'Content-Type': 'application/scim+json; charset=utf-8' } })).status).toBe(201);
      expect((await client.send('POST', '/Users', { raw: body('ct2'), headers: { 'Content-Type': 'application/json' } })).status).toBe(201);
      expect((await client.send('POST', '/Users', { raw: new TextEncoder().encode(body('ct3')) })).status).toBe(201);
    });

    it('refuses other media types with 415', async () => {
      const { client } = service();
      expectError(await client.send('POST', '/Users', { raw: 'userName=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }), 415);
      expectError(await client.send('POST', '/Users', { raw: JSON.stringify(userBody('xml')), headers: { 'Content-Type': 'text/xml' } }), 415);
    });

    it('answers unparseable or empty JSON with 400 invalidSyntax', async () => {
      const { client } = service();
      const json = { 'Content-Type': 'application/scim+json' };
      expectError(await client.send('POST', '/Users', { raw: '{"userName": "x",', headers: json }), 400, 'invalidSyntax');
      expectError(await client.send('POST', '/Users', { raw: 'not json', headers: json }), 400, 'invalidSyntax');
      expectError(await client.send('POST', '/Users', { raw: '', headers: json }), 400, 'invalidSyntax');
      expectError(await client.send('POST', '/Users/.search', { raw: '[', headers: json }), 400, 'invalidSyntax');
    });

    it('answers a body over 1 MiB with 413 and keeps serving', async () => {
      const { client } = service();
      const huge = JSON.stringify(userBody('huge', { displayName: 'x'.repeat(1024 * 1024 + 10) }));
      expectError(await client.send('POST', '/Users', { raw: huge, headers: { 'Content-Type': 'application/scim+json' } }), 413);
      expect((await client.post('/Users', userBody('after-huge'))).status).toBe(201);
      expect((await client.get('/Users')).body.totalResults).toBe(1);
    });

    it('round-trips unicode values exactly', async () => {
      const { client } = service();
      const name = 'Zoë Ångström 山田 🎉';
      const created = await client.post('/Users', userBody('unicode', { displayName: name }));
      expect(created.status).toBe(201);
      expect((await client.get(`/Users/${created.body.id}`)).body.displayName).toBe(name);
      const found = await client.get('/Users', { query: { filter: `displayName eq "${name}"` } });
      expect(found.body.totalResults).toBe(1);
    });
  });

  describe('errors', () => {
    it('are SCIM error bodies with status as a string equal to the status line', async () => {
      const { client } = service();
      const reply = await client.get('/Users/missing');
      expectScimJson(reply);
      expect(reply.body).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '404', detail: '' });
    });
  });
}
