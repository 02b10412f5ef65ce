import type { ScimLogRecord } from '@scimkit/core';
import type { SqlConnection } from '@scimkit/sql';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppSchema, createOwnTablesApp, type OwnTablesOptions } from '../../examples/own-tables/src/index.js';
import { scimClient, type ScimClient } from './support/scim-client.js';
import { serveAtScimV2 } from './support/serve-at-scim-v2.js';
import type { StartedService } from './support/service-under-test.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ops = (...operations: unknown[]) => ({ schemas: [PATCH_OP], Operations: operations });

/** A fresh, empty database with the app's tables not yet created. */
export type FreshConnection = () => Promise<SqlConnection>;

/**
 * examples/own-tables over HTTP (Express): SCIM provisioning into the app's own users, teams and
 * team_members tables, the way Entra ID and Okta do it, and the app's own SQL seen by SCIM.
 */
export function describeOwnTables(name: string, fresh: FreshConnection): void {
  describe(`examples/own-tables over ${name}`, () => {
    let started: StartedService | undefined;
    afterEach(async () => {
      await started?.close();
      started = undefined;
    });
    const open = async (options: Pick<OwnTablesOptions, 'unmapped'> = {}): Promise<{ client: ScimClient; connection: SqlConnection; logs: ScimLogRecord[]; ignored: string[] }> => {
      const connection = await fresh();
      await createAppSchema(connection.db, connection.dialect);
      const logs: ScimLogRecord[] = [];
      const ignored: string[] = [];
      const onIgnored: OwnTablesOptions['onIgnored'] = (report) => ignored.push(`${report.resourceType} ${report.path}`);
      started = await serveAtScimV2(createOwnTablesApp({ connection, token: 'secret', logger: { log: (record) => logs.push(record) }, onIgnored, ...options }) as never);
      return { client: scimClient(started.baseUrl, { authorization: 'Bearer secret' }), connection, logs, ignored };
    };
    const entraUser = (upn: string, extra: Record<string, unknown> = {}) => ({
      schemas: [USER, ENTERPRISE],
      userName: upn,
      active: true,
      displayName: upn.split('@')[0],
      emails: [{ primary: true, type: 'work', value: upn }],
      name: { givenName: 'Given', familyName: 'Family' },
      externalId: `ext-${upn}`,
      [ENTERPRISE]: { department: 'Sales' },
      ...extra,
    });

    it('Entra creates a user into the users table, finds it by userName and by externalId, and reads it back', async () => {
      const { client, connection } = await open();
      const created = await client.post('/Users', entraUser('bjensen@example.com'));
      expect(created.status, created.text).toBe(201);
      expect(created.headers.get('etag')).toMatch(/^W\/"\d+"$/);
      const rows = await sql<{ email: string; first_name: string; department: string; external_ref: string }>`SELECT email, first_name, department, external_ref FROM users`.execute(connection.db);
      expect(rows.rows).toEqual([{ email: 'bjensen@example.com', first_name: 'Given', department: 'Sales', external_ref: 'ext-bjensen@example.com' }]);
      const byName = await client.get('/Users', { query: { filter: 'userName eq "BJensen@Example.com"' } });
      expect(byName.body.totalResults).toBe(1);
      const byExternal = await client.get('/Users', { query: { filter: 'externalId eq "ext-bjensen@example.com"' } });
      expect(byExternal.body.Resources[0].id).toBe(created.body.id);
      const read = await client.get(`/Users/${created.body.id}`);
      expect(read.body).toMatchObject({ userName: 'bjensen@example.com', active: true, emails: [{ value: 'bjensen@example.com', type: 'work' }], [ENTERPRISE]: { department: 'Sales' } });
    });

    it('answers 409 for a taken userName in another case, 404 for an id that is not a UUID, 404 for an unknown one', async () => {
      const { client } = await open();
      expect((await client.post('/Users', entraUser('alice@example.com'))).status).toBe(201);
      const clash = await client.post('/Users', entraUser('ALICE@example.com', { externalId: 'other' }));
      expect(clash.status).toBe(409);
      expect(clash.body.scimType).toBe('uniqueness');
      expect((await client.get('/Users/not-a-uuid')).status).toBe(404);
      expect((await client.get(`/Users/${globalThis.crypto.randomUUID()}`)).status).toBe(404);
      expect((await client.patch('/Users/42', ops({ op: 'replace', path: 'active', value: false }))).status).toBe(404);
    });

    it('sees the application\'s own UPDATE on the next GET, with a new ETag; If-Match with the old one is 412', async () => {
      const { client, connection } = await open();
      const created = await client.post('/Users', entraUser('carol@example.com'));
      const etag = created.headers.get('etag') ?? '';
      const later = connection.dialect === 'sqlite' ? sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+1 second')` : connection.dialect === 'mysql' ? sql`NOW(3) + INTERVAL 1 SECOND` : sql`now() + interval '1 second'`;
      await sql`UPDATE users SET is_active = ${connection.dialect === 'postgres' ? false : 0}, updated_at = ${later}`.execute(connection.db);
      const read = await client.get(`/Users/${created.body.id}`);
      expect(read.body.active).toBe(false);
      expect(read.headers.get('etag')).not.toBe(etag);
      const stale = await client.patch(`/Users/${created.body.id}`, ops({ op: 'replace', path: 'active', value: true }), { headers: { 'if-match': etag } });
      expect(stale.status).toBe(412);
      const fresh = await client.patch(`/Users/${created.body.id}`, ops({ op: 'replace', path: 'active', value: true }), { headers: { 'if-match': read.headers.get('etag') ?? '' } });
      expect(fresh.status, fresh.text).toBe(204);
    });

    it('Okta deactivates with PUT and with PATCH; a user is deleted with its memberships', async () => {
      const { client, connection } = await open();
      const created = await client.post('/Users', entraUser('dave@example.com'));
      const id = created.body.id as string;
      const put = await client.put(`/Users/${id}`, { ...entraUser('dave@example.com'), active: false });
      expect(put.status, put.text).toBe(200);
      expect(put.body.active).toBe(false);
      const team = await client.post('/Groups', { schemas: [GROUP], displayName: 'Ops', members: [{ value: id }] });
      expect(team.status, team.text).toBe(201);
      expect((await client.delete(`/Users/${id}`)).status).toBe(204);
      const left = await sql<{ n: unknown }>`SELECT count(*) AS n FROM team_members`.execute(connection.db);
      expect(Number(left.rows[0]?.n)).toBe(0);
      expect((await client.get(`/Groups/${team.body.id}`)).body.members).toBeUndefined();
    });

    it('group pushes write one team_members row per change; User.groups is computed from them', async () => {
      const { client, connection } = await open();
      const ids: string[] = [];
      for (const name of ['m1', 'm2', 'm3']) ids.push((await client.post('/Users', entraUser(`${name}@example.com`))).body.id);
      const team = await client.post('/Groups', { schemas: [GROUP], displayName: 'Engineering' });
      expect(team.status).toBe(201);
      // Entra: add members one PATCH at a time; Okta: replace the list.
      for (const id of ids.slice(0, 2)) expect((await client.patch(`/Groups/${team.body.id}`, ops({ op: 'add', path: 'members', value: [{ value: id }] }))).status).toBe(204);
      let rows = await sql<{ user_id: unknown }>`SELECT user_id FROM team_members ORDER BY user_id`.execute(connection.db);
      expect(rows.rows.map((r) => String(r.user_id)).sort()).toEqual(ids.slice(0, 2).sort());
      expect((await client.patch(`/Groups/${team.body.id}`, ops({ op: 'replace', path: 'members', value: [{ value: ids[2] }] }))).status).toBe(204);
      rows = await sql<{ user_id: unknown }>`SELECT user_id FROM team_members`.execute(connection.db);
      expect(rows.rows.map((r) => String(r.user_id))).toEqual([ids[2]]);
      const user = await client.get(`/Users/${ids[2]}`);
      expect(user.body.groups).toEqual([expect.objectContaining({ value: team.body.id, display: 'Engineering', type: 'direct' })]);
      const byMember = await client.get('/Groups', { query: { filter: `members[value eq "${ids[2]}"]`, excludedAttributes: 'members' } });
      expect(byMember.body.Resources.map((g: { id: string }) => g.id)).toEqual([team.body.id]);
      const removed = await client.patch(`/Groups/${team.body.id}`, ops({ op: 'remove', path: `members[value eq "${ids[2]}"]` }));
      expect(removed.status).toBe(204);
      expect((await client.get(`/Users/${ids[2]}`)).body.groups).toBeUndefined();
      const list = await client.get('/Users', { query: { count: 2, startIndex: 2, sortBy: 'userName' } });
      expect(list.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 2 });
      expect(list.body.Resources.map((u: { userName: string }) => u.userName)).toEqual(['m2@example.com', 'm3@example.com']);
    });

    it('advertises exactly what the tables keep in /Schemas and /ResourceTypes', async () => {
      const { client } = await open();
      const names = async (urn: string) => ((await client.get(`/Schemas/${urn}`)).body.attributes as { name: string }[]).map((a) => a.name).sort();
      // The mapped top-level attributes (externalId is common to every resource, in no schema), and the computed groups.
      expect(await names(USER)).toEqual(['active', 'displayName', 'emails', 'groups', 'name', 'title', 'userName']);
      expect(await names(ENTERPRISE)).toEqual(['department']);
      expect(await names(GROUP)).toEqual(['displayName', 'members']);
      const types = await client.get('/ResourceTypes/User');
      expect(types.body.schemaExtensions).toEqual([{ schema: ENTERPRISE, required: false }]);
    });

    it('ignores what the tables do not keep, reporting each attribute to the logger and to the hook, never silently', async () => {
      const { client, logs, ignored } = await open();
      const created = await client.post('/Users', entraUser('erin@example.com', { nickName: 'Ern', emails: [{ type: 'work', value: 'erin@example.com' }, { type: 'home', value: 'erin@home.example' }] }));
      expect(created.status, created.text).toBe(201);
      expect(created.body.nickName).toBeUndefined();
      // nickName: no served schema declares it (the core drops it); the home email: no column holds it (the store drops it).
      expect(ignored).toEqual(expect.arrayContaining(['User nickName', 'User emails']));
      expect(logs.filter((r) => r.level === 'warn' && /not kept/.test(r.message)).map((r) => r.message)).toEqual(
        expect.arrayContaining([expect.stringContaining('nickName'), expect.stringContaining('emails')]),
      );
      ignored.length = 0;
      const patched = await client.patch(`/Users/${created.body.id}`, ops({ op: 'add', path: 'nickName', value: 'E' }, { op: 'add', value: { profileUrl: 'https://x.example/e' } }, { op: 'replace', path: 'title', value: 'Lead' }));
      expect(patched.status, patched.text).toBe(204);
      expect(ignored.sort()).toEqual(['User nickName', 'User profileUrl']);
      expect((await client.get(`/Users/${created.body.id}`)).body).toMatchObject({ title: 'Lead' });
      expect((await client.get('/Users', { query: { filter: 'emails.value eq "erin@home.example"' } })).body.totalResults).toBe(0);
      expect((await client.get('/Users', { query: { filter: 'emails.value eq "ERIN@example.com"' } })).body.totalResults).toBe(1);
      // Not a served attribute: a filter on it names it (RFC 7644 §3.4.2.2).
      expect((await client.get('/Users', { query: { filter: 'nickName pr' } })).body).toMatchObject({ scimType: 'invalidFilter', detail: expect.stringContaining('nickName') });
    });

    it("under unmapped: 'reject', an attribute the tables do not keep is 400 invalidValue naming it, and nothing is written", async () => {
      const { client, connection, ignored } = await open({ unmapped: 'reject' });
      const top = await client.post('/Users', entraUser('gina@example.com', { nickName: 'G' }));
      expect(top.status).toBe(400);
      expect(top.body).toMatchObject({ scimType: 'invalidValue', detail: expect.stringContaining('nickName') });
      const element = await client.post('/Users', entraUser('gina@example.com', { emails: [{ type: 'work', value: 'gina@example.com' }, { type: 'home', value: 'g@home.example' }] }));
      expect(element.status).toBe(400);
      expect(element.body).toMatchObject({ scimType: 'invalidValue', detail: expect.stringContaining("'emails'") });
      const rows = await sql<{ n: unknown }>`SELECT count(*) AS n FROM users`.execute(connection.db);
      expect(Number(rows.rows[0]?.n)).toBe(0);
      // Entra's `primary: true` is not kept either: only the value of the work email is.
      expect((await client.post('/Users', entraUser('gina@example.com'))).body.detail).toContain("'emails'");
      const created = await client.post('/Users', entraUser('gina@example.com', { emails: [{ type: 'work', value: 'gina@example.com' }] }));
      expect(created.status, created.text).toBe(201);
      const patched = await client.patch(`/Users/${created.body.id}`, ops({ op: 'add', path: 'nickName', value: 'G' }));
      expect(patched.status).toBe(400);
      expect(patched.body.detail).toContain('nickName');
      expect(ignored).toEqual([]);
    });

    it('adopts a row the application created before SCIM when Entra creates the same userName, and logs it', async () => {
      const { client, connection, logs } = await open();
      const id = globalThis.crypto.randomUUID();
      const now = connection.dialect === 'sqlite' ? sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` : connection.dialect === 'mysql' ? sql`NOW(3)` : sql`now()`;
      await sql`INSERT INTO users (id, email, first_name, is_active, created_at, updated_at) VALUES (${id}, ${'frank@example.com'}, ${'Frank'}, ${connection.dialect === 'postgres' ? true : 1}, ${now}, ${now})`.execute(connection.db);
      const created = await client.post('/Users', entraUser('Frank@Example.com'));
      expect(created.status, created.text).toBe(201);
      expect(created.body.id).toBe(id);
      expect(created.body.externalId).toBe('ext-Frank@Example.com');
      expect(logs.some((r) => /adopted an existing User row/.test(r.message))).toBe(true);
      // Now SCIM owns it (externalId set): a second create of that name is a 409.
      expect((await client.post('/Users', entraUser('frank@example.com', { externalId: 'another' }))).status).toBe(409);
    });
  });
}
