import { createMemoryStore, createScimServer, type ScimResource, type ScimServer, type ScimStore } from '@scimkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createFullServerConfig, type FullServerOptions } from '../../examples/full-server/src/index.js';
import { LARGE, LARGE_GROUP_ID, largeGroupData } from './groups/large-group.js';
import { expectError } from './support/expect-scim.js';
import { scimClient, type ScimClient } from './support/scim-client.js';
import type { StartedService } from './support/service-under-test.js';

const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** Serve a configured core at `{baseUrl}` (mount path included) on 127.0.0.1 and an ephemeral port. */
export type ServeScim = (scim: ScimServer) => Promise<StartedService>;

/**
 * A fresh, empty store for one test, holding `initial` when given (default: the memory store), so
 * the suite also runs over other stores.
 */
export type FreshStore = (initial?: Readonly<Record<string, readonly ScimResource[]>>) => Promise<ScimStore>;

const memoryStore: FreshStore = async (initial) => createMemoryStore(initial === undefined ? {} : { initial });

const ops = (...operations: unknown[]) => ({ schemas: [PATCH_OP], Operations: operations });
const values = (members: { value: string }[] | undefined): string[] => (members ?? []).map((m) => m.value);

/**
 * The Groups and membership suite (docs/concepts/groups-and-membership.md, issue 9) against the full
 * server (examples/full-server) served by one adapter: every membership rule, Entra ID's and Okta's
 * group-push shapes, and a 100,000-member group.
 */
export function describeGroups(name: string, serve: ServeScim, freshStore: FreshStore = memoryStore): void {
  describe(`groups and membership over ${name}`, () => {
    let started: StartedService | undefined;
    afterEach(async () => {
      await started?.close();
      started = undefined;
    });
    // PATCH answers 200 with the group here (the full server's default is 204): the rules are read from it.
    const open = async (options: FullServerOptions = {}): Promise<ScimClient & { base: string }> => {
      const store = options.store ?? (await freshStore());
      started = await serve(createScimServer(createFullServerConfig({ patchResponse: 'resource', ...options, store })));
      return Object.assign(scimClient(started.baseUrl), { base: started.baseUrl });
    };
    const user = async (client: ScimClient, userName: string, extra: Record<string, unknown> = {}): Promise<string> => {
      const reply = await client.post('/Users', { userName, ...extra });
      expect(reply.status, reply.text).toBe(201);
      return reply.body.id as string;
    };
    const group = async (client: ScimClient, displayName: string, members?: unknown[]): Promise<string> => {
      const reply = await client.post('/Groups', { schemas: [GROUP], displayName, ...(members === undefined ? {} : { members }) });
      expect(reply.status, reply.text).toBe(201);
      return reply.body.id as string;
    };

    it('fills type, $ref and display of each member, keeping the display a client sent', async () => {
      const client = await open();
      const alice = await user(client, 'alice', { displayName: 'Alice' });
      const bob = await user(client, 'bob');
      const team = await group(client, 'Team');
      const reply = await client.post('/Groups', { displayName: 'All', members: [{ value: alice }, { value: bob, display: 'Bobby' }, { value: team }] });
      expect(reply.status).toBe(201);
      expect(reply.body.members).toEqual([
        { value: alice, $ref: `${client.base}/Users/${alice}`, type: 'User', display: 'Alice' },
        { value: bob, $ref: `${client.base}/Users/${bob}`, type: 'User', display: 'Bobby' },
        { value: team, $ref: `${client.base}/Groups/${team}`, type: 'Group', display: 'Team' },
      ]);
    });

    it('answers 400 invalidValue for a member that resolves to nothing or has another type', async () => {
      const client = await open();
      const alice = await user(client, 'alice');
      expectError(await client.post('/Groups', { displayName: 'G', members: [{ value: 'ghost-7' }] }), 400, 'invalidValue', /"ghost-7"/);
      expectError(await client.post('/Groups', { displayName: 'G', members: [{ value: alice, type: 'Banana' }] }), 400, 'invalidValue', /Banana/);
      const id = await group(client, 'G');
      expectError(await client.patch(`/Groups/${id}`, ops({ op: 'add', path: 'members', value: [{ value: 'ghost-8' }] })), 400, 'invalidValue', /"ghost-8"/);
      expect((await client.get(`/Groups/${id}`)).body.meta.version).toBe('W/"1"');
    });

    it('accepts dangling members when configured (danglingReferences: accept)', async () => {
      const client = await open({ membership: { danglingReferences: 'accept' } });
      const reply = await client.post('/Groups', { displayName: 'Early', members: [{ value: 'not-yet', display: 'Not yet' }] });
      expect(reply.status).toBe(201);
      expect(reply.body.members).toEqual([{ value: 'not-yet', display: 'Not yet' }]);
    });

    it('keeps one member for the same member sent twice', async () => {
      const client = await open();
      const alice = await user(client, 'alice');
      const id = await group(client, 'G', [{ value: alice }, { value: alice }]);
      const added = await client.patch(`/Groups/${id}`, ops({ op: 'add', path: 'members', value: [{ value: alice }] }));
      expect(added.status).toBe(200);
      expect(values(added.body.members)).toEqual([alice]);
      expect(added.body.meta.version).toBe('W/"1"');
    });

    it('refuses cycles, direct or through nested groups', async () => {
      const client = await open();
      const inner = await group(client, 'Inner');
      const outer = await group(client, 'Outer', [{ value: inner }]);
      expectError(await client.patch(`/Groups/${inner}`, ops({ op: 'add', path: 'members', value: [{ value: inner }] })), 400, 'invalidValue');
      expectError(await client.patch(`/Groups/${inner}`, ops({ op: 'add', path: 'members', value: [{ value: outer }] })), 400, 'invalidValue');
      expectError(await client.put(`/Groups/${inner}`, { displayName: 'Inner', members: [{ value: outer }] }), 400, 'invalidValue');
    });

    it("Entra ID's group push: add with a value array, remove with a value array, path-less replace", async () => {
      const client = await open();
      const [a, b, c] = [await user(client, 'a'), await user(client, 'b'), await user(client, 'c')];
      const id = await group(client, 'Entra');
      const added = await client.patch(`/Groups/${id}`, ops({ op: 'Add', path: 'members', value: [{ value: a }, { value: b }] }));
      expect(values(added.body.members)).toEqual([a, b]);
      const removed = await client.patch(`/Groups/${id}`, ops({ op: 'Remove', path: 'members', value: [{ value: a }] }));
      expect(removed.status).toBe(200);
      expect(values(removed.body.members)).toEqual([b]);
      const replaced = await client.patch(`/Groups/${id}`, ops({ op: 'Replace', value: { displayName: 'Entra 2', members: [{ value: c }] } }));
      expect(replaced.body.displayName).toBe('Entra 2');
      expect(replaced.body.members).toEqual([{ value: c, $ref: `${client.base}/Users/${c}`, type: 'User', display: 'c' }]);
    });

    it("Okta's group push: replace members [] empties the group; remove by members[value eq]", async () => {
      const client = await open();
      const [a, b] = [await user(client, 'a'), await user(client, 'b')];
      const id = await group(client, 'Okta', [{ value: a }, { value: b }]);
      const filtered = await client.patch(`/Groups/${id}`, ops({ op: 'remove', path: `members[value eq "${a}"]` }));
      expect(values(filtered.body.members)).toEqual([b]);
      const emptied = await client.patch(`/Groups/${id}`, ops({ op: 'replace', path: 'members', value: [] }));
      expect(emptied.status).toBe(200);
      expect(emptied.body.members).toBeUndefined();
      expect((await client.get(`/Users/${b}`)).body.groups).toBeUndefined();
    });

    it('computes User.groups (direct and indirect), honours excludedAttributes, filters by groups.value', async () => {
      const client = await open();
      const alice = await user(client, 'alice');
      const bob = await user(client, 'bob');
      const team = await group(client, 'Team', [{ value: alice }]);
      const org = await group(client, 'Org', [{ value: team }, { value: bob }]);
      const read = await client.get(`/Users/${alice}`);
      expect(read.body.groups).toEqual([
        { value: team, $ref: `${client.base}/Groups/${team}`, display: 'Team', type: 'direct' },
        { value: org, $ref: `${client.base}/Groups/${org}`, display: 'Org', type: 'indirect' },
      ]);
      expect((await client.get(`/Users/${alice}`, { query: { excludedAttributes: 'groups' } })).body.groups).toBeUndefined();
      const inOrg = await client.get('/Users', { query: { filter: `groups.value eq "${org}"`, sortBy: 'userName' } });
      expect(inOrg.body.Resources.map((u: { userName: string }) => u.userName)).toEqual(['alice', 'bob']);
      const byName = await client.get('/Users', { query: { filter: 'groups.display co "tea"' } });
      expect(byName.body.Resources.map((u: { userName: string }) => u.userName)).toEqual(['alice']);
      const holding = await client.get('/Groups', { query: { filter: `members.value eq "${bob}"`, excludedAttributes: 'members' } });
      expect(holding.body.Resources.map((g: { id: string }) => g.id)).toEqual([org]);
    });

    it('keeps the user ETag when only its computed groups change', async () => {
      const client = await open();
      const alice = await user(client, 'alice');
      const before = (await client.get(`/Users/${alice}`)).headers.get('etag');
      await group(client, 'Team', [{ value: alice }]);
      const after = await client.get(`/Users/${alice}`);
      expect(after.body.groups).toHaveLength(1);
      expect(after.headers.get('etag')).toBe(before);
    });

    it('removes a deleted user or group from every group, each with a new version', async () => {
      const client = await open();
      const alice = await user(client, 'alice');
      const team = await group(client, 'Team', [{ value: alice }]);
      const org = await group(client, 'Org', [{ value: team }, { value: alice }]);
      expect((await client.delete(`/Users/${alice}`)).status).toBe(204);
      const teamNow = await client.get(`/Groups/${team}`);
      expect(teamNow.body.members).toBeUndefined();
      expect(teamNow.headers.get('etag')).toBe('W/"2"');
      expect(values((await client.get(`/Groups/${org}`)).body.members)).toEqual([team]);
      expect((await client.delete(`/Groups/${team}`)).status).toBe(204);
      expect((await client.get(`/Groups/${org}`)).body.members).toBeUndefined();
    });

    it('refuses the reserved group name (beforeWrite) and names the resource in a 404', async () => {
      const client = await open();
      expectError(await client.post('/Groups', { displayName: 'Administrators' }), 400, 'invalidValue', 'The group name "Administrators" is reserved');
      expectError(await client.get('/Groups/2819c223'), 404, undefined, 'Resource 2819c223 not found');
    });

    it(`adds and removes one member of a ${LARGE.toLocaleString('en-US')}-member group`, async () => {
      // Bulk-loaded into the store (the memory store's `initial` option), not over HTTP.
      const store = await freshStore(largeGroupData('https://scim.example.com/v2'));
      started = await serve(createScimServer(createFullServerConfig({ store, patchResponse: 'resource' })));
      const client = scimClient(started.baseUrl);
      const newcomer = await user(client, 'newcomer');
      const path = `/Groups/${LARGE_GROUP_ID}`;
      const query = { excludedAttributes: 'members' };
      const added = await client.patch(path, ops({ op: 'add', path: 'members', value: [{ value: newcomer }] }), { query });
      expect(added.status, added.text).toBe(200);
      expect(added.body.members).toBeUndefined();
      expect(added.headers.get('etag')).toBe('W/"2"');
      const found = await client.get('/Groups', { query: { filter: `members.value eq "${newcomer}"`, attributes: 'displayName' } });
      expect(found.body.Resources).toEqual([expect.objectContaining({ id: LARGE_GROUP_ID, displayName: 'Everyone' })]);
      const everyone = await client.get('/Users', { query: { filter: `groups.value eq "${LARGE_GROUP_ID}"`, count: 2, attributes: 'userName' } });
      expect(everyone.body.totalResults).toBe(LARGE + 1);
      expect(everyone.body.Resources.map((u: { userName: string }) => u.userName)).toEqual(['user0', 'user1']);
      const removed = await client.patch(path, ops({ op: 'remove', path: 'members', value: [{ value: 'u5' }] }), { query });
      expect(removed.status, removed.text).toBe(200);
      expect(removed.headers.get('etag')).toBe('W/"3"');
      expect((await client.get('/Users/u5', { query: { attributes: 'groups' } })).body.groups).toBeUndefined();
      expect((await client.get(`/Users/${newcomer}`, { query: { attributes: 'groups' } })).body.groups).toEqual([
        { value: LARGE_GROUP_ID, $ref: `${started.baseUrl}${path}`, display: 'Everyone', type: 'direct' },
      ]);
    }, 120_000);
  });
}
