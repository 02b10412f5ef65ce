import { createScimServer, groupResourceType, userResourceType, type Filter, type ScimServer } from '@scimkit/core';
import { parseFilter } from '@scimkit/core/engine';
import { createPostgresStore, type SqlClient } from '@scimkit/postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { filterShape } from '../src/filter-shape.js';
import { freshSchema } from './fresh-schema.js';

/** A client that records the text, parameters and name of every single statement. */
function recording(inner: SqlClient): { client: SqlClient; sent: { text: string; params: readonly unknown[]; name: string | undefined }[] } {
  const sent: { text: string; params: readonly unknown[]; name: string | undefined }[] = [];
  return {
    sent,
    client: {
      ...inner,
      query: (text, params = [], name) => {
        sent.push({ text, params, name });
        return inner.query(text, params, name);
      },
    },
  };
}

const BASE = 'https://scim.example.com/v2';
const json = { 'content-type': 'application/scim+json' };
const USERS = ['ann_1@example.com', 'bob%2@example.com', 'Ça@example.com', 'dan@example.com', 'ed\\x@example.com'];

let warm: ScimServer;
let log: ReturnType<typeof recording>['sent'];
let client: SqlClient;
let schema: string;

/** A server on a store that has seen no query yet (its shapes empty), over the same tables. */
function cold(): ScimServer {
  return createScimServer({ resourceTypes: [userResourceType, groupResourceType], store: createPostgresStore({ client, schema }), baseUrl: BASE, logger: { log: () => undefined } });
}

async function list(server: ScimServer, filter: string, more: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await server.handle({ method: 'GET', path: '/Users', query: { filter, ...more }, headers: json });
  return { status: response.status, body: response.body === undefined ? undefined : JSON.parse(response.body) };
}

beforeAll(async () => {
  ({ client, schema } = await freshSchema());
  const recorded = recording(client);
  log = recorded.sent;
  warm = createScimServer({ resourceTypes: [userResourceType, groupResourceType], store: createPostgresStore({ client: recorded.client, schema }), baseUrl: BASE, logger: { log: () => undefined } });
  for (const [i, userName] of USERS.entries()) {
    const created = await warm.handle({
      method: 'POST',
      path: '/Users',
      headers: json,
      body: JSON.stringify({ userName, displayName: `User ${i}`, active: i % 2 === 0, name: { familyName: `F${i}` }, emails: [{ value: `m${i}@example.com`, type: i % 2 === 0 ? 'work' : 'home' }] }),
    });
    expect(created.status).toBe(201);
  }
}, 120_000);

describe('filter shapes (query-shapes.ts)', () => {
  it('gives one key to filters that differ only in their values, and another to any other difference', () => {
    const shape = (text: string) => filterShape((parseFilter(text) as { ok: true; value: Filter }).value);
    expect(shape('userName eq "a"')?.key).toBe(shape('userName eq "b"')?.key);
    expect(shape('userName eq "a" and emails[type eq "work"]')?.key).toBe(shape('userName eq "z" and emails[type eq "home"]')?.key);
    expect(shape('userName eq "a"')?.leaves.map((l) => l.value)).toEqual(['a']);
    const distinct = ['userName eq "a"', 'userName ne "a"', 'userName eq 1', 'userName eq true', 'userName eq null', 'username eq "a"', 'name.familyName eq "a"', 'userName pr', 'not (userName eq "a")', 'userName eq "a" or userName eq "b"', 'userName eq "a" and userName eq "b"'];
    expect(new Set(distinct.map((f) => shape(f)?.key)).size).toBe(distinct.length);
    // Values the translation refuses by their content (hand-built: the parser takes neither) keep no shape.
    expect(filterShape({ kind: 'compare', path: { attr: 'userName' }, op: 'eq', value: 'a\u0000' })).toBeUndefined();
    expect(filterShape({ kind: 'compare', path: { attr: 'title' }, op: 'gt', value: Number.POSITIVE_INFINITY })).toBeUndefined();
  });

  it('a userName eq with another value reuses the statement (text and name) with its own parameters, and finds its own user', async () => {
    const answers: unknown[] = [];
    const sent: typeof log = [];
    for (const userName of USERS) {
      log.length = 0;
      const { status, body } = await list(warm, `userName eq "${userName.replace(/\\/g, '\\\\').toUpperCase()}"`);
      expect(status).toBe(200);
      answers.push(body);
      expect(log).toHaveLength(1);
      sent.push(log[0] as (typeof log)[number]);
    }
    expect(answers.map((a) => (a as { Resources: { userName: string }[] }).Resources.map((r) => r.userName))).toEqual(USERS.map((u) => [u]));
    expect(new Set(sent.map((s) => s.text)).size).toBe(1);
    expect(new Set(sent.map((s) => s.name)).size).toBe(1);
    expect(sent[0]?.name).toBeDefined();
    expect(sent.map((s) => s.params[2])).toEqual(USERS.map((u) => u.toUpperCase()));
  });

  it('answers every value as a store that never saw the shape does (LIKE escapes, instants, numbers, booleans, null, U+0000)', async () => {
    // Each pair: the first fills the shape, the second reuses it (or is refused by it) and must answer as a cold store.
    const pairs = [
      ['userName sw "ann"', 'userName sw "bob%"'],
      ['userName co "_"', 'userName co "%"'],
      ['userName ew "example.com"', 'userName ew "\\\\x@example.com"'],
      ['userName co "ça"', 'userName co "Ç"'],
      ['meta.lastModified gt "2000-01-01T00:00:00Z"', 'meta.lastModified gt "not an instant"'],
      ['meta.lastModified lt "2000-01-01"', 'meta.lastModified lt "2999-01-01"'],
      ['active eq true', 'active eq false'],
      ['displayName ne "User 1"', 'displayName ne "User 3"'],
      ['name.familyName eq null', 'name.familyName ne null'],
      ['emails[type eq "work"]', 'emails[type eq "home"]'],
      ['emails[type eq "work" and value co "m0"] or userName eq "dan@example.com"', 'emails[type eq "home" and value co "m3"] or userName eq "ann_1@example.com"'],
      ['userName eq "ann_1@example.com"', 'userName eq "a\\u0000"'],
      ['userName gt "c"', 'userName gt "b"'],
    ];
    for (const [first, second] of pairs as [string, string][]) {
      for (const more of [{}, { sortBy: 'userName', count: '2' }, { startIndex: '2', count: '10' }]) {
        expect(await list(warm, first, more)).toEqual(await list(cold(), first, more));
        expect(await list(warm, second, more), `${second} ${JSON.stringify(more)}`).toEqual(await list(cold(), second, more));
      }
    }
  });

  it('keeps a type’s statements apart from another type’s of the same filter shape', async () => {
    const users = await list(warm, 'displayName eq "User 2"');
    const groups = await warm.handle({ method: 'GET', path: '/Groups', query: { filter: 'displayName eq "User 2"' }, headers: json });
    expect((users.body as { totalResults: number }).totalResults).toBe(1);
    expect(JSON.parse(groups.body ?? '{}')).toMatchObject({ totalResults: 0 });
  });
});

