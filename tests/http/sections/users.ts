import { describe, expect, it } from 'vitest';
import { ENTERPRISE, USER, patchBody, userBody } from '../support/fixtures.js';
import { expectError, expectEtagMatchesBody, expectScimJson } from '../support/expect-scim.js';
import type { Current } from '../support/service-under-test.js';

/** examples/seed-service/README.md "User endpoints" rows and docs/errors.md. */
export function describeUsers(service: Current): void {
  describe('POST /Users', () => {
    it('creates a user: 201, Location = meta.location, ETag = meta.version, scim+json', async () => {
      const { client, baseUrl } = service();
      const reply = await client.post('/Users', userBody('bjensen'));
      expect(reply.status).toBe(201);
      expectScimJson(reply);
      expectEtagMatchesBody(reply);
      const user = reply.body;
      expect(typeof user.id).toBe('string');
      expect(user.id.length).toBeGreaterThan(0);
      expect(user.schemas).toContain(USER);
      expect(user.userName).toBe('bjensen');
      expect(user.name).toEqual({ givenName: 'Barbara', familyName: 'Jensen' });
      expect(user.active).toBe(true);
      expect(user.meta.resourceType).toBe('User');
      expect(user.meta.location).toBe(`${baseUrl}/Users/${user.id}`);
      expect(reply.headers.get('location')).toBe(user.meta.location);
      expect(Number.isNaN(Date.parse(user.meta.created))).toBe(false);
      expect(user.meta.lastModified).toBe(user.meta.created);
    });

    it('fills in missing schemas and ignores readOnly id and meta in the body', async () => {
      const { client } = service();
      const body = { ...userBody('ro'), id: 'chosen-by-client', meta: { version: 'W/"999"', resourceType: 'Group' } };
      delete (body as { schemas?: unknown }).schemas;
      const reply = await client.post('/Users', body);
      expect(reply.status).toBe(201);
      expect(reply.body.schemas).toEqual([USER]);
      expect(reply.body.id).not.toBe('chosen-by-client');
      expect(reply.body.meta.resourceType).toBe('User');
      expect(reply.body.meta.version).not.toBe('W/"999"');
    });

    it('stores enterprise extension data under its URN and lists the URN in schemas', async () => {
      const { client } = service();
      const reply = await client.post('/Users', { ...userBody('ext'), schemas: [USER, ENTERPRISE], [ENTERPRISE]: { employeeNumber: '701984', department: 'Tour Operations' } });
      expect(reply.status).toBe(201);
      expect(reply.body.schemas).toEqual([USER, ENTERPRISE]);
      expect(reply.body[ENTERPRISE]).toMatchObject({ employeeNumber: '701984', department: 'Tour Operations' });
      const read = await client.get(`/Users/${reply.body.id}`);
      expect(read.body[ENTERPRISE].employeeNumber).toBe('701984');
    });

    it('accepts attribute names in any case and answers in the schema spelling', async () => {
      const { client } = service();
      const reply = await client.post('/Users', { schemas: [USER], USERNAME: 'casey', Name: { GivenName: 'Case' } });
      expect(reply.status).toBe(201);
      expect(reply.body.userName).toBe('casey');
      expect(reply.body.name).toEqual({ givenName: 'Case' });
    });

    it('restricts the response with attributes and excludedAttributes', async () => {
      const { client } = service();
      const only = await client.post('/Users', userBody('attrs1'), { query: { attributes: 'userName' } });
      expect(only.status).toBe(201);
      expect(only.body.userName).toBe('attrs1');
      expect(only.body.id).toBeDefined();
      expect(only.body.name).toBeUndefined();
      expect(only.body.emails).toBeUndefined();
      const without = await client.post('/Users', userBody('attrs2'), { query: { excludedAttributes: 'emails,name' } });
      expect(without.status).toBe(201);
      expect(without.body.emails).toBeUndefined();
      expect(without.body.name).toBeUndefined();
      expect(without.body.userName).toBe('attrs2');
      expect(without.body.id).toBeDefined();
    });

    it('rejects a userName already taken, ignoring case: 409 uniqueness', async () => {
      const { client } = service();
      expect((await client.post('/Users', userBody('Taken'))).status).toBe(201);
      expectError(await client.post('/Users', userBody('taken')), 409, 'uniqueness');
      expectError(await client.post('/Users', userBody('TAKEN')), 409, 'uniqueness');
    });

    it('rejects bodies that fail validation with 400 and the SCIM type of the failure', async () => {
      const { client } = service();
      expectError(await client.post('/Users', { schemas: [USER], name: { givenName: 'No userName' } }), 400, 'invalidValue');
      expectError(await client.post('/Users', { ...userBody('unknown'), favouriteColour: 'blue' }), 400, 'invalidValue', /favouriteColour/);
      expectError(await client.post('/Users', { ...userBody('wrongschemas'), schemas: ['urn:example:not-a-user'] }), 400, 'invalidValue');
      expectError(await client.post('/Users', { ...userBody('wrongtype'), userName: 42 }), 400, 'invalidValue');
      expectError(await client.post('/Users', { ...userBody('wrongtype2'), active: 'yes' }), 400, 'invalidValue');
      expectError(await client.post('/Users', [userBody('array')]), 400, 'invalidSyntax');
    });

    it('treats keys named __proto__, constructor and prototype as unknown attributes', async () => {
      const { client } = service();
      const reply = await client.send('POST', '/Users', {
        raw: '{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"proto","__proto__":{"admin":true}}',
        headers: { 'Content-Type': 'application/scim+json' },
      });
      expectError(reply, 400, 'invalidValue');
      const constructor = await client.post('/Users', { ...userBody('ctor'), constructor: { prototype: { polluted: true } } });
      expectError(constructor, 400, 'invalidValue');
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });
  });

  describe('request bodies (docs/errors.md)', () => {
    it('accepts URN-qualified attribute names for core and extension attributes', async () => {
      const { client } = service();
      const reply = await client.post('/Users', { schemas: [USER], [`${USER}:userName`]: 'qualified', [`${ENTERPRISE}:employeeNumber`]: '99' });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body.userName).toBe('qualified');
      expect(reply.body[ENTERPRISE]).toEqual({ employeeNumber: '99' });
      expect(reply.body.schemas).toEqual([USER, ENTERPRISE]);
    });

    it('ignores the readOnly groups attribute and does not enforce canonicalValues', async () => {
      const { client } = service();
      const reply = await client.post('/Users', userBody('canon', { groups: [{ value: 'g1' }], emails: [{ value: 'c@example.com', type: 'carrier-pigeon' }] }));
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body.groups).toBeUndefined();
      expect(reply.body.emails[0].type).toBe('carrier-pigeon');
    });

    it('PATCH: an empty Operations array is 400 (RFC 7644 §3.5.2), op names ignore case', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('ops'))).body;
      expectError(await client.patch(`/Users/${created.id}`, patchBody()), 400, 'invalidValue');
      const reply = await client.patch(`/Users/${created.id}`, patchBody({ op: 'ADD', path: 'nickName', value: 'Babs' }, { op: 'rEmOvE', path: 'title' }));
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.nickName).toBe('Babs');
    });

    it('PATCH: remove with a value array removes those values (Entra)', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('multi', { emails: [{ value: 'a@x.example', type: 'work' }, { value: 'b@x.example', type: 'home' }] }))).body;
      const reply = await client.patch(`/Users/${created.id}`, patchBody({ op: 'remove', path: 'emails', value: [{ value: 'a@x.example' }] }));
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.emails.map((e: { value: string }) => e.value)).toEqual(['b@x.example']);
    });

    it('never lets __proto__, constructor or prototype reach an object in paths, filters or attribute lists', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('safe'))).body;
      expectError(await client.patch(`/Users/${created.id}`, patchBody({ op: 'add', path: '__proto__.polluted', value: true })), 400, 'invalidPath');
      expectError(await client.patch(`/Users/${created.id}`, patchBody({ op: 'add', path: 'name.constructor', value: 'x' })), 400, 'invalidPath');
      expectError(await client.get('/Users', { query: { filter: '__proto__ eq "x"' } }), 400, 'invalidFilter');
      const listed = await client.get(`/Users/${created.id}`, { query: { attributes: 'constructor,prototype,userName' } });
      expect(listed.status).toBe(200);
      expect(Object.keys(listed.body).sort()).toEqual(['id', 'schemas', 'userName']);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });
  });

  describe('GET /Users/<id>', () => {
    it('returns the user with ETag and meta.location', async () => {
      const { client, baseUrl } = service();
      const created = (await client.post('/Users', userBody('reader'))).body;
      const reply = await client.get(`/Users/${created.id}`);
      expect(reply.status).toBe(200);
      expectScimJson(reply);
      expectEtagMatchesBody(reply);
      expect(reply.body).toEqual(created);
      expect(reply.body.meta.location).toBe(`${baseUrl}/Users/${created.id}`);
      expect(reply.headers.get('location')).toBeNull();
    });

    it('honours attributes (sub-attributes, URN-qualified names) and excludedAttributes', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('proj'))).body;
      const sub = await client.get(`/Users/${created.id}`, { query: { attributes: 'name.givenName' } });
      expect(sub.body.name).toEqual({ givenName: 'Barbara' });
      expect(sub.body.id).toBe(created.id);
      expect(sub.body.userName).toBeUndefined();
      const urn = await client.get(`/Users/${created.id}`, { query: { attributes: `${USER}:userName` } });
      expect(urn.body.userName).toBe('proj');
      expect(urn.body.emails).toBeUndefined();
      const excluded = await client.get(`/Users/${created.id}`, { query: { excludedAttributes: 'name,id' } });
      expect(excluded.body.name).toBeUndefined();
      expect(excluded.body.id).toBe(created.id); // returned: always (RFC 7643 §3.1)
      const unknown = await client.get(`/Users/${created.id}`, { query: { attributes: 'userName,doesNotExist' } });
      expect(unknown.status).toBe(200);
      expect(unknown.body.userName).toBe('proj');
    });

    it('answers 404 with an empty detail for an unknown id', async () => {
      const { client } = service();
      expectError(await client.get('/Users/010101001010101011001010101011'), 404, undefined, '');
    });

    it('answers 400 invalidSyntax for attributes together with excludedAttributes', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('both'))).body;
      expectError(await client.get(`/Users/${created.id}`, { query: { attributes: 'userName', excludedAttributes: 'name' } }), 400, 'invalidSyntax');
    });
  });

  describe('PUT /Users/<id>', () => {
    it('replaces the user: attributes left out are cleared, the version changes', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('putter', { displayName: 'Babs', title: 'Tour Guide' }))).body;
      const reply = await client.put(`/Users/${created.id}`, { schemas: [USER], userName: 'putter', name: { givenName: 'Barbara' }, active: false });
      expect(reply.status).toBe(200);
      expectScimJson(reply);
      expectEtagMatchesBody(reply);
      expect(reply.body.id).toBe(created.id);
      expect(reply.body.active).toBe(false);
      expect(reply.body.name).toEqual({ givenName: 'Barbara' });
      expect(reply.body.displayName).toBeUndefined();
      expect(reply.body.title).toBeUndefined();
      expect(reply.body.emails).toBeUndefined();
      expect(reply.body.meta.version).not.toBe(created.meta.version);
      expect(reply.body.meta.created).toBe(created.meta.created);
      expect(Date.parse(reply.body.meta.lastModified)).toBeGreaterThanOrEqual(Date.parse(created.meta.lastModified));
      const read = await client.get(`/Users/${created.id}`);
      expect(read.body).toEqual(reply.body);
    });

    it('honours attributes and excludedAttributes on the response', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('putattrs'))).body;
      const only = await client.put(`/Users/${created.id}`, userBody('putattrs', { title: 'T' }), { query: { attributes: 'title' } });
      expect(only.status).toBe(200);
      expect(only.body.title).toBe('T');
      expect(only.body.id).toBe(created.id);
      expect(only.body.userName).toBeUndefined();
      // meta is not in the body, but the ETag header still names the new version.
      expect(only.headers.get('etag')).toMatch(/^W\/"/);
      expect(only.headers.get('etag')).not.toBe(created.meta.version);
      const without = await client.put(`/Users/${created.id}`, userBody('putattrs', { title: 'U' }), { query: { excludedAttributes: 'title,emails' } });
      expect(without.body.title).toBeUndefined();
      expect(without.body.emails).toBeUndefined();
      expect(without.body.userName).toBe('putattrs');
      expect((await client.get(`/Users/${created.id}`)).body.title).toBe('U');
    });

    it('ignores readOnly id and meta in the body; the URL decides which user', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('putid'))).body;
      const reply = await client.put(`/Users/${created.id}`, { ...userBody('putid'), id: 'other-id', meta: { created: '1999-01-01T00:00:00Z' }, title: 'x' });
      expect(reply.status).toBe(200);
      expect(reply.body.id).toBe(created.id);
      expect(reply.body.meta.created).toBe(created.meta.created);
      expect(reply.body.title).toBe('x');
    });

    it('keeps version and lastModified when nothing changes', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('same'))).body;
      const reply = await client.put(`/Users/${created.id}`, userBody('same'));
      expect(reply.status).toBe(200);
      expect(reply.body.meta.version).toBe(created.meta.version);
      expect(reply.body.meta.lastModified).toBe(created.meta.lastModified);
      expect(reply.headers.get('etag')).toBe(created.meta.version);
    });

    it('enforces required attributes and userName uniqueness (409)', async () => {
      const { client } = service();
      await client.post('/Users', userBody('first'));
      const second = (await client.post('/Users', userBody('second'))).body;
      expectError(await client.put(`/Users/${second.id}`, { schemas: [USER], name: { givenName: 'x' } }), 400, 'invalidValue');
      expectError(await client.put(`/Users/${second.id}`, userBody('FIRST')), 409, 'uniqueness');
      expect((await client.get(`/Users/${second.id}`)).body.userName).toBe('second');
      const own = await client.put(`/Users/${second.id}`, userBody('SECOND'));
      expect(own.status).toBe(200);
      expect(own.body.userName).toBe('SECOND');
    });

    it('answers 404 with an empty detail for an unknown id', async () => {
      const { client } = service();
      expectError(await client.put('/Users/unknown-id', userBody('nobody')), 404, undefined, '');
    });
  });

  describe('PATCH /Users/<id>', () => {
    it('applies the operations, persists and returns the user', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('patcher'))).body;
      const reply = await client.patch(
        `/Users/${created.id}`,
        patchBody(
          { op: 'replace', path: 'name.givenName', value: 'Babs' },
          { op: 'add', path: 'emails', value: [{ value: 'home@example.com', type: 'home' }] },
          { op: 'Replace', path: 'active', value: false },
        ),
      );
      expect(reply.status).toBe(200);
      expectScimJson(reply);
      expectEtagMatchesBody(reply);
      expect(reply.body.name.givenName).toBe('Babs');
      expect(reply.body.active).toBe(false);
      expect(reply.body.emails.map((e: { value: string }) => e.value)).toEqual(['patcher@example.com', 'home@example.com']);
      expect(reply.body.meta.version).not.toBe(created.meta.version);
      const read = await client.get(`/Users/${created.id}`);
      expect(read.body).toEqual(reply.body);
    });

    it('removes values and honours attributes on the response', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('remover', { title: 'Boss' }))).body;
      const reply = await client.patch(`/Users/${created.id}`, patchBody({ op: 'remove', path: 'title' }), { query: { attributes: 'title,userName' } });
      expect(reply.status).toBe(200);
      expect(reply.body.title).toBeUndefined();
      expect(reply.body.userName).toBe('remover');
      expect(reply.body.emails).toBeUndefined();
    });

    it('is atomic: one failing operation changes nothing', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('atomic'))).body;
      const reply = await client.patch(`/Users/${created.id}`, patchBody({ op: 'replace', path: 'title', value: 'Changed' }, { op: 'remove' }));
      expectError(reply, 400, 'noTarget');
      const read = await client.get(`/Users/${created.id}`);
      expect(read.body).toEqual(created);
    });

    it('answers noTarget for a replace whose filter selects nothing, mutability for readOnly paths', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('targets'))).body;
      expectError(await client.patch(`/Users/${created.id}`, patchBody({ op: 'replace', path: 'emails[type eq "home"].value', value: 'x@y' })), 400, 'noTarget');
      expectError(await client.patch(`/Users/${created.id}`, patchBody({ op: 'replace', path: 'id', value: 'new' })), 400, 'mutability');
    });

    it('keeps version and lastModified when the patch changes nothing', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('nochange'))).body;
      const reply = await client.patch(`/Users/${created.id}`, patchBody({ op: 'replace', path: 'userName', value: 'nochange' }));
      expect(reply.status).toBe(200);
      expect(reply.body.meta.version).toBe(created.meta.version);
      expect(reply.body.meta.lastModified).toBe(created.meta.lastModified);
    });

    it('setting primary on one email clears it on the others', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('primary'))).body;
      const reply = await client.patch(`/Users/${created.id}`, patchBody({ op: 'add', path: 'emails', value: [{ value: 'second@example.com', type: 'home', primary: true }] }));
      expect(reply.status).toBe(200);
      const primaries = reply.body.emails.filter((e: { primary?: boolean }) => e.primary === true);
      expect(primaries.map((e: { value: string }) => e.value)).toEqual(['second@example.com']);
    });

    it('answers 404 with an empty detail for an unknown id, 409 for a taken userName', async () => {
      const { client } = service();
      expectError(await client.patch('/Users/unknown-id', patchBody({ op: 'replace', path: 'active', value: false })), 404, undefined, '');
      await client.post('/Users', userBody('holder'));
      const other = (await client.post('/Users', userBody('other'))).body;
      expectError(await client.patch(`/Users/${other.id}`, patchBody({ op: 'replace', path: 'userName', value: 'HOLDER' })), 409, 'uniqueness');
    });
  });

  describe('DELETE /Users/<id>', () => {
    it('deletes: 204 with an empty body, then 404', async () => {
      const { client } = service();
      const created = (await client.post('/Users', userBody('deleted'))).body;
      const reply = await client.delete(`/Users/${created.id}`);
      expect(reply.status).toBe(204);
      expect(reply.text).toBe('');
      expectError(await client.get(`/Users/${created.id}`), 404, undefined, '');
      expectError(await client.delete(`/Users/${created.id}`), 404, undefined, '');
      // The userName is free again.
      expect((await client.post('/Users', userBody('deleted'))).status).toBe(201);
    });
  });
}
