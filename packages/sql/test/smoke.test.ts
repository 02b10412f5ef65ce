import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createScimServer, groupResourceType, URN, userResourceType } from '@scimkit/core';
import { createSqlStore, fromBetterSqlite3 } from '../src/index.js';
import { createAppSchema as createOwnTables } from '../../../examples/own-tables/src/app-schema.js';
import { mapping as ownTablesMapping } from '../../../examples/own-tables/src/mapping.js';

async function server() {
  const connection = fromBetterSqlite3(new Database(':memory:'));
  await createOwnTables(connection.db, 'sqlite');
  const store = createSqlStore({ ...connection, mapping: ownTablesMapping, unmapped: 'ignore' });
  const scim = createScimServer({
    resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }] }, groupResourceType],
    store,
  });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const [p, q] = path.split('?');
    const query = Object.fromEntries(new URLSearchParams(q ?? ''));
    const response = await scim.handle({ method, path: p ?? '', query, headers: { 'content-type': 'application/scim+json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body), baseUrl: 'http://localhost/scim/v2' } as never);
    return { status: response.status, body: response.body === undefined || response.body === '' ? undefined : JSON.parse(String(response.body)), headers: response.headers };
  };
  return { call, db: connection.db };
}

describe('smoke', () => {
  it('creates, reads, filters, patches members, sees direct SQL changes', async () => {
    const { call, db } = await server();
    const created = await call('POST', '/Users', { schemas: [URN.user], userName: 'bjensen@example.com', name: { givenName: 'Barbara' }, active: true, emails: [{ value: 'bjensen@example.com', type: 'work' }] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    const read = await call('GET', `/Users/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.userName).toBe('bjensen@example.com');
    const found = await call('GET', `/Users?filter=${encodeURIComponent('userName eq "BJENSEN@example.com"')}`);
    expect(found.body.totalResults).toBe(1);
    const group = await call('POST', '/Groups', { schemas: [URN.group], displayName: 'Admins', members: [{ value: id }] });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    const withGroups = await call('GET', `/Users/${id}`);
    expect(withGroups.body.groups?.[0]?.value).toBe(group.body.id);
    const byDisplay = await call('GET', `/Groups?filter=${encodeURIComponent('members.value eq "' + id + '"')}`);
    expect(byDisplay.body.totalResults).toBe(1);
    const etag = read.headers['ETag'] ?? read.headers['etag'];
    await sql`UPDATE users SET is_active = 0, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+1 second')`.execute(db);
    const after = await call('GET', `/Users/${id}`);
    expect(after.body.active).toBe(false);
    expect(after.headers['ETag'] ?? after.headers['etag']).not.toBe(etag);
    expect((await call('GET', '/Users/not-a-uuid')).status).toBe(404);
    const removed = await call('PATCH', `/Groups/${group.body.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }] });
    expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300);
    expect((await call('GET', `/Groups/${group.body.id}`)).body.members).toBeUndefined();
  });
});
