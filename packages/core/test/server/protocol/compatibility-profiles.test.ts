import { describe, expect, it } from 'vitest';
import { COMPATIBILITY_PROFILES, createMemoryStore, createScimServer, groupResourceType, URN, userResourceType, type CompatibilityConfig } from '../../../src/index.js';
import { call, post } from '../helpers.js';

const ENTERPRISE = URN.enterpriseUser;
const target = (compatibility?: CompatibilityConfig) =>
  createScimServer({ resourceTypes: [userResourceType, groupResourceType], store: createMemoryStore(), logger: { log: () => undefined }, ...(compatibility === undefined ? {} : { compatibility }) });
const patch = (path: string, Operations: unknown[], contentType = 'application/scim+json') => ({
  method: 'PATCH',
  path,
  headers: { 'content-type': contentType },
  body: JSON.stringify({ schemas: [URN.patchOp], Operations }),
});

// Microsoft Entra ID's user create and update, as its provisioning service sends them.
const entraUser = {
  schemas: [URN.user, ENTERPRISE],
  externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
  userName: 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1',
  active: 'True',
  displayName: 'Test User',
  emails: [{ Primary: true, type: 'work', value: 'Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com' }],
  name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
  [ENTERPRISE]: { department: 'Sales' },
  roles: [],
};
const entraUpdate = [
  { op: 'Replace', path: 'displayName', value: 'Renamed' },
  { op: 'Replace', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' },
  { op: 'Add', path: 'addresses[type eq "work"].streetAddress', value: '1 Main St' },
  { op: 'Replace', path: 'active', value: 'False' },
  { op: 'Add', path: `${ENTERPRISE}:manager`, value: 'manager-id-123' },
  { op: 'Replace', value: { 'name.givenName': 'Given', [`${ENTERPRISE}:employeeNumber`]: '42' } },
];

describe('compatibility profiles', () => {
  it('spell out every tolerance; options given next to a profile override it', () => {
    expect(Object.keys(COMPATIBILITY_PROFILES).sort()).toEqual(['entra', 'okta', 'strict']);
    for (const profile of Object.values(COMPATIBILITY_PROFILES)) expect(Object.keys(profile).sort()).toEqual(Object.keys(COMPATIBILITY_PROFILES.entra).sort());
    expect(Object.values(COMPATIBILITY_PROFILES.strict).every((on) => on === false)).toBe(true);
    // entra: every tolerance Entra ID and its validator need; omitPaginationConfig serves another client.
    const { omitPaginationConfig, ...entra } = COMPATIBILITY_PROFILES.entra;
    expect(omitPaginationConfig).toBe(false);
    expect(Object.values(entra).every((on) => on === true)).toBe(true);
    expect(() => target('azure' as CompatibilityConfig)).toThrow(TypeError);
  });

  it("'entra' accepts Entra ID's create and update, including replace on a missing value path", async () => {
    const server = target('entra');
    const created = await call(server, post('/Users', entraUser));
    expect(created.status).toBe(201);
    expect(created.body['active']).toBe(true);
    const id = created.body['id'];
    const updated = await call(server, patch(`/Users/${id}`, entraUpdate));
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      displayName: 'Renamed',
      active: false,
      phoneNumbers: [{ type: 'mobile', value: '+1 555 0100' }],
      addresses: [{ type: 'work', streetAddress: '1 Main St' }],
      name: { givenName: 'Given' },
      [ENTERPRISE]: { manager: { value: 'manager-id-123' }, employeeNumber: '42' },
    });
    // The Microsoft SCIM validator: an empty Operations array, and unquoted filter values.
    expect((await call(server, patch(`/Users/${id}`, []))).status).toBe(200);
    const found = await call(server, { method: 'GET', path: '/Users', query: { filter: `userName eq ${entraUser.userName}` } });
    expect(found.body['totalResults']).toBe(1);
  });

  it('the defaults accept the update except replace on a missing value path; a profile option can be turned back off', async () => {
    const plain = target();
    const id = (await call(plain, post('/Users', entraUser))).body['id'];
    expect((await call(plain, patch(`/Users/${id}`, entraUpdate))).body).toMatchObject({ status: '400', scimType: 'noTarget' });
    const tuned = target({ profile: 'entra', createMissingValuePath: false });
    const other = (await call(tuned, post('/Users', entraUser))).body['id'];
    expect((await call(tuned, patch(`/Users/${other}`, entraUpdate))).body).toMatchObject({ scimType: 'noTarget' });
    expect((await call(tuned, patch(`/Users/${other}`, []))).status).toBe(200);
  });

  it("'strict' gives the RFC answer to every bent shape", async () => {
    const server = target('strict');
    expect((await call(server, post('/Users', entraUser))).body).toMatchObject({ status: '400', scimType: 'invalidValue' });
    const id = (await call(server, post('/Users', { ...entraUser, active: true }))).body['id'];
    expect((await call(server, patch(`/Users/${id}`, [{ op: 'Add', path: `${ENTERPRISE}:manager`, value: 'm' }]))).body).toMatchObject({ scimType: 'invalidValue' });
    expect((await call(server, patch(`/Users/${id}`, []))).body).toMatchObject({ scimType: 'invalidValue' });
    expect((await call(server, { method: 'GET', path: '/Users', query: { filter: 'userName eq x' } })).body).toMatchObject({ scimType: 'invalidFilter' });
    // add on a missing value path is the RFC's own rule (§3.5.2.1), so strict keeps it.
    const added = await call(server, patch(`/Users/${id}`, [{ op: 'add', path: 'phoneNumbers[type eq "mobile"].value', value: '1' }]));
    expect(added.body['phoneNumbers']).toEqual([{ type: 'mobile', value: '1' }]);
  });

  it("'okta' accepts Okta's user lifecycle and group pushes (application/json, path-less replace, id in a value)", async () => {
    const server = target('okta');
    const json = { 'content-type': 'application/json' };
    const created = await call(server, {
      method: 'POST',
      path: '/Users',
      headers: json,
      body: JSON.stringify({
        schemas: [URN.user],
        userName: 'okta.user@example.com',
        name: { givenName: 'Okta', familyName: 'User' },
        emails: [{ primary: true, value: 'okta.user@example.com', type: 'work' }],
        displayName: 'Okta User',
        locale: 'en-US',
        externalId: '00u1abcd',
        groups: [],
        password: '1mz050nq',
        active: true,
      }),
    });
    expect(created.status).toBe(201);
    const deactivated = await call(server, patch(`/Users/${created.body['id']}`, [{ op: 'replace', value: { active: false } }], 'application/json'));
    expect(deactivated.body['active']).toBe(false);
    const group = await call(server, post('/Groups', { schemas: [URN.group], displayName: 'Test SCIMv2', members: [] }));
    const gid = group.body['id'];
    const renamed = await call(server, patch(`/Groups/${gid}`, [{ op: 'replace', value: { id: gid, displayName: 'Renamed' } }]));
    expect(renamed.body['displayName']).toBe('Renamed');
    const members = await call(server, patch(`/Groups/${gid}`, [{ op: 'add', path: 'members', value: [{ value: created.body['id'], display: 'okta.user@example.com' }] }]));
    expect(members.body['members']).toEqual([expect.objectContaining({ value: created.body['id'] })]);
    const removed = await call(server, patch(`/Groups/${gid}`, [{ op: 'remove', path: `members[value eq "${created.body['id']}"]` }]));
    expect(removed.body['members']).toBeUndefined();
  });
});

describe('compatibility profiles per tenant', () => {
  it("a tenant's profile replaces the server's tolerances; its options apply over the server's", async () => {
    const server = createScimServer({
      resourceTypes: [userResourceType],
      store: createMemoryStore(),
      logger: { log: () => undefined },
      compatibility: 'strict',
      authenticate: (request) => ({ ok: true, tenant: String(request.headers?.['x-tenant']) }),
      tenancy: {
        configure: (tenant) =>
          tenant === 'entra'
            ? { resourceTypes: [userResourceType], compatibility: 'entra' }
            : tenant === 'partial'
              ? { resourceTypes: [userResourceType], compatibility: { stringBooleans: true } }
              : undefined,
      },
    });
    const create = (tenant: string) => call(server, post('/Users', { ...entraUser, [ENTERPRISE]: undefined, schemas: [URN.user] }, { headers: { 'content-type': 'application/scim+json', 'x-tenant': tenant } }));
    expect((await create('plain')).status).toBe(400);
    expect((await create('entra')).status).toBe(201);
    expect((await create('partial')).status).toBe(201);
    const filter = (tenant: string) => call(server, { method: 'GET', path: '/Users', query: { filter: 'userName eq x' }, headers: { 'x-tenant': tenant } });
    expect((await filter('entra')).status).toBe(200);
    expect((await filter('partial')).body).toMatchObject({ scimType: 'invalidFilter' });
  });
});
