import { PGlite } from '@electric-sql/pglite';
import { createMemoryStore, createScimServer, type ScimStore } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { createPostgresStore, fromPGlite, migrate, type SqlClient } from '@scimkit/postgres';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFullServerConfig } from '../../examples/full-server/src/index.js';
import { expectError } from './support/expect-scim.js';
import { scimClient, type ScimClient } from './support/scim-client.js';
import { serveAtScimV2 } from './support/serve-at-scim-v2.js';
import type { StartedService } from './support/service-under-test.js';

// A store may be unable to keep a value SCIM allows (StoreWriteResult `invalidValue`): PostgreSQL
// jsonb cannot hold U+0000 in a string. The write is a 400 and changes nothing; a store that can
// keep the value (the memory store) accepts it.
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const NUL = 'tab\u0000nul';
const REFUSED = /U\+0000 \(NUL\).*PostgreSQL store cannot keep/;

let pglite: SqlClient | undefined;
let schemas = 0;
beforeAll(async () => {
  pglite = fromPGlite(await PGlite.create());
}, 120_000);

async function postgresStore(): Promise<ScimStore> {
  if (pglite === undefined) throw new Error('PGlite has not started');
  const schema = `nul${++schemas}`;
  await migrate(pglite, { schema });
  return createPostgresStore({ client: pglite, schema });
}

let started: StartedService | undefined;
afterEach(async () => {
  await started?.close();
  started = undefined;
});

async function open(store: ScimStore): Promise<ScimClient> {
  started = await serveAtScimV2(createNodeHandler(createScimServer(createFullServerConfig({ patchResponse: 'resource', store })), { basePath: '/scim/v2' }));
  return scimClient(started.baseUrl);
}

const replaceTitle = (value: unknown) => ({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'title', value }] });

describe('U+0000 in a string over the PostgreSQL store', () => {
  it('POST is 400 invalidValue and creates nothing', async () => {
    const client = await open(await postgresStore());
    expectError(await client.post('/Users', { userName: 'bjensen', title: NUL }), 400, 'invalidValue', REFUSED);
    expectError(await client.post('/Users', { userName: NUL }), 400, 'invalidValue', REFUSED);
    expect((await client.get('/Users')).body.totalResults).toBe(0);
    // Nothing held on to: the userName is free.
    expect((await client.post('/Users', { userName: 'bjensen' })).status).toBe(201);
  });

  it('PATCH is 400 invalidValue and the resource keeps its values and version', async () => {
    const client = await open(await postgresStore());
    const created = await client.post('/Users', { userName: 'bjensen', title: 'Tour Guide' });
    expect(created.status, created.text).toBe(201);
    const at = `/Users/${created.body.id}`;
    expectError(await client.patch(at, replaceTitle(NUL)), 400, 'invalidValue', REFUSED);
    expectError(await client.put(at, { userName: 'bjensen', name: { givenName: NUL } }), 400, 'invalidValue', REFUSED);
    const read = await client.get(at);
    expect(read.body.title).toBe('Tour Guide');
    expect(read.body.name).toBeUndefined();
    expect(read.headers.get('etag')).toBe(created.headers.get('etag'));
  });

  it('a member element holding U+0000 is refused with the group unchanged, its other members in place', async () => {
    const client = await open(await postgresStore());
    const member = (await client.post('/Users', { userName: 'member' })).body.id as string;
    const other = (await client.post('/Users', { userName: 'other' })).body.id as string;
    const group = await client.post('/Groups', { schemas: [GROUP], displayName: 'Tour Guides', members: [{ value: member }] });
    expect(group.status, group.text).toBe(201);
    const at = `/Groups/${group.body.id}`;
    const added = await client.patch(at, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: other, display: NUL }] }] });
    expectError(added, 400, 'invalidValue', REFUSED);
    const read = await client.get(at);
    expect(read.body.members.map((m: { value: string }) => m.value)).toEqual([member]);
    expect(read.headers.get('etag')).toBe(group.headers.get('etag'));
    expect((await client.get('/Groups', { query: { filter: `members.value eq "${other}"` } })).body.totalResults).toBe(0);
  });

  it('a filter or an id holding U+0000 finds nothing and is no 500', async () => {
    const client = await open(await postgresStore());
    expect((await client.post('/Users', { userName: 'bjensen' })).status).toBe(201);
    const found = await client.get('/Users', { query: { filter: String.raw`userName eq "a\u0000b"` } });
    expect(found.status, found.text).toBe(200);
    expect(found.body.totalResults).toBe(0);
    const all = await client.get('/Users', { query: { filter: String.raw`userName ne "a\u0000b"` } });
    expect(all.body.totalResults).toBe(1);
    expectError(await client.get('/Users/a%00b'), 404);
    expectError(await client.delete('/Users/a%00b'), 404);
  });
});

describe('U+0000 in a string over the memory store', () => {
  it('is kept: POST and PATCH succeed and read back the value', async () => {
    const client = await open(createMemoryStore());
    const created = await client.post('/Users', { userName: 'bjensen', title: NUL });
    expect(created.status, created.text).toBe(201);
    const at = `/Users/${created.body.id}`;
    expect((await client.get(at)).body.title).toBe(NUL);
    const patched = await client.patch(at, replaceTitle(`${NUL}2`));
    expect(patched.status, patched.text).toBe(200);
    expect((await client.get(at)).body.title).toBe(`${NUL}2`);
  });
});
