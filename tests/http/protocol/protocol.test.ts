import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { URN } from '@scimkit/core';
import { expectError, expectScimJson } from '../support/expect-scim.js';
import { patchBody, userBody } from '../support/fixtures.js';
import { scimClient, type ScimClient } from '../support/scim-client.js';
import type { StartedService } from '../support/service-under-test.js';
import { ADAPTERS } from './adapters.js';
import { ADMIN, asUser, createProtocolServer } from './protocol-server.js';
import { BULK_CIRCULAR, BULK_MULTIPLE_OPERATIONS, BULK_TEMPORARY_IDENTIFIER } from './rfc-bulk-examples.js';

const RFC_SAMPLES = new URL('../../../../shared/conformance/scim2-models-rfc-samples/', import.meta.url);

/** Issue 11 over every adapter: Bulk, /Me, cursor paging, discovery, PATCH answers, filter and PATCH semantics. */
describe.each(ADAPTERS)('protocol over %s', (_name, serve) => {
  let started: StartedService | undefined;
  let client: ScimClient;
  let baseUrl: string;
  beforeEach(async () => {
    started = await serve(createProtocolServer());
    baseUrl = started.baseUrl;
    client = scimClient(baseUrl, ADMIN);
  });
  afterEach(async () => {
    await started?.close();
  });

  const createUser = async (userName: string, extra: Record<string, unknown> = {}) => {
    const reply = await client.post('/Users', userBody(userName, extra));
    expect(reply.status, reply.text).toBe(201);
    return reply.body;
  };

  describe('POST /Bulk (RFC 7644 §3.7)', () => {
    it('answers the RFC 7644 §3.7.2 example in the shape of its response, the group holding the new user', async () => {
      const reply = await client.post('/Bulk', BULK_TEMPORARY_IDENTIFIER);
      expect(reply.status, reply.text).toBe(200);
      expectScimJson(reply);
      expect(reply.body.schemas).toEqual([URN.bulkResponse]);
      const [alice, group] = reply.body.Operations;
      for (const [result, bulkId, endpoint] of [[alice, 'qwerty', 'Users'], [group, 'ytrewq', 'Groups']] as const) {
        expect(Object.keys(result).sort()).toEqual(['bulkId', 'location', 'method', 'status', 'version']);
        expect(result).toMatchObject({ method: 'POST', bulkId, status: '201' });
        expect(result.location).toMatch(new RegExp(`^${baseUrl}/${endpoint}/[^/]+$`));
      }
      const read = await client.get(group.location.slice(baseUrl.length));
      expect(read.body.members).toEqual([expect.objectContaining({ value: alice.location.split('/').pop(), type: 'User' })]);
      expect(read.headers.get('etag')).toBe(group.version);
    });

    it('answers the §3.7.3 example operation by operation: 400 for the wrong schema URN, 404s for unknown ids', async () => {
      const reply = await client.post('/Bulk', BULK_MULTIPLE_OPERATIONS);
      expect(reply.status).toBe(200);
      // failOnErrors 1: the first error (its POST names the ListResponse-style User URN) ends the job.
      expect(reply.body.Operations).toEqual([
        { method: 'POST', bulkId: 'qwerty', status: '400', response: expect.objectContaining({ schemas: [URN.error], status: '400', scimType: 'invalidValue' }) },
      ]);
      const all = await client.post('/Bulk', { ...BULK_MULTIPLE_OPERATIONS, failOnErrors: undefined });
      expect(all.body.Operations.map((result: { method: string; status: string }) => [result.method, result.status])).toEqual([
        ['POST', '400'],
        ['PUT', '404'],
        ['PATCH', '404'],
        ['DELETE', '404'],
      ]);
      expect(all.body.Operations[3].location).toBe(`${baseUrl}/Users/e9025315-6bea-44e1-899c-1e07454e468b`);
    });

    it('answers the §3.7.1 circular example with 409s and creates nothing', async () => {
      const reply = await client.post('/Bulk', BULK_CIRCULAR);
      expect(reply.body.Operations.map((result: { status: string }) => result.status)).toEqual(['409', '409']);
      expect((await client.get('/Groups')).body.totalResults).toBe(0);
    });

    it('enforces and advertises its limits (413 naming the limit, RFC 7644 §3.7.4)', async () => {
      const config = await client.get('/ServiceProviderConfig');
      expect(config.body.bulk).toEqual({ supported: true, maxOperations: 20, maxPayloadSize: 16384 });
      const many = await client.post('/Bulk', { schemas: [URN.bulkRequest], Operations: Array.from({ length: 21 }, (_, i) => ({ method: 'DELETE', path: `/Users/${i}` })) });
      expectError(many, 413, undefined, /maxOperations \(20\)/);
      const large = await client.post('/Bulk', { schemas: [URN.bulkRequest], Operations: [{ method: 'POST', path: '/Users', bulkId: 'x', data: userBody('x'.repeat(17000)) }] });
      expectError(large, 413, undefined, 'The size of the bulk operation exceeds the maxPayloadSize (16384).');
    });

    it('runs each operation as its single request: authentication first, version as If-Match', async () => {
      expect((await scimClient(baseUrl).post('/Bulk', BULK_TEMPORARY_IDENTIFIER)).status).toBe(401);
      const user = await createUser('bjensen');
      const reply = await client.post('/Bulk', {
        schemas: [URN.bulkRequest],
        Operations: [
          { method: 'PATCH', path: `/Users/${user.id}`, version: 'W/"old"', data: patchBody({ op: 'add', path: 'nickName', value: 'x' }) },
          { method: 'PATCH', path: `/Users/${user.id}`, version: user.meta.version, data: patchBody({ op: 'add', path: 'nickName', value: 'Babs' }) },
        ],
      });
      expect(reply.body.Operations.map((result: { status: string }) => result.status)).toEqual(['412', '200']);
      expect((await client.get(`/Users/${user.id}`)).body.nickName).toBe('Babs');
    });
  });

  describe('/Me (RFC 7644 §3.11)', () => {
    it('acts on the authenticated user, with Location at the canonical URL', async () => {
      const babs = await createUser('babs');
      const me = scimClient(baseUrl, asUser('babs'));
      const read = await me.get('/Me');
      expect(read.status, read.text).toBe(200);
      expect(read.headers.get('location')).toBe(`${baseUrl}/Users/${babs.id}`);
      expect(read.body.id).toBe(babs.id);
      const patched = await me.patch('/Me', patchBody({ op: 'replace', path: 'displayName', value: 'Barbara' }));
      expect(patched.body.displayName).toBe('Barbara');
      expect(patched.headers.get('etag')).toBe(patched.body.meta.version);
      const replaced = await me.put('/Me', userBody('babs', { title: 'Tour Guide' }));
      expect(replaced.body).toMatchObject({ title: 'Tour Guide' });
      expect((await me.delete('/Me')).status).toBe(204);
      expectError(await me.get('/Me'), 404);
      expect((await scimClient(baseUrl).get('/Me')).status).toBe(401);
    });
  });

  describe('cursor paging (RFC 9865)', () => {
    it('walks a filtered, sorted list with ?cursor and nextCursor, and refuses a tampered cursor', async () => {
      for (let i = 0; i < 7; i++) await createUser(`walker${i}`);
      await createUser('other');
      const seen: string[] = [];
      let reply = await client.send('GET', '/Users?filter=userName%20sw%20%22walker%22&sortBy=userName&count=3&cursor');
      for (;;) {
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body.totalResults).toBe(7);
        expect(reply.body.startIndex).toBeUndefined();
        seen.push(...reply.body.Resources.map((user: { userName: string }) => user.userName));
        if (reply.body.nextCursor === undefined) break;
        expect(reply.body.nextCursor).toMatch(/^[A-Za-z0-9._~-]+$/);
        reply = await client.get('/Users', { query: { filter: 'userName sw "walker"', sortBy: 'userName', count: 3, cursor: reply.body.nextCursor } });
      }
      expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `walker${i}`));
      expect(reply.body.previousCursor).toEqual(expect.any(String));
      expectError(await client.get('/Users', { query: { cursor: `${reply.body.previousCursor}x`, count: 3 } }), 400, 'invalidCursor');
      const searched = await client.post('/Users/.search', { schemas: [URN.searchRequest], cursor: '', count: 5 });
      expect(searched.body.nextCursor).toEqual(expect.any(String));
    });

    it('is advertised as configured', async () => {
      const config = await client.get('/ServiceProviderConfig');
      expect(config.body.pagination).toEqual({ cursor: true, index: true, defaultPaginationMethod: 'index', defaultPageSize: 100, maxPageSize: 1000, cursorTimeout: 600 });
    });
  });

  describe('discovery and responses', () => {
    it('serves the RFC 7643 §7 meta-schemas in /Schemas', async () => {
      for (const urn of [URN.schema, URN.resourceType, URN.serviceProviderConfig]) {
        const reply = await client.get(`/Schemas/${urn}`);
        expect(reply.status, urn).toBe(200);
        expect(reply.body).toMatchObject({ id: urn, meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${urn}` } });
      }
    });

    it('answers a PATCH 204 with its ETag when the client prefers return=minimal', async () => {
      const user = await createUser('minimal');
      const reply = await client.patch(`/Users/${user.id}`, patchBody({ op: 'add', path: 'nickName', value: 'M' }), { headers: { Prefer: 'return=minimal' } });
      expect(reply.status).toBe(204);
      expect(reply.text).toBe('');
      expect(reply.headers.get('etag')).toBe((await client.get(`/Users/${user.id}`)).body.meta.version);
    });

    it('ne also matches users without the attribute; add on a missing value path creates the element', async () => {
      const titled = await createUser('titled', { title: 'x' });
      const bare = await createUser('bare');
      const reply = await client.get('/Users', { query: { filter: 'title ne "x"' } });
      expect(reply.body.Resources.map((user: { id: string }) => user.id)).toEqual([bare.id]);
      expect((await client.get('/Users', { query: { filter: 'title ne null' } })).body.Resources.map((user: { id: string }) => user.id)).toEqual([titled.id]);
      const added = await client.patch(`/Users/${bare.id}`, patchBody({ op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' }));
      expect(added.body.phoneNumbers).toEqual([{ type: 'mobile', value: '+1 555 0100' }]);
      expectError(await client.patch(`/Users/${bare.id}`, patchBody({ op: 'Replace', path: 'phoneNumbers[type eq "work"].value', value: '1' })), 400, 'noTarget');
    });
  });

  describe('compatibility profiles', () => {
    const withProfile = async (compatibility: 'entra' | 'okta' | 'strict', run: (profiled: ScimClient) => Promise<void>) => {
      const other = await serve(createProtocolServer({ compatibility }));
      try {
        await run(scimClient(other.baseUrl, ADMIN));
      } finally {
        await other.close();
      }
    };

    it("'entra' takes Entra ID's user update; 'strict' answers it with the RFC's errors", async () => {
      const update = patchBody(
        { op: 'Replace', path: 'phoneNumbers[type eq "work"].value', value: '+1 555 0100' },
        { op: 'Replace', path: 'active', value: 'False' },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager', value: 'manager-id-123' },
      );
      await withProfile('entra', async (entra) => {
        const user = (await entra.post('/Users', userBody('entra.user', { active: 'True' }))).body;
        const reply = await entra.patch(`/Users/${user.id}`, update);
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toMatchObject({ active: false, phoneNumbers: [{ type: 'work', value: '+1 555 0100' }] });
        expect((await entra.get('/Users', { query: { filter: 'userName eq entra.user' } })).body.totalResults).toBe(1);
      });
      await withProfile('strict', async (strict) => {
        expectError(await strict.post('/Users', userBody('strict.user', { active: 'True' })), 400, 'invalidValue');
        const user = (await strict.post('/Users', userBody('strict.user'))).body;
        expectError(await strict.patch(`/Users/${user.id}`, update), 400, 'noTarget');
      });
    });

    it("'okta' takes Okta's deactivation and group rename", async () => {
      await withProfile('okta', async (okta) => {
        const user = (await okta.post('/Users', userBody('okta.user', { password: 'pw-123456', groups: [] }), { headers: { 'Content-Type': 'application/json' } })).body;
        expect((await okta.patch(`/Users/${user.id}`, patchBody({ op: 'replace', value: { active: false } }))).body.active).toBe(false);
        const group = (await okta.post('/Groups', { schemas: [URN.group], displayName: 'Test SCIMv2' })).body;
        const renamed = await okta.patch(`/Groups/${group.id}`, patchBody({ op: 'replace', value: { id: group.id, displayName: 'Renamed' } }));
        expect(renamed.body.displayName).toBe('Renamed');
      });
    });
  });

  describe('the RFC 7644 Bulk example requests in ../shared, when present', () => {
    const files = ['rfc7644-3.7.2-bulk_request-temporary_identifier.json', 'rfc7644-3.7.2-bulk_request-enterprise_user.json', 'rfc7644-3.7.1-bulk_request-circular_conflict.json'];
    const present = files.filter((file) => existsSync(new URL(file, RFC_SAMPLES)));
    it('are the shapes this suite copies (or absent: the copies above stand in)', () => {
      expect(present.length === 0 || present.length === files.length).toBe(true);
      if (present.length === 0) return;
      expect(JSON.parse(readFileSync(new URL(files[0] as string, RFC_SAMPLES), 'utf8'))).toEqual(BULK_TEMPORARY_IDENTIFIER);
      expect(JSON.parse(readFileSync(new URL(files[2] as string, RFC_SAMPLES), 'utf8'))).toEqual(BULK_CIRCULAR);
    });
    it.each(present)('%s is accepted and answered with one result per operation', async (file) => {
      const request = JSON.parse(readFileSync(new URL(file, RFC_SAMPLES), 'utf8'));
      const reply = await client.post('/Bulk', request);
      expect(reply.status).toBe(200);
      expect(reply.body.schemas).toEqual([URN.bulkResponse]);
      expect(reply.body.Operations).toHaveLength(request.Operations.length);
      for (const [i, result] of reply.body.Operations.entries()) {
        expect(result).toMatchObject({ method: request.Operations[i].method, bulkId: request.Operations[i].bulkId, status: expect.stringMatching(/^\d{3}$/) });
        if (result.status === '201') expect(result.location).toMatch(new RegExp(`^${baseUrl}/(Users|Groups)/`));
        else expect(result.response.schemas).toEqual([URN.error]);
      }
    });
  });
});
