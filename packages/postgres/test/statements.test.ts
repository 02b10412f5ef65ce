import { createScimServer, groupResourceType, userResourceType, type ScimServer } from '@scimkit/core';
import { createPostgresStore, type SqlClient, type SqlQueryable } from '@scimkit/postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSchema } from './fresh-schema.js';

/** A client that records every statement the store sends (transactions as BEGIN … COMMIT), and the names it gives them. */
function counting(inner: SqlClient): { client: SqlClient; log: string[]; names: (string | undefined)[] } {
  const log: string[] = [];
  const names: (string | undefined)[] = [];
  const record = (text: string, name?: string) => {
    log.push(text.replace(/\s+/g, ' ').trim().slice(0, 60));
    names.push(name);
  };
  const client: SqlClient = {
    query: (text, params, name) => {
      record(text, name);
      return inner.query(text, params, name);
    },
    transaction: (work) => {
      record('BEGIN');
      return inner.transaction((tx) => work({ query: (text, params, name) => (record(text, name), tx.query(text, params, name)) } satisfies SqlQueryable)).finally(() => record('COMMIT'));
    },
    ...(inner.write === undefined
      ? {}
      : {
          write: (text: string, params?: readonly unknown[], name?: string) => {
            record(text, name);
            return (inner.write as NonNullable<SqlClient['write']>)(text, params, name);
          },
        }),
  };
  return { client, log, names };
}

const BASE = 'https://scim.example.com/v2';
const json = { 'content-type': 'application/scim+json' };

let server: ScimServer;
let log: string[];
let names: (string | undefined)[];
let client: SqlClient;
let schema: string;
beforeAll(async () => {
  const fresh = await freshSchema();
  ({ client, schema } = fresh);
  const counted = counting(fresh.client);
  ({ log, names } = counted);
  const store = createPostgresStore({ client: counted.client, schema });
  server = createScimServer({ resourceTypes: [userResourceType, groupResourceType], store, baseUrl: BASE, logger: { log: () => undefined } });
}, 120_000);

async function send(method: string, path: string, body?: unknown, query: Record<string, string> = {}) {
  const response = await server.handle({ method, path, query, headers: json, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: response.body === undefined || response.body === '' ? {} : (JSON.parse(String(response.body)) as Record<string, unknown>) };
}

/** The statements one request sends. */
async function statements(run: () => Promise<unknown>): Promise<string[]> {
  log.length = 0;
  names.length = 0;
  await run();
  return [...log];
}

describe('statements per request (docs/stores/postgres.md "Statements per request")', () => {
  it('POST /Users is one statement: the row and its userName claim together', async () => {
    const sent = await statements(() => send('POST', '/Users', { userName: 'one-statement' }));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^WITH inserted AS/);
  });

  it('GET by id and userName eq are one statement each, the groups read with the user', async () => {
    const id = (await send('POST', '/Users', { userName: 'reader' })).body['id'] as string;
    const team = (await send('POST', '/Groups', { displayName: 'Readers', members: [{ value: id }] })).body['id'] as string;
    let read: Record<string, unknown> = {};
    expect(await statements(async () => (read = (await send('GET', `/Users/${id}`)).body))).toHaveLength(1);
    expect(read['groups']).toEqual([{ value: team, $ref: `${BASE}/Groups/${team}`, display: 'Readers', type: 'direct' }]);
    let listed: Record<string, unknown> = {};
    expect(await statements(async () => (listed = (await send('GET', '/Users', undefined, { filter: 'userName eq "READER"' })).body))).toHaveLength(1);
    expect(listed['totalResults']).toBe(1);
    expect((listed['Resources'] as Record<string, unknown>[])[0]?.['groups']).toEqual(read['groups']);
    // A user in no group: still one statement (the groups subquery finds nothing).
    const alone = (await send('POST', '/Users', { userName: 'alone' })).body['id'] as string;
    expect(await statements(() => send('GET', `/Users/${alone}`))).toHaveLength(1);
  });

  it('PATCH of displayName is a read and one write, and leaves the userName claim row as it was', async () => {
    const id = (await send('POST', '/Users', { userName: 'patched' })).body['id'] as string;
    const claimWriter = async () =>
      (await client.query<{ xmin: string }>(`SELECT xmin::text AS xmin FROM "${schema}".scim_unique_values WHERE id = $1`, [id])).rows.map((r) => r.xmin);
    const before = await claimWriter();
    expect(before).toHaveLength(1);
    const patch = { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'displayName', value: 'P' }] };
    let status = 0;
    const sent = await statements(async () => (status = (await send('PATCH', `/Users/${id}`, patch)).status));
    expect(status).toBe(200);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatch(/^WITH updated AS/);
    expect(await claimWriter()).toEqual(before);
    // The repeated statements are named (prepared once per connection by pg).
    expect(names.every((name) => typeof name === 'string' && name.startsWith('scimkit_'))).toBe(true);
  });

  it('a rename to a value another user holds is 409 and writes nothing; a rename to a free value moves the claim', async () => {
    const a = (await send('POST', '/Users', { userName: 'holder-a' })).body['id'] as string;
    const b = (await send('POST', '/Users', { userName: 'holder-b' })).body['id'] as string;
    const rename = (value: string) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'userName', value }] });
    const refused = await send('PATCH', `/Users/${b}`, rename('HOLDER-A'));
    expect(refused.status).toBe(409);
    expect((await send('GET', `/Users/${b}`)).body['userName']).toBe('holder-b');
    expect((await send('PATCH', `/Users/${b}`, rename('holder-c'))).status).toBe(200);
    expect((await send('POST', '/Users', { userName: 'holder-b' })).status).toBe(201);
    expect((await send('POST', '/Users', { userName: 'Holder-C' })).status).toBe(409);
    const claims = await client.query<{ key: string }>(`SELECT key FROM "${schema}".scim_unique_values WHERE id = ANY($1::text[]) ORDER BY key`, [[a, b]]);
    expect(claims.rows.map((r) => r.key)).toEqual(['s:holder-a', 's:holder-c']);
  });

  it('a page is one statement, and a count(*) of its own only when the page is full', async () => {
    for (let i = 0; i < 30; i++) await send('POST', '/Users', { userName: `paged-${String(i).padStart(2, '0')}` });
    let page: Record<string, unknown> = {};
    const full = await statements(async () => (page = (await send('GET', '/Users', undefined, { filter: 'userName sw "paged-"', count: '10', startIndex: '11' })).body));
    expect(full).toHaveLength(2);
    expect(full[1]).toMatch(/^SELECT count\(\*\) AS total/);
    expect(page['totalResults']).toBe(30);
    expect((page['Resources'] as { userName: string }[]).map((u) => u.userName)).toEqual(Array.from({ length: 10 }, (_, i) => `paged-${10 + i}`));
    // The last page is not full: it tells the total itself.
    expect(await statements(async () => (page = (await send('GET', '/Users', undefined, { filter: 'userName sw "paged-"', count: '10', startIndex: '25' })).body))).toHaveLength(1);
    expect(page['totalResults']).toBe(30);
    expect((page['Resources'] as { userName: string }[]).map((u) => u.userName)).toEqual(Array.from({ length: 6 }, (_, i) => `paged-${24 + i}`));
    const past = (await send('GET', '/Users', undefined, { filter: 'userName sw "paged-"', startIndex: '40' })).body;
    expect(past['totalResults']).toBe(30);
    const last = (await send('GET', '/Users', undefined, { filter: 'userName sw "paged-"', startIndex: '25', sortBy: 'userName', sortOrder: 'descending' })).body;
    expect(last['totalResults']).toBe(30);
    expect((last['Resources'] as { userName: string }[]).map((u) => u.userName)).toEqual(['paged-05', 'paged-04', 'paged-03', 'paged-02', 'paged-01', 'paged-00']);
    expect((await send('GET', '/Users', undefined, { filter: 'userName sw "paged-"', count: '0' })).body['totalResults']).toBe(30);
  });

  it('a delete frees the userName in its own statement; a value whose holder is gone is freed by the write that claims it', async () => {
    const id = (await send('POST', '/Users', { userName: 'freed' })).body['id'] as string;
    expect((await send('DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await client.query(`SELECT 1 FROM "${schema}".scim_unique_values WHERE id = $1`, [id])).rows).toEqual([]);
    expect((await send('POST', '/Users', { userName: 'Freed' })).status).toBe(201);
    // A claim left by a resource deleted by hand (schema version 4 has no foreign key to cascade it).
    await client.query(`INSERT INTO "${schema}".scim_unique_values (tenant, resource_type, attribute, key, id) VALUES ('', 'User', 'userName', 's:orphaned', 'gone')`);
    expect((await send('POST', '/Users', { userName: 'ORPHANED' })).status).toBe(201);
    expect((await send('POST', '/Users', { userName: 'orphaned' })).status).toBe(409);
  });
});
