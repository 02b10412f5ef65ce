import { describe, expect, it } from 'vitest';
import { BASE, client, groupsServer, GROUP } from './membership-helpers.js';

describe('group members on write', () => {
  it('fills type, $ref and display from what each member resolves to, keeping a client display', async () => {
    const c = client(groupsServer());
    const alice = await c.user('alice', { displayName: 'Alice A.' });
    const bob = await c.user('bob');
    const team = await c.group('Team');
    const reply = await c.send('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'All',
      members: [{ value: alice }, { value: bob, display: 'Bobby' }, { value: team, $ref: 'https://elsewhere/x' }],
    });
    expect(reply.status).toBe(201);
    expect(reply.body['members']).toEqual([
      { value: alice, $ref: `${BASE}/Users/${alice}`, type: 'User', display: 'Alice A.' },
      { value: bob, $ref: `${BASE}/Users/${bob}`, type: 'User', display: 'Bobby' },
      { value: team, $ref: `${BASE}/Groups/${team}`, type: 'Group', display: 'Team' },
    ]);
    const read = await c.send('GET', `/Groups/${reply.body['id']}`);
    expect(read.body['members']).toEqual(reply.body['members']);
  });

  it('answers 400 invalidValue naming a member that resolves to nothing, and stores nothing', async () => {
    const c = client(groupsServer());
    const reply = await c.send('POST', '/Groups', { schemas: [GROUP], displayName: 'G', members: [{ value: 'ghost-1' }] });
    expect(reply.status).toBe(400);
    expect(reply.body['scimType']).toBe('invalidValue');
    expect(reply.body['detail']).toContain('"ghost-1"');
    expect((await c.send('GET', '/Groups')).body['totalResults']).toBe(0);
  });

  it('accepts dangling references when configured, stored as sent', async () => {
    const c = client(groupsServer({ membership: { danglingReferences: 'accept' } }));
    const reply = await c.send('POST', '/Groups', { schemas: [GROUP], displayName: 'G', members: [{ value: 'later', display: 'Later' }] });
    expect(reply.status).toBe(201);
    expect(reply.body['members']).toEqual([{ value: 'later', display: 'Later' }]);
  });

  it('refuses a member type that is not User or Group, and looks a given type up only there', async () => {
    const c = client(groupsServer());
    const alice = await c.user('alice');
    const banana = await c.send('POST', '/Groups', { schemas: [GROUP], displayName: 'G', members: [{ value: alice, type: 'Banana' }] });
    expect(banana.status).toBe(400);
    expect(banana.body['scimType']).toBe('invalidValue');
    expect(banana.body['detail']).toContain('Banana');
    const wrong = await c.send('POST', '/Groups', { schemas: [GROUP], displayName: 'G', members: [{ value: alice, type: 'Group' }] });
    expect(wrong.status).toBe(400);
    expect(wrong.body['scimType']).toBe('invalidValue');
    // The detail says what the id is and that the given type disagrees.
    expect(wrong.body['detail']).toBe(`members: member "${alice}" is the id of a User, but its "type" says Group; give "type": "User" or leave "type" out`);
    const group = (await c.send('POST', '/Groups', { schemas: [GROUP], displayName: 'Team' })).body['id'];
    const patched = await c.send('PATCH', `/Groups/${group}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'add', path: 'members', value: [{ value: group, type: 'User' }] }] });
    expect(patched.status).toBe(400);
    expect(patched.body['detail']).toContain(`"${group}" is the id of a Group, but its "type" says User`);
    const right = await c.send('POST', '/Groups', { schemas: [GROUP], displayName: 'G', members: [{ value: alice, type: 'user' }] });
    expect(right.status).toBe(201);
    expect(right.body['members'][0].type).toBe('User');
  });

  it('refuses a member without a value', async () => {
    const c = client(groupsServer());
    const reply = await c.send('POST', '/Groups', { schemas: [GROUP], displayName: 'G', members: [{ display: 'nobody' }] });
    expect(reply.status).toBe(400);
    expect(reply.body['scimType']).toBe('invalidValue');
  });

  it('keeps one member for the same member listed twice (POST, PUT, PATCH)', async () => {
    const c = client(groupsServer());
    const alice = await c.user('alice');
    const bob = await c.user('bob');
    const created = await c.send('POST', '/Groups', { schemas: [GROUP], displayName: 'G', members: [{ value: alice }, { value: alice, display: 'again' }] });
    const id = created.body['id'] as string;
    expect(created.body['members'].map((m: { value: string }) => m.value)).toEqual([alice]);
    const put = await c.send('PUT', `/Groups/${id}`, { schemas: [GROUP], displayName: 'G', members: [{ value: bob }, { value: bob }, { value: alice }] });
    expect(put.body['members'].map((m: { value: string }) => m.value)).toEqual([bob, alice]);
    const patched = await c.patch(`/Groups/${id}`, { op: 'replace', path: 'members', value: [{ value: alice }, { value: alice }] });
    expect(patched.status).toBe(200);
    expect(patched.body['members'].map((m: { value: string }) => m.value)).toEqual([alice]);
    const added = await c.patch(`/Groups/${id}`, { op: 'add', path: 'members', value: [{ value: bob }, { value: bob }, { value: alice }] });
    expect(added.body['members'].map((m: { value: string }) => m.value)).toEqual([alice, bob]);
  });

  it('refuses a group that would contain itself, directly or through nested groups (POST, PUT, PATCH)', async () => {
    const c = client(groupsServer());
    const a = await c.group('A');
    const b = await c.group('B', [{ value: a }]);
    const top = await c.group('Top', [{ value: b }]);
    const self = await c.patch(`/Groups/${a}`, { op: 'add', path: 'members', value: [{ value: a }] });
    expect(self.status).toBe(400);
    expect(self.body['scimType']).toBe('invalidValue');
    const indirect = await c.patch(`/Groups/${a}`, { op: 'add', path: 'members', value: [{ value: top }] });
    expect(indirect.status).toBe(400);
    expect(indirect.body['detail']).toContain(top);
    const put = await c.send('PUT', `/Groups/${a}`, { schemas: [GROUP], displayName: 'A', members: [{ value: b }] });
    expect(put.status).toBe(400);
    // Nesting without a cycle is fine.
    const other = await c.group('Other');
    expect((await c.patch(`/Groups/${a}`, { op: 'add', path: 'members', value: [{ value: other }] })).status).toBe(200);
    expect((await c.send('GET', `/Groups/${a}`)).body['meta'].version).toBe('W/"2"');
  });

  it('applies every PATCH shape of Entra ID and Okta, filling added members', async () => {
    const c = client(groupsServer());
    const [u1, u2, u3] = [await c.user('u1'), await c.user('u2'), await c.user('u3')];
    const id = await c.group('G');
    const values = async () => ((await c.send('GET', `/Groups/${id}`)).body['members'] ?? []).map((m: { value: string }) => m.value);
    // Entra: add with a value array (capitalized op).
    const added = await c.patch(`/Groups/${id}`, { op: 'Add', path: 'members', value: [{ value: u1 }, { value: u2, display: 'Two' }] });
    expect(added.status).toBe(200);
    expect(added.body['members']).toEqual([
      { value: u1, $ref: `${BASE}/Users/${u1}`, type: 'User', display: 'u1' },
      { value: u2, $ref: `${BASE}/Users/${u2}`, type: 'User', display: 'Two' },
    ]);
    // Entra: remove with a value array.
    expect((await c.patch(`/Groups/${id}`, { op: 'Remove', path: 'members', value: [{ value: u1 }] })).status).toBe(200);
    expect(await values()).toEqual([u2]);
    // A value filter.
    expect((await c.patch(`/Groups/${id}`, { op: 'add', path: 'members', value: [{ value: u3 }] })).status).toBe(200);
    expect((await c.patch(`/Groups/${id}`, { op: 'remove', path: `members[value eq "${u2}"]` })).status).toBe(200);
    expect(await values()).toEqual([u3]);
    // Path-less replace (Entra) and Okta's replace of the whole list.
    const pathless = await c.patch(`/Groups/${id}`, { op: 'replace', value: { displayName: 'G2', members: [{ value: u1 }] } });
    expect(pathless.status).toBe(200);
    expect(pathless.body['members']).toEqual([{ value: u1, $ref: `${BASE}/Users/${u1}`, type: 'User', display: 'u1' }]);
    expect((await c.patch(`/Groups/${id}`, { op: 'replace', path: 'members', value: [] })).status).toBe(200);
    expect(await values()).toEqual([]);
    // Unknown members are refused in a PATCH too, and nothing of the request is kept.
    const ghost = await c.patch(`/Groups/${id}`, { op: 'add', path: 'members', value: [{ value: u1 }, { value: 'ghost' }] });
    expect(ghost.status).toBe(400);
    expect(ghost.body['detail']).toContain('"ghost"');
    expect(await values()).toEqual([]);
  });

  it('keeps stored members as stored on PUT, with a new client display', async () => {
    const c = client(groupsServer());
    const alice = await c.user('alice');
    const id = await c.group('G', [{ value: alice }]);
    const put = await c.send('PUT', `/Groups/${id}`, { schemas: [GROUP], displayName: 'G', members: [{ value: alice, display: 'Ally' }] });
    expect(put.body['members']).toEqual([{ value: alice, $ref: `${BASE}/Users/${alice}`, type: 'User', display: 'Ally' }]);
  });

  it('keeps stored members as stored on a PATCH replace of the whole list, with a new client display', async () => {
    const c = client(groupsServer());
    const [alice, bob] = [await c.user('alice'), await c.user('bob')];
    const id = await c.group('G', [{ value: alice }]);
    const replaced = await c.patch(`/Groups/${id}`, { op: 'replace', path: 'members', value: [{ value: alice, display: 'Ally' }, { value: bob }] });
    expect(replaced.status).toBe(200);
    expect(replaced.body['members']).toEqual([
      { value: alice, $ref: `${BASE}/Users/${alice}`, type: 'User', display: 'Ally' },
      { value: bob, $ref: `${BASE}/Users/${bob}`, type: 'User', display: 'bob' },
    ]);
    // Adding a member that is already there changes nothing (RFC 7644 §3.5.2.1), whatever display it carries.
    const again = await c.patch(`/Groups/${id}`, { op: 'add', path: 'members', value: [{ value: bob, display: 'Robert' }] });
    expect(again.body['members'][1].display).toBe('bob');
    expect(again.body['meta'].version).toBe('W/"2"');
  });

  it('membership: false stores members as sent', async () => {
    const c = client(groupsServer({ membership: false }));
    const reply = await c.send('POST', '/Groups', { schemas: [GROUP], displayName: 'G', members: [{ value: 'anything' }] });
    expect(reply.status).toBe(201);
    expect(reply.body['members']).toEqual([{ value: 'anything' }]);
  });
});
