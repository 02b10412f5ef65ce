import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, stopInstances, type ScimInstance } from './scim-instance.js';
import { serverDatabase } from './server-database.js';

/*
 * Two full reference servers (examples/full-server, SCIMKIT_STORE=postgres://…) on one database:
 * membership written on one is seen on the other (issue 10), with nothing shared but PostgreSQL.
 */

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
let drop: (() => Promise<void>) | undefined;
let a: ScimInstance;
let b: ScimInstance;

describe('two full servers on one PostgreSQL database', () => {
  beforeAll(async () => {
    const database = await serverDatabase();
    drop = database.drop;
    [a, b] = await Promise.all([startInstance('examples/full-server/src/main.ts', database.url), startInstance('examples/full-server/src/main.ts', database.url)]);
  }, 120_000);

  afterAll(async () => {
    await stopInstances([a, b].filter((instance) => instance !== undefined));
    await drop?.();
  }, 60_000);

  it('a member added on one instance is in User.groups on the other; deleting the user there empties the group', async () => {
    const user = await a.send('POST', '/Users', { schemas: [USER], userName: 'member' });
    expect(user.status).toBe(201);
    const group = await a.send('POST', '/Groups', { schemas: [GROUP], displayName: 'Crew' });
    expect(group.status).toBe(201);

    // The full server answers PATCH 204 unless the client asks for the resource (RFC 7240 Prefer).
    const added = await b.send('PATCH', `/Groups/${group.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: user.body.id }] }] }, { prefer: 'return=representation' });
    expect(added.status).toBe(200);
    expect(added.body.members).toEqual([{ value: user.body.id, $ref: `${b.baseUrl}/Users/${user.body.id}`, type: 'User', display: 'member' }]);

    const read = await a.send('GET', `/Users/${user.body.id}`);
    expect(read.body.groups).toEqual([{ value: group.body.id, $ref: `${a.baseUrl}/Groups/${group.body.id}`, display: 'Crew', type: 'direct' }]);
    const byMember = await a.send('GET', `/Groups?filter=${encodeURIComponent(`members.value eq "${user.body.id}"`)}`);
    expect(byMember.body.Resources.map((g: { id: string }) => g.id)).toEqual([group.body.id]);

    expect((await b.send('DELETE', `/Users/${user.body.id}`)).status).toBe(204);
    const after = await a.send('GET', `/Groups/${group.body.id}`);
    expect(after.status).toBe(200);
    expect(after.body.members).toBeUndefined();
    // The cascade wrote a new version of the group (RFC 7644 §3.14), in the delete's transaction.
    expect(after.body.meta.version).toBe('W/"3"');
    expect((await a.send('GET', `/Groups?filter=${encodeURIComponent(`members.value eq "${user.body.id}"`)}`)).body.totalResults).toBe(0);
  }, 60_000);
});
