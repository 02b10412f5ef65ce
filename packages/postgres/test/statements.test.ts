import { createScimServer, groupResourceType, userResourceType, type ScimServer } from '@scimkit/core';
import { createPostgresStore, type SqlClient, type SqlQueryable } from '@scimkit/postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSchema } from './fresh-schema.js';

/** A client that records every statement the store sends (transactions as BEGIN … COMMIT), and the names it gives them. */
function counting(inner: SqlClient): { client: SqlClient; log: string[]; names: (string | undefined)[] } {
  const log: string[] = [];
  const names: (string | undefined)[] = [];
  const record = (text: string, name?: string) => {
    log.push(text.replace(/\s+/g, ' ').trim().slice(0, 4000));
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
  server = createScimServer({ resourceTypes: [userResourceType, groupResourceType], store, baseUrl: BASE, logger: { log: () => undefined }, recentVersions: { maxEntries: 10_000 } });
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
  it('POST /Users is one statement: the row with its userName key, no unique-value row, and its type\'s count change', async () => {
    let id = '';
    const sent = await statements(async () => (id = (await send('POST', '/Users', { userName: 'One-Statement' })).body['id'] as string));
    expect(sent).toHaveLength(1);
    // One create in 64 (by a hash of its random id) also folds its type's count changes into the
    // total, in the same statement (createSql's `fold`): either form is one statement.
    const plain = /^WITH inserted AS \(INSERT INTO \S+scim_resources\S* \(.*\) INSERT INTO \S+scim_resource_count_changes\S* \(tenant, resource_type, n\) SELECT \$1, \$2, 1 FROM inserted RETURNING 1 AS written$/s;
    if (!plain.test(sent[0] as string)) {
      expect(sent[0]).toMatch(/^WITH inserted AS \(\s*INSERT INTO \S+scim_resources\S* \(.*scim_resource_count_changes.*scim_resource_counts.*SELECT \(SELECT count\(\*\) FROM inserted\)::int AS written$/s);
    }
    expect(sent[0]).not.toMatch(/scim_unique_values/);
    expect(await keys([id])).toEqual(['s:one-statement']);
    expect(await uniqueValueRows(id)).toEqual([]);
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

  it('a lookup before a write (userName, externalId, displayName eq) is one probe of at most two rows; startIndex, count and sortBy answered from it; two matches fall back to the ordered page', async () => {
    const id = (await send('POST', '/Users', { userName: 'probed', externalId: 'ext-probed' })).body['id'] as string;
    const sent = await statements(() => send('GET', '/Users', undefined, { filter: 'userName eq "PROBED"' }));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/ LIMIT 2$/);
    expect(sent[0]).not.toMatch(/ORDER BY|OFFSET/);
    const ids = (body: Record<string, unknown>) => ((body['Resources'] as { id: string }[] | undefined) ?? []).map((r) => r.id);
    let page: Record<string, unknown> = {};
    // RFC 7644 §3.4.2.4: past the matches, an empty page with the exact total; count=0, the total alone.
    for (const [query, total, shown] of [
      [{ filter: 'userName eq "probed"', startIndex: '2' }, 1, []],
      [{ filter: 'userName eq "probed"', count: '0' }, 1, []],
      [{ filter: 'userName eq "probed"', count: '1', startIndex: '1', sortBy: 'displayName', sortOrder: 'descending' }, 1, [id]],
      [{ filter: 'externalId eq "ext-probed" and active eq true' }, 0, []],
      [{ filter: 'externalId eq "ext-probed"', startIndex: '1', count: '5' }, 1, [id]],
      [{ filter: 'userName eq "nobody-probed"' }, 0, []],
    ] as const) {
      expect(await statements(async () => (page = (await send('GET', '/Users', undefined, { ...query })).body)), JSON.stringify(query)).toHaveLength(1);
      expect(page['totalResults'], JSON.stringify(query)).toBe(total);
      expect(ids(page), JSON.stringify(query)).toEqual(shown);
    }
    // externalId is not unique: two matches, so the probe is dropped and the ordered page answers (creation order).
    const twin = (await send('POST', '/Users', { userName: 'probed-twin', externalId: 'ext-probed' })).body['id'] as string;
    const third = (await send('POST', '/Users', { userName: 'probed-third', externalId: 'EXT-probed' })).body['id'] as string;
    const both = await statements(async () => (page = (await send('GET', '/Users', undefined, { filter: 'externalId eq "ext-probed"' })).body));
    expect(both).toHaveLength(2);
    expect(both[1]).toMatch(/ORDER BY r\.seq/);
    expect(page['totalResults']).toBe(2);
    expect(ids(page)).toEqual([id, twin]);
    page = (await send('GET', '/Users', undefined, { filter: 'externalId eq "ext-probed"', startIndex: '2', count: '1' })).body;
    expect([page['totalResults'], ids(page)]).toEqual([2, [twin]]);
    page = (await send('GET', '/Users', undefined, { filter: 'externalId eq "ext-probed"', sortBy: 'userName', sortOrder: 'descending' })).body;
    expect([page['totalResults'], ids(page)]).toEqual([2, [twin, id]]);
    page = (await send('GET', '/Users', undefined, { filter: 'externalId eq "ext-probed"', count: '0' })).body;
    expect([page['totalResults'], ids(page)]).toEqual([2, []]);
    // externalId is caseExact: the third user is no match.
    expect(ids((await send('GET', '/Users', undefined, { filter: 'externalId eq "EXT-probed"' })).body)).toEqual([third]);
  });

  it('PATCH of displayName is one write after the server saw the user, else a read and one write; no unique-value row', async () => {
    const id = (await send('POST', '/Users', { userName: 'patched' })).body['id'] as string;
    const patch = (value: string) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'displayName', value }] });
    let status = 0;
    // The server created it: the PATCH starts from that version (recent versions), one statement.
    let sent = await statements(async () => (status = (await send('PATCH', `/Users/${id}`, patch('P'))).status));
    expect(status).toBe(200);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^WITH updated AS/);
    // A server that has not seen it reads it first.
    const unseen = createScimServer({ resourceTypes: [userResourceType, groupResourceType], store: createPostgresStore({ client: counting(client).client, schema }), logger: { log: () => undefined } });
    expect((await unseen.handle({ method: 'PATCH', path: `/Users/${id}`, headers: json, body: JSON.stringify(patch('Q')) })).status).toBe(200);
    // Now this server's version is stale: its swap misses, says why, and the write reads and writes again.
    let body: Record<string, unknown> = {};
    sent = await statements(async () => ({ status, body } = await send('PATCH', `/Users/${id}`, patch('R'))));
    expect(status).toBe(200);
    expect(body['displayName']).toBe('R');
    expect((body['meta'] as { version: string }).version).toBe('W/"4"');
    expect(sent).toHaveLength(4);
    expect(sent[0]).toMatch(/^WITH updated AS/);
    expect(sent[2]).toMatch(/^SELECT r\.data/);
    expect(sent[3]).toMatch(/^WITH updated AS/);
    expect(await keys([id])).toEqual(['s:patched']);
    expect(await uniqueValueRows(id)).toEqual([]);
    // The repeated statements are named (prepared once per connection by pg).
    sent = await statements(() => send('PATCH', `/Users/${id}`, patch('S')));
    expect(sent).toHaveLength(1);
    expect(names.every((name) => typeof name === 'string' && name.startsWith('scimkit_'))).toBe(true);
  });

  it('a create whose id is taken fails on the primary key (no ON CONFLICT) and is answered uniqueness on id, the resource kept', async () => {
    const store = createPostgresStore({ client, schema });
    const id = (await send('POST', '/Users', { userName: 'first-holder' })).body['id'] as string;
    const stored = (await store.get('User', id))!;
    const again = { ...stored, userName: 'second-holder' };
    expect(await store.create('User', again, { unique: [{ path: 'userName', caseExact: false }] })).toEqual({ ok: false, reason: 'uniqueness', attribute: 'id' });
    expect((await store.get('User', id))?.userName).toBe('first-holder');
    expect(await keys([id])).toEqual(['s:first-holder']);
    expect((await send('POST', '/Users', { userName: 'second-holder' })).status).toBe(201);
  });

  it('a compare-and-swap that finds another version, or no resource, says which with a read of its own', async () => {
    const store = createPostgresStore({ client, schema });
    const id = (await send('POST', '/Users', { userName: 'swapped' })).body['id'] as string;
    const stored = (await store.get('User', id))!;
    const next = { ...stored, displayName: 'late', meta: { ...stored.meta, version: 'W/"late"' } };
    expect(await store.replace('User', id, next, 'W/"not-current"', { unique: [{ path: 'userName', caseExact: false }] })).toEqual({ ok: false, reason: 'versionMismatch' });
    expect(await store.replace('User', 'no-such-user', { ...next, id: 'no-such-user' }, stored.meta.version, { unique: [] })).toEqual({ ok: false, reason: 'notFound' });
    expect((await store.get('User', id))?.['displayName']).toBeUndefined();
  });

  it('a rename to a value another user holds is 409 and writes nothing; a rename to a free value moves the key', async () => {
    const a = (await send('POST', '/Users', { userName: 'holder-a' })).body['id'] as string;
    const b = (await send('POST', '/Users', { userName: 'holder-b' })).body['id'] as string;
    const rename = (value: string) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'userName', value }] });
    const refused = await send('PATCH', `/Users/${b}`, rename('HOLDER-A'));
    expect(refused.status).toBe(409);
    expect(refused.body['scimType']).toBe('uniqueness');
    expect((await send('GET', `/Users/${b}`)).body['userName']).toBe('holder-b');
    expect((await send('PATCH', `/Users/${b}`, rename('holder-c'))).status).toBe(200);
    expect((await send('POST', '/Users', { userName: 'holder-b' })).status).toBe(201);
    expect((await send('POST', '/Users', { userName: 'Holder-C' })).status).toBe(409);
    expect(await keys([a, b])).toEqual(['s:holder-a', 's:holder-c']);
  });

  it('a filtered page and its total are one statement; an unfiltered page adds the count only when it is full', async () => {
    for (let i = 0; i < 30; i++) await send('POST', '/Users', { userName: `paged-${String(i).padStart(2, '0')}` });
    let page: Record<string, unknown> = {};
    const full = await statements(async () => (page = (await send('GET', '/Users', undefined, { filter: 'userName sw "paged-"', count: '10', startIndex: '11' })).body));
    expect(full).toHaveLength(1);
    expect(full[0]).toMatch(/^WITH scim_matches AS MATERIALIZED/);
    expect(page['totalResults']).toBe(30);
    expect((page['Resources'] as { userName: string }[]).map((u) => u.userName)).toEqual(Array.from({ length: 10 }, (_, i) => `paged-${10 + i}`));
    expect(await statements(async () => (page = (await send('GET', '/Users', undefined, { filter: 'userName sw "paged-"', count: '10', startIndex: '25' })).body))).toHaveLength(1);
    expect(page['totalResults']).toBe(30);
    expect((page['Resources'] as { userName: string }[]).map((u) => u.userName)).toEqual(Array.from({ length: 6 }, (_, i) => `paged-${24 + i}`));
    const past = (await send('GET', '/Users', undefined, { filter: 'userName sw "paged-"', startIndex: '40' })).body;
    expect(past['totalResults']).toBe(30);
    const last = (await send('GET', '/Users', undefined, { filter: 'userName sw "paged-"', startIndex: '25', sortBy: 'userName', sortOrder: 'descending' })).body;
    expect(last['totalResults']).toBe(30);
    expect((last['Resources'] as { userName: string }[]).map((u) => u.userName)).toEqual(['paged-05', 'paged-04', 'paged-03', 'paged-02', 'paged-01', 'paged-00']);
    expect((await send('GET', '/Users', undefined, { filter: 'userName sw "paged-"', count: '0' })).body['totalResults']).toBe(30);
    expect((await send('GET', '/Users', undefined, { filter: 'userName sw "nobody-"', count: '10' })).body).toMatchObject({ totalResults: 0 });
    // Unfiltered: the page alone when it is not full, then the type's maintained count (no scan) when it is.
    const users = Number((await send('GET', '/Users', undefined, { count: '0' })).body['totalResults']);
    expect(await statements(async () => (page = (await send('GET', '/Users', undefined, { count: String(users + 1) })).body))).toHaveLength(1);
    expect(page['totalResults']).toBe(users);
    const counted = await statements(async () => (page = (await send('GET', '/Users', undefined, { count: '5', startIndex: '3' })).body));
    expect(counted).toHaveLength(2);
    expect(counted[1]).toMatch(/^SELECT \(SELECT coalesce\(sum\(n\), 0\) FROM \S+scim_resource_counts\S* WHERE .*\) \+ \(SELECT coalesce\(sum\(n\), 0\) FROM \S+scim_resource_count_changes\S* WHERE .*\) AS total$/);
    expect(page['totalResults']).toBe(users);
  });

  it('a delete frees the userName with its row and its other unique values in its own statement; a value whose holder is gone is freed by the write that claims it', async () => {
    const store = createPostgresStore({ client, schema });
    // externalId made unique here: a value of an attribute other than userName has a row of scim_unique_values.
    const ctx = { unique: [{ path: 'userName', caseExact: false }, { path: 'externalId', caseExact: true }] };
    const resource = (id: string, userName: string, externalId: string) => ({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      id,
      userName,
      externalId,
      meta: { resourceType: 'User', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' },
    });
    expect((await store.create('User', resource('freed-1', 'freed', 'ext-freed'), ctx)).ok).toBe(true);
    expect(await uniqueValueRows('freed-1')).toEqual(['externalId s:ext-freed']);
    expect(await store.delete('User', 'freed-1')).toEqual({ ok: true });
    expect(await uniqueValueRows('freed-1')).toEqual([]);
    expect((await store.create('User', resource('freed-2', 'Freed', 'ext-freed'), ctx)).ok).toBe(true);
    // Taken: the first attribute that clashes is named.
    expect(await store.create('User', resource('freed-3', 'FREED', 'ext-other'), ctx)).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    expect(await store.create('User', resource('freed-3', 'other', 'ext-freed'), ctx)).toEqual({ ok: false, reason: 'uniqueness', attribute: 'externalId' });
    // A value left by a resource deleted by hand (schema version 4 has no foreign key to cascade it).
    await client.query(`INSERT INTO "${schema}".scim_unique_values (tenant, resource_type, attribute, key, id) VALUES ('', 'User', 'externalId', 's:orphaned', 'gone')`);
    expect((await store.create('User', resource('freed-4', 'orphan-taker', 'orphaned'), ctx)).ok).toBe(true);
    expect(await store.create('User', resource('freed-5', 'orphan-taker-2', 'orphaned'), ctx)).toEqual({ ok: false, reason: 'uniqueness', attribute: 'externalId' });
    // A replace that drops the value releases its row, in the same statement.
    const dropped = { ...resource('freed-4', 'orphan-taker', 'x'), meta: { ...resource('', '', '').meta, version: 'W/"2"' } };
    delete (dropped as Partial<typeof dropped>).externalId;
    expect((await store.replace('User', 'freed-4', dropped, 'W/"1"', ctx)).ok).toBe(true);
    expect(await uniqueValueRows('freed-4')).toEqual([]);
    expect((await store.create('User', resource('freed-5', 'orphan-taker-2', 'orphaned'), ctx)).ok).toBe(true);
  });
});

/** The `unique_key` of each resource, in key order. */
async function keys(ids: readonly string[]): Promise<(string | null)[]> {
  const rows = await client.query<{ key: string | null }>(`SELECT unique_key AS key FROM "${schema}".scim_resources WHERE id = ANY($1::text[]) ORDER BY unique_key`, [ids]);
  return rows.rows.map((r) => r.key);
}

/** The rows of scim_unique_values a resource holds, as `attribute key`. */
async function uniqueValueRows(id: string): Promise<string[]> {
  const rows = await client.query<{ attribute: string; key: string }>(`SELECT attribute, key FROM "${schema}".scim_unique_values WHERE id = $1 ORDER BY attribute`, [id]);
  return rows.rows.map((r) => `${r.attribute} ${r.key}`);
}
