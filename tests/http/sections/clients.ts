import { describe, expect, it } from 'vitest';
import { ENTERPRISE, LIST, USER, patchBody } from '../support/fixtures.js';
import { expectError, expectList } from '../support/expect-scim.js';
import { scimClient } from '../support/scim-client.js';
import type { Current } from '../support/service-under-test.js';

/** Okta's and Microsoft Entra ID's request shapes (docs/concepts/compatibility.md). */
export function describeClients(service: Current): void {
  describe('Okta', () => {
    const oktaHeaders = {
      Accept: 'application/scim+json',
      'Accept-Charset': 'utf-8',
      'Content-Type': 'application/scim+json; charset=utf-8',
      'User-Agent': 'OKTA SCIM Integration',
      Authorization: 'Bearer anything',
    };
    const oktaUser = (email: string) => ({
      schemas: [USER],
      userName: email,
      name: { givenName: 'Runscope123', familyName: 'Xyzzy42' },
      emails: [{ primary: true, value: email, type: 'work' }],
      displayName: 'Runscope123 Xyzzy42',
      active: true,
    });

    it('runs the Okta SCIM 2.0 spec test flow', async () => {
      const okta = scimClient(service().baseUrl, oktaHeaders);
      const seeded = await okta.send('POST', '/Users', { raw: JSON.stringify(oktaUser('seed@atko.com')), headers: { 'Content-Type': 'application/json' } });
      expect(seeded.status).toBe(201);

      const first = await okta.get('/Users', { query: { count: 1, startIndex: 1 } });
      expect(first.status).toBe(200);
      expect(first.body.schemas).toContain(LIST);
      for (const key of ['itemsPerPage', 'startIndex', 'totalResults']) expect(typeof first.body[key]).toBe('number');
      const listed = first.body.Resources[0];
      for (const value of [listed.id, listed.name.familyName, listed.name.givenName, listed.userName, listed.emails[0].value]) expect(value).toBeTruthy();
      expect(listed.active).toBe(true);

      const byId = await okta.get(`/Users/${listed.id}`);
      expect(byId.status).toBe(200);
      expect(byId.body.id).toBe(listed.id);

      const none = await okta.send('GET', `/Users?filter=${encodeURIComponent('userName eq "abcdefgh@atko.com"')}`);
      expect(none.status).toBe(200);
      expect(none.body.totalResults).toBe(0);
      expectError(await okta.get('/Users/010101001010101011001010101011'), 404);

      const email = 'runscope123xyzzy42@atko.com';
      const created = await okta.send('POST', '/Users', { raw: JSON.stringify(oktaUser(email)), headers: { 'Content-Type': 'application/json' } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ active: true, userName: email, name: { givenName: 'Runscope123', familyName: 'Xyzzy42' } });
      expect(created.body.schemas).toContain(USER);
      expect((await okta.get(`/Users/${created.body.id}`)).body.userName).toBe(email);
      expect((await okta.send('POST', '/Users', { raw: JSON.stringify(oktaUser(email)), headers: { 'Content-Type': 'application/json' } })).status).toBe(409);

      const caps = await okta.get('/Users', { query: { filter: `userName eq "${email.toUpperCase()}"` } });
      expectList(caps, 1, 1, 1);
      expect(caps.body.Resources[0].id).toBe(created.body.id);
    });

    it('deactivates with a path-less replace and updates with PUT', async () => {
      const okta = scimClient(service().baseUrl, oktaHeaders);
      const created = (await okta.post('/Users', oktaUser('deact@atko.com'))).body;
      const deactivated = await okta.patch(`/Users/${created.id}`, patchBody({ op: 'replace', value: { active: false } }));
      expect(deactivated.status).toBe(200);
      expect(deactivated.body.active).toBe(false);
      const updated = await okta.put(`/Users/${created.id}`, { ...oktaUser('deact@atko.com'), id: created.id, name: { givenName: 'New', familyName: 'Name' } });
      expect(updated.status).toBe(200);
      expect(updated.body.name).toEqual({ givenName: 'New', familyName: 'Name' });
      expect(updated.body.active).toBe(true);
    });
  });

  describe('Microsoft Entra ID', () => {
    const entraUser = () => ({
      schemas: [USER, ENTERPRISE],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1',
      active: true,
      displayName: 'Test User',
      emails: [{ Primary: true, type: 'work', value: 'Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2b@testuser.com' }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
      [ENTERPRISE]: { employeeNumber: '1', department: 'Engineering' },
    });

    it('provisions, looks up by userName and externalId, then updates with Entra PATCH shapes', async () => {
      const { client } = service();
      const missing = await client.get('/Users', { query: { filter: 'userName eq "Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1"' } });
      expectList(missing, 0, 1, 0);
      const created = await client.send('POST', '/Users', { raw: JSON.stringify(entraUser()), headers: { 'Content-Type': 'application/json' } });
      expect(created.status, created.text).toBe(201);
      expect(created.body.emails[0].primary).toBe(true);
      const id = created.body.id as string;
      expectList(await client.get('/Users', { query: { filter: 'externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"' } }), 1, 1, 1);
      expectList(await client.get('/Users', { query: { filter: 'userName eq "test_user_ab6490ee-1e48-479e-a20b-2d77186b5dd1"' } }), 1, 1, 1);

      const patched = await client.patch(
        `/Users/${id}`,
        patchBody(
          { op: 'Replace', path: 'displayName', value: 'Renamed' },
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updated@testuser.com' },
          { op: 'Replace', path: 'name.givenName', value: 'Given' },
          { op: 'Replace', path: 'active', value: 'False' },
          { op: 'Add', path: `${ENTERPRISE}:manager`, value: 'manager-id-123' },
        ),
      );
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body.displayName).toBe('Renamed');
      expect(patched.body.emails[0].value).toBe('updated@testuser.com');
      expect(patched.body.name.givenName).toBe('Given');
      expect(patched.body.active).toBe(false);
      expect(patched.body[ENTERPRISE].manager.value).toBe('manager-id-123');

      const pathless = await client.patch(
        `/Users/${id}`,
        patchBody({ op: 'replace', value: { 'name.familyName': 'Family', [`${ENTERPRISE}:department`]: 'Sales', active: 'True' } }),
      );
      expect(pathless.status, pathless.text).toBe(200);
      expect(pathless.body.name.familyName).toBe('Family');
      expect(pathless.body[ENTERPRISE].department).toBe('Sales');
      expect(pathless.body.active).toBe(true);

      const removed = await client.patch(`/Users/${id}`, patchBody({ op: 'Remove', path: `${ENTERPRISE}:manager` }));
      expect(removed.status).toBe(200);
      expect(removed.body[ENTERPRISE]?.manager).toBeUndefined();
      expect((await client.delete(`/Users/${id}`)).status).toBe(204);
    });

    it('accepts the string booleans "True"/"False" on create', async () => {
      const { client } = service();
      const reply = await client.post('/Users', { ...entraUser(), active: 'True' });
      expect(reply.status).toBe(201);
      expect(reply.body.active).toBe(true);
    });
  });
}
