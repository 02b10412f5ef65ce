import { createMemoryStore } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { createSeedService } from '../../../examples/seed-service/src/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createScimClient,
  elementFilter,
  patchOps,
  ScimPreconditionFailedError,
  ScimResponseError,
  SCIM_URN,
  userFilter,
  type ScimClient,
  type ScimExchange,
  type ScimUser,
} from '../src/index.js';
import { listen, serveFullServer, type Served } from './support/serve.js';

const TOKEN = 'client-test-token';
let served: Served;
let client: ScimClient;
const exchanges: ScimExchange[] = [];

beforeAll(async () => {
  served = await serveFullServer({ token: TOKEN, cursorSecret: 'a-cursor-secret-of-at-least-32-characters' });
  client = createScimClient({ baseUrl: served.url, auth: TOKEN, onExchange: (exchange) => exchanges.push(exchange) });
});
afterAll(() => served.close());

const user = (userName: string, extra: Partial<ScimUser> = {}): ScimUser => ({ schemas: [SCIM_URN.user], userName, ...extra });

describe('@scimkit/client against the full server', () => {
  it('discovers the service (RFC 7644 §4)', async () => {
    const discovery = await client.discover();
    expect(discovery.serviceProviderConfig.bulk?.supported).toBe(true);
    expect(discovery.serviceProviderConfig.pagination?.cursor).toBe(true);
    expect(discovery.schemas.map((schema) => schema.id)).toContain(SCIM_URN.user);
    expect(discovery.resourceTypes.map((type) => type.endpoint)).toEqual(expect.arrayContaining(['/Users', '/Groups']));
  });

  it('creates, reads, replaces, patches and deletes a user; ETags go back as If-Match', async () => {
    const created = await client.users.create(user('crud.user', { name: { givenName: 'Ada', familyName: 'Lovelace' }, emails: [{ value: 'ada@example.com', type: 'work', primary: true }] }));
    expect(created.id).toBeTypeOf('string');
    expect(created.meta?.version).toMatch(/^W\//);
    const read = await client.users.get(created.id!, { attributes: ['userName'] });
    expect(read.userName).toBe('crud.user');
    expect(read.name).toBeUndefined();

    const replaced = await client.users.replace({ ...created, displayName: 'Ada L.' });
    expect(exchanges.at(-1)?.request.headers['if-match']).toBe(created.meta?.version);
    expect(replaced.displayName).toBe('Ada L.');

    // The full server answers PATCH 204; returnResource asks for the resource (Prefer: return=representation).
    expect(await client.users.patch(replaced, patchOps().replace('active', false))).toBeUndefined();
    const patched = await client.users.patch(created.id!, patchOps().replace({ attribute: 'emails', filter: elementFilter.eq('type', 'work'), sub: 'value' }, 'ada@lovelace.org'), { returnResource: true });
    expect(patched?.emails?.[0]?.value).toBe('ada@lovelace.org');
    expect(patched?.active).toBe(false);

    // The old version no longer matches: 412 as a typed error (RFC 7644 §3.14).
    const stale = await client.users.replace({ ...replaced, title: 'stale' }).catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(ScimPreconditionFailedError);
    expect((stale as ScimPreconditionFailedError).status).toBe(412);

    expect(await client.users.getIfChanged(created.id!, patched!.meta!.version!)).toBeUndefined();
    await client.users.delete(patched!);
    const gone = await client.users.get(created.id!).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(ScimResponseError);
    expect((gone as ScimResponseError).status).toBe(404);
  });

  it('turns SCIM errors into typed errors with status, scimType and detail (RFC 7644 §3.12)', async () => {
    await client.users.create(user('dup.user'));
    const error = (await client.users.create(user('DUP.user')).catch((e: unknown) => e)) as ScimResponseError;
    expect(error).toBeInstanceOf(ScimResponseError);
    expect(error.status).toBe(409);
    expect(error.scimType).toBe('uniqueness');
    expect(error.detail).toMatch(/userName/);
    const bad = (await client.users.list({ filter: 'userName eq' }).toArray().catch((e: unknown) => e)) as ScimResponseError;
    expect([bad.status, bad.scimType]).toEqual([400, 'invalidFilter']);
  });

  it('walks every page by index and by cursor (RFC 7644 §3.4.2.4, RFC 9865)', async () => {
    for (let i = 0; i < 7; i++) await client.users.create(user(`page.${i}`));
    const filter = userFilter.sw('userName', 'page.');
    const seen = exchanges.length;
    const byIndex = await client.users.list({ filter, pageSize: 3, paging: 'index', sortBy: 'userName' }).toArray();
    expect(byIndex.map((u) => u.userName)).toEqual(['page.0', 'page.1', 'page.2', 'page.3', 'page.4', 'page.5', 'page.6']);
    expect(exchanges.slice(seen).map((e) => new URL(e.request.url).searchParams.get('startIndex'))).toEqual(['1', '4', '7']);

    const before = exchanges.length;
    const byCursor: string[] = [];
    for await (const found of client.users.list({ filter, pageSize: 3, sortBy: 'userName' })) byCursor.push(found.userName!);
    expect(byCursor).toEqual(byIndex.map((u) => u.userName));
    const cursors = exchanges.slice(before).filter((e) => e.request.url.includes('/Users?')).map((e) => new URL(e.request.url).searchParams.get('cursor'));
    expect(cursors).toHaveLength(3);
    expect(cursors[0]).toBe('');

    const searched = await client.users.search({ filter, pageSize: 2, paging: 'cursor' }).toArray();
    expect(searched).toHaveLength(7);
    const pages = [];
    for await (const page of client.users.search({ filter, pageSize: 5, paging: 'index' }).pages()) pages.push(page.resources.length);
    expect(pages).toEqual([5, 2]);
    expect(await client.search({ filter: userFilter.eq('userName', 'page.3') }).toArray()).toHaveLength(1);
  });

  it('sends a Bulk request whose group refers to a user by bulkId (RFC 7644 §3.7.2)', async () => {
    const bulk = client.bulk();
    const ref = bulk.create('/Users', user('bulk.member'));
    bulk.create('/Groups', { schemas: [SCIM_URN.group], displayName: 'Bulk group', members: [{ value: ref }] }, 'group');
    const result = await client.sendBulk(bulk, { failOnErrors: 1 });
    expect(result.operations.map((op) => op.status)).toEqual([201, 201]);
    const memberId = result.idOf(ref)!;
    const group = await client.groups.get(result.idOf('group')!);
    expect(group.members?.map((m) => m.value)).toEqual([memberId]);
    const member = await client.users.get(memberId);
    expect(member.groups?.map((g) => g.value)).toEqual([group.id]);
  });

  it('groups: add and remove members with PATCH', async () => {
    const a = await client.users.create(user('member.a'));
    const group = await client.groups.create({ schemas: [SCIM_URN.group], displayName: 'Team' });
    await client.groups.patch(group, patchOps().add('members', [{ value: a.id }]));
    expect((await client.groups.get(group.id!)).members).toHaveLength(1);
    await client.groups.patch(group.id!, patchOps().remove({ attribute: 'members', filter: elementFilter.eq('value', a.id!) }));
    expect((await client.groups.get(group.id!)).members ?? []).toHaveLength(0);
  });

  it('/Me answers for a personal token (RFC 7644 §3.11): read, patch, replace, delete', async () => {
    const meta = { resourceType: 'User', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' };
    const store = createMemoryStore({ initial: { User: [{ schemas: [SCIM_URN.user], id: 'me-1', userName: 'me.user', meta }] } });
    const personal = await serveFullServer({ token: TOKEN, store, userTokens: [{ token: 'personal', userId: 'me-1' }] });
    try {
      const me = createScimClient({ baseUrl: personal.url, auth: 'personal' }).me;
      const read = await me.read();
      expect([read.id, read.userName]).toEqual(['me-1', 'me.user']);
      expect(await me.update(patchOps().replace('displayName', 'Me Myself'), { returnResource: true })).toMatchObject({ displayName: 'Me Myself' });
      const current = await me.read();
      expect((await me.put({ ...current, title: 'Self' })).title).toBe('Self');
      await me.remove();
      const gone = await me.read().catch((e: unknown) => e);
      expect((gone as ScimResponseError).status).toBe(404);
      // The client token stands for no user: /Me is 404 for it.
      const forClient = await createScimClient({ baseUrl: personal.url, auth: TOKEN }).me.read().catch((e: unknown) => e);
      expect((forClient as ScimResponseError).status).toBe(404);
    } finally {
      await personal.close();
    }
  });

  it('reads /ServiceProviderConfig once and keeps it; refresh reads it again', async () => {
    const fresh = createScimClient({ baseUrl: served.url, auth: TOKEN, onExchange: (exchange) => exchanges.push(exchange) });
    const before = exchanges.length;
    const [first, second] = await Promise.all([fresh.serviceProviderConfig(), fresh.serviceProviderConfig()]);
    expect(second).toBe(first);
    // paging 'auto' asks the kept config, not the server; toArray(1) stops at the page that holds one.
    expect(await fresh.users.list({ pageSize: 1 }).toArray(1)).toHaveLength(1);
    await fresh.serviceProviderConfig({ refresh: true });
    expect(exchanges.slice(before).map((e) => new URL(e.request.url).pathname.split('/').pop())).toEqual(['ServiceProviderConfig', 'Users', 'ServiceProviderConfig']);
    expect(() => fresh.resource('Devices')).toThrow(TypeError);
  });

  it("a hostile filter value reaches the server as one string: it matches nothing, it adds no syntax", async () => {
    await client.users.create(user('victim.one'));
    const hostile = 'x" or userName pr or userName eq "';
    expect(await client.users.list({ filter: userFilter.eq('userName', hostile) }).toArray()).toEqual([]);
    expect(new URL(exchanges.at(-1)!.request.url).searchParams.get('filter')).toBe('userName eq "x\\" or userName pr or userName eq \\""');
    // The same text concatenated by hand would have matched every user.
    expect((await client.users.list({ filter: `userName eq "${hostile}"` }).toArray()).length).toBeGreaterThan(0);
  });

  it('delete and patch send If-Match from the resource read: a stale one is ScimPreconditionFailedError, nothing changes', async () => {
    const created = await client.users.create(user('etag.stale'));
    const current = await client.users.replace({ ...created, title: 'v2' });
    for (const attempt of [() => client.users.delete(created), () => client.users.patch(created, patchOps().replace('title', 'lost'))]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ScimPreconditionFailedError);
      expect(exchanges.at(-1)?.request.headers['if-match']).toBe(created.meta?.version);
    }
    expect((await client.users.get(current.id!)).title).toBe('v2');
    // If-None-Match of the old version: the resource changed, so it comes back (RFC 7232 §3.2).
    expect((await client.users.getIfChanged(created.id!, created.meta!.version!))?.meta?.version).toBe(current.meta?.version);
    // ifMatch: false writes unconditionally.
    await client.users.delete(created, { ifMatch: false });
    expect(exchanges.at(-1)?.request.headers['if-match']).toBeUndefined();
  });

  it("paging 'auto' pages by index on a server that does not advertise cursors", async () => {
    const seed = await listen(createNodeHandler(createSeedService(), { basePath: '/scim/v2' }));
    try {
      const seen: string[] = [];
      const plain = createScimClient({ baseUrl: `${seed.url}/scim/v2`, onExchange: (exchange) => seen.push(exchange.request.url) });
      expect((await plain.serviceProviderConfig()).pagination?.cursor).not.toBe(true);
      for (let i = 0; i < 3; i++) await plain.users.create(user(`seed.${i}`));
      expect((await plain.users.list({ pageSize: 2 }).toArray()).map((u) => u.userName).sort()).toEqual(['seed.0', 'seed.1', 'seed.2']);
      const pages = seen.filter((url) => /\/Users\?/.test(url)).map((url) => new URL(url).searchParams);
      expect(pages.map((query) => [query.get('startIndex'), query.has('cursor')])).toEqual([['1', false], ['3', false]]);
    } finally {
      await seed.close();
    }
  });
});
