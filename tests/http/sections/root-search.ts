import { describe, expect, it } from 'vitest';
import { GROUP_FIXTURES } from '../../../examples/seed-service/src/index.js';
import { SEARCH, userBody } from '../support/fixtures.js';
import { expectError, expectList } from '../support/expect-scim.js';
import type { Current } from '../support/service-under-test.js';

const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/** examples/seed-service/README.md "Search endpoints" and RFC 7644 §3.4.3 server-root search. */
export function describeRootSearch(service: Current): void {
  describe('POST /.search', () => {
    it('returns all users followed by the two read-only group fixtures', async () => {
      const { client } = service();
      for (const name of ['zed', 'amy']) expect((await client.post('/Users', userBody(name))).status).toBe(201);
      const reply = await client.post('/.search', { schemas: [SEARCH] });
      expectList(reply, 4, 1, 4);
      const kinds = reply.body.Resources.map((r: { meta: { resourceType: string } }) => r.meta.resourceType);
      expect(kinds).toEqual(['User', 'User', 'Group', 'Group']);
      expect(reply.body.Resources.slice(0, 2).map((r: { userName: string }) => r.userName)).toEqual(['zed', 'amy']);
      const groups = reply.body.Resources.slice(2);
      expect(groups.map((g: { id: string }) => g.id)).toEqual(GROUP_FIXTURES.map((g) => g.id));
      expect(groups[0].schemas).toEqual([GROUP]);
      expect(typeof groups[0].displayName).toBe('string');
    });

    it('applies the filter per type: an attribute only one type knows is false on the other', async () => {
      const { client } = service();
      await client.post('/Users', userBody('solo', { displayName: 'Administrators' }));
      const users = await client.post('/.search', { schemas: [SEARCH], filter: 'userName eq "solo"' });
      expectList(users, 1, 1, 1);
      expect(users.body.Resources[0].meta.resourceType).toBe('User');
      const groups = await client.post('/.search', { schemas: [SEARCH], filter: 'members pr or displayName eq "Everyone"' });
      expectList(groups, 1, 1, 1);
      expect(groups.body.Resources[0].meta.resourceType).toBe('Group');
      const both = await client.post('/.search', { schemas: [SEARCH], filter: 'displayName eq "administrators"' });
      expect(both.body.Resources.map((r: { meta: { resourceType: string } }) => r.meta.resourceType)).toEqual(['User', 'Group']);
      expectError(await client.post('/.search', { schemas: [SEARCH], filter: 'noSuchAttribute eq "x"' }), 400, 'invalidFilter');
    });

    it('filters on meta.location as served: users have one, the endpoint-less groups none', async () => {
      const { client } = service();
      const created = await client.post('/Users', userBody('located'));
      const reply = await client.post('/.search', { schemas: [SEARCH], filter: `meta.location eq "${client.baseUrl}/Users/${created.body.id}"` });
      expectList(reply, 1, 1, 1);
      expect(reply.body.Resources[0].userName).toBe('located');
      const unlocated = await client.post('/.search', { schemas: [SEARCH], filter: 'not (meta.location pr)' });
      expect(unlocated.body.Resources.map((r: { meta: { resourceType: string } }) => r.meta.resourceType)).toEqual(['Group', 'Group']);
    });

    it('sorts the union when sortBy is given, then pages it as one list', async () => {
      const { client } = service();
      await client.post('/Users', userBody('u', { displayName: 'Bob' }));
      const sorted = await client.post('/.search', { schemas: [SEARCH], sortBy: 'displayName' });
      expect(sorted.body.Resources.map((r: { displayName: string }) => r.displayName)).toEqual(['Administrators', 'Bob', 'Everyone']);
      const page = await client.post('/.search', { schemas: [SEARCH], sortBy: 'displayName', sortOrder: 'descending', startIndex: 2, count: 1 });
      expectList(page, 3, 2, 1);
      expect(page.body.Resources[0].displayName).toBe('Bob');
      const projected = await client.post('/.search', { schemas: [SEARCH], attributes: ['displayName'] });
      expect(projected.body.Resources.map((r: { displayName: string }) => r.displayName)).toEqual(['Bob', 'Administrators', 'Everyone']);
      expect(projected.body.Resources[0].userName).toBeUndefined();
      expect(projected.body.Resources.every((r: { id?: string }) => typeof r.id === 'string')).toBe(true);
    });

    it('refuses more than 1,000 matches with 400 tooMany, and answers a narrower search', async () => {
      const { client } = service();
      const total = 999;
      for (let i = 0; i < total; i += 50) {
        const replies = await Promise.all(Array.from({ length: Math.min(50, total - i) }, (_, k) => client.post('/Users', userBody(`bulk${i + k}`))));
        expect(replies.every((r) => r.status === 201)).toBe(true);
      }
      expectError(await client.post('/.search', { schemas: [SEARCH] }), 400, 'tooMany');
      const narrower = await client.post('/.search', { schemas: [SEARCH], filter: 'userName sw "bulk1"', count: 5 });
      expect(narrower.status).toBe(200);
      expect(narrower.body.totalResults).toBe(111);
      expect(narrower.body.itemsPerPage).toBe(5);
      expect((await client.delete(`/Users/${(await client.get('/Users', { query: { count: 1 } })).body.Resources[0].id}`)).status).toBe(204);
      expectList(await client.post('/.search', { schemas: [SEARCH], count: 0 }), 1000, 1, 0);
    });

    it('offers groups nowhere else: /Groups is 404, GET /.search is 405', async () => {
      const { client } = service();
      expectError(await client.get('/Groups'), 404);
      expectError(await client.get(`/Groups/${GROUP_FIXTURES[0]!.id}`), 404);
      const wrong = await client.get('/.search');
      expectError(wrong, 405);
      expect(wrong.headers.get('allow')).toBe('POST');
    });
  });
}
