import { PGlite } from '@electric-sql/pglite';
import Database from 'better-sqlite3';
import { createSchemaRegistry, groupResourceType, URN, userResourceType, type ScimResource, type ScimStore } from '@scimkit/core';
import { compileFilter, parseFilter } from '@scimkit/core/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqlStore, fromBetterSqlite3, fromPGlite, type SqlConnection } from '../src/index.js';
import { createAppSchema } from '../../../examples/own-tables/src/app-schema.js';
import { mapping } from '../../../examples/own-tables/src/mapping.js';

const registry = createSchemaRegistry({ resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }] }, groupResourceType] });
const users = registry.resourceType('User')!;
const meta = () => ({ resourceType: 'User', created: new Date().toISOString(), lastModified: new Date().toISOString(), version: 'W/"0"' });

/**
 * Pairs of one shape whose values take other branches of the translation (an empty needle, a value
 * the uuid id column cannot hold, true and false, a date alone and an instant), each asked after the
 * other in both orders on one store: a statement kept by shape must answer each as a fresh one does.
 */
const FLIPS: readonly (readonly string[])[] = [
  ['userName sw ""', 'userName sw "USER1"', 'userName sw ""'],
  ['userName co ""', 'userName co "ER2@"', 'userName co ""'],
  ['userName ew ""', 'userName ew "3@EXAMPLE.COM"', 'userName ew ""'],
  ['displayName sw ""', 'displayName sw "User 1"', 'displayName sw ""'],
  ['id eq "not-a-uuid"', 'id eq "{id}"', 'id eq "not-a-uuid"', 'id eq "{id}"'],
  ['id gt "zzz"', 'id gt "0"', 'id gt "zzz"'],
  ['active eq true', 'active eq false', 'active eq true'],
  ['meta.lastModified gt "2000-01-01"', 'meta.lastModified gt "2000-01-01T00:00:00Z"', 'meta.lastModified lt "2000-01-01"'],
  ['userName eq "USER4@example.com"', 'userName eq "user5@EXAMPLE.com"', 'userName eq "nobody@example.com"'],
  ['userName eq "user1@example.com" or userName eq "user2@example.com"', 'userName eq "user3@example.com" or userName eq "user3@example.com"'],
  ['not (userName sw "user1") and active eq true', 'not (userName sw "") and active eq false'],
];

async function seeded(connection: SqlConnection): Promise<{ store: ScimStore; all: ScimResource[] }> {
  await createAppSchema(connection.db, connection.dialect);
  const store = createSqlStore({ ...connection, mapping });
  for (let i = 0; i < 12; i++) {
    const created = await store.create(
      'User',
      { schemas: [URN.user], id: crypto.randomUUID(), userName: `user${i}@example.com`, displayName: `User ${i}`, active: i % 3 !== 0, meta: meta() },
      { unique: [{ path: 'userName', caseExact: false }] },
    );
    if (!created.ok) throw new Error(JSON.stringify(created));
  }
  const all = await store.query('User', { semantics: { matches: () => true, attribute: users.facts } });
  return { store, all: [...all.resources] };
}

async function expectFlipsAnswered(store: ScimStore, all: readonly ScimResource[]): Promise<void> {
  const id = all[4]?.id ?? '';
  for (const round of [0, 1]) {
    for (const flips of FLIPS) {
      for (const text of round === 0 ? flips : [...flips].reverse()) {
        const filter = parseFilter(text.replace('{id}', id));
        if (!filter.ok) throw new Error(filter.error.detail);
        const compiled = compileFilter(filter.value, users);
        if (!compiled.ok) throw new Error(compiled.error.detail);
        const matches = compiled.value;
        const expected = all.filter(matches).map((r) => r.id).sort();
        for (const count of [undefined, 0, 5]) {
          const result = await store.query('User', { filter: filter.value, semantics: { matches, attribute: users.facts }, ...(count === undefined ? {} : { startIndex: 1, count }) });
          expect(result.totalResults, `${text} (count ${count})`).toBe(expected.length);
          expect(result.resources.map((r) => r.id).sort(), `${text} (count ${count})`).toEqual(count === undefined ? expected : expected.slice(0, count));
        }
      }
    }
  }
}

describe('query statements kept by shape (query-shapes.ts)', () => {
  it('SQLite: the same shape with values taking other branches answers as a fresh translation', async () => {
    const { store, all } = await seeded(fromBetterSqlite3(new Database(':memory:')));
    await expectFlipsAnswered(store, all);
  });

  let pglite: PGlite | undefined;
  afterAll(async () => pglite?.close());

  it('PostgreSQL (PGlite): the same', async () => {
    pglite = new PGlite();
    const { store, all } = await seeded(fromPGlite(pglite));
    await expectFlipsAnswered(store, all);
  }, 60_000);

  it('a userName eq with another value runs the kept text: one compile per shape, not per value', async () => {
    const database = new Database(':memory:');
    const connection = fromBetterSqlite3(database);
    const { store } = await seeded(connection);
    // Kysely compiles through the executor: count how often a statement is compiled.
    const executor = connection.db.getExecutor();
    let compiles = 0;
    const compile = executor.compileQuery.bind(executor);
    (executor as { compileQuery: unknown }).compileQuery = (...args: Parameters<typeof compile>) => {
      compiles++;
      return compile(...args);
    };
    const eq = (n: number) => {
      const filter = parseFilter(`userName eq "USER${n}@example.com"`);
      if (!filter.ok) throw new Error(filter.error.detail);
      return store.query('User', { filter: filter.value, semantics: { matches: () => true, attribute: users.facts }, startIndex: 1, count: 100 });
    };
    const first = await eq(1);
    const before = compiles;
    const found = [];
    for (let n = 2; n < 10; n++) found.push(await eq(n));
    expect(compiles).toBe(before);
    expect(first.resources.map((r) => r['userName'])).toEqual(['user1@example.com']);
    expect(found.map((r) => r.resources.map((u) => u['userName']))).toEqual([2, 3, 4, 5, 6, 7, 8, 9].map((n) => [`user${n}@example.com`]));
    expect(found.every((r) => r.totalResults === 1)).toBe(true);
  });
});
