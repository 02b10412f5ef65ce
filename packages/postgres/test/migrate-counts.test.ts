import type { ScimResource, WriteContext } from '@scimkit/core';
import { createPostgresStore, migrate, recountResources } from '@scimkit/postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { bootstrapStatements, MIGRATIONS } from '../src/migrations.js';
import { foldsCounts } from '../src/resource-counts.js';
import { storeTables } from '../src/sql-names.js';
import { sharedClient } from './fresh-schema.js';

const SCHEMA = 'counts_v7';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const t = storeTables(SCHEMA);
const USER_CONTEXT: WriteContext = { unique: [{ path: 'userName', caseExact: false }] };
const all = { semantics: { matches: () => true, attribute: () => undefined } };

const user = (id: string, userName: string): ScimResource => ({
  schemas: [USER],
  id,
  userName,
  meta: { resourceType: 'User', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' },
});
const group = (id: string, displayName: string, members: string[] = []): ScimResource => ({
  schemas: [GROUP],
  id,
  displayName,
  ...(members.length === 0 ? {} : { members: members.map((value) => ({ value, type: 'User' })) }),
  meta: { resourceType: 'Group', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' },
});

/** Inserts rows as a store of version 7 wrote them (no count). */
async function insertRow(tenant: string, resource: ScimResource, uniqueKey: string | null = null): Promise<void> {
  const client = await sharedClient();
  await client.query(
    `INSERT INTO ${t.resources} (tenant, resource_type, id, version, created, last_modified, data, unique_key) VALUES ($1, $2, $3, 'W/"1"', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', $4::jsonb, $5)`,
    [tenant, resource.meta.resourceType, resource.id, JSON.stringify(resource), uniqueKey],
  );
}

/** The counts per tenant and type: the totals and the changes not folded yet (schema version 9). */
const counts = async () =>
  (
    await (await sharedClient()).query<{ tenant: string; resource_type: string; n: string }>(
      `SELECT tenant, resource_type, sum(n)::text AS n FROM (SELECT tenant, resource_type, n FROM ${t.counts} UNION ALL SELECT tenant, resource_type, n FROM ${t.countChanges}) c
       GROUP BY 1, 2 ORDER BY 1, 2`,
    )
  ).rows;
/** The rows of (tenant '', `resourceType`) in the totals and in the changes. */
const rows = async (resourceType: string) => {
  const client = await sharedClient();
  const of = async (table: string) => Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE tenant = '' AND resource_type = $1`, [resourceType])).rows[0]?.n);
  return { totals: await of(t.counts), changes: await of(t.countChanges) };
};

beforeAll(async () => {
  const client = await sharedClient();
  // Version 7, with the rows its store wrote: users and groups in two tenants.
  await client.transaction(async (tx) => {
    for (const statement of bootstrapStatements(t)) await tx.query(statement);
    for (const migration of MIGRATIONS.filter((m) => m.version <= 7)) {
      for (const statement of migration.statements(t)) await tx.query(statement);
      await tx.query(`INSERT INTO ${t.migrations} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
    }
  });
  for (let i = 1; i <= 5; i++) await insertRow('', user(`u${i}`, `user${i}`), `s:user${i}`);
  await insertRow('', group('g1', 'one'));
  for (let i = 1; i <= 2; i++) await insertRow('acme', user(`a${i}`, `acme${i}`), `s:acme${i}`);
  const migrated = await migrate(client, { schema: SCHEMA });
  expect(migrated.applied).toEqual(MIGRATIONS.filter((m) => m.version > 7).map((m) => m.version));
}, 120_000);

describe('migrations 8 and 9: exact counts per resource type', () => {
  it('counts the rows already there, per tenant and type', async () => {
    expect(await counts()).toEqual([
      { tenant: '', resource_type: 'Group', n: '1' },
      { tenant: '', resource_type: 'User', n: '5' },
      { tenant: 'acme', resource_type: 'User', n: '2' },
    ]);
  });

  it('answers the total of an unfiltered page, offset page and cursor page from the count, which creates and deletes keep', async () => {
    const store = createPostgresStore({ client: await sharedClient(), schema: SCHEMA });
    expect((await store.query('User', { ...all, startIndex: 1, count: 2 })).totalResults).toBe(5);
    expect((await store.create('User', user('u6', 'user6'), USER_CONTEXT)).ok).toBe(true);
    expect((await store.create('Group', group('g2', 'two', ['u6']), { unique: [] })).ok).toBe(true);
    expect(await store.delete('User', 'u1')).toEqual({ ok: true });
    // Deleting u6 takes it out of g2 (a cascade that changes g2, and deletes no resource).
    expect(await store.delete('User', 'u6')).toMatchObject({ ok: true });
    expect(await store.delete('User', 'u6')).toEqual({ ok: false, reason: 'notFound' });
    const page = await store.query('User', { ...all, startIndex: 1, count: 2 });
    expect([page.totalResults, page.resources.map((r) => r.id)]).toEqual([4, ['u2', 'u3']]);
    expect((await store.query('User', { ...all, cursor: '', count: 2 })).totalResults).toBe(4);
    expect((await store.query('Group', { ...all, startIndex: 1, count: 1 })).totalResults).toBe(2);
    expect((await store.query('User', { ...all, startIndex: 1, count: 1 }, { tenant: 'acme' })).totalResults).toBe(2);
    expect(await counts()).toEqual([
      { tenant: '', resource_type: 'Group', n: '2' },
      { tenant: '', resource_type: 'User', n: '4' },
      { tenant: 'acme', resource_type: 'User', n: '2' },
    ]);
  });

  it('recountResources puts the counts right after rows were written by hand', async () => {
    const client = await sharedClient();
    await insertRow('acme', user('a3', 'acme3'), 's:acme3');
    await client.query(`DELETE FROM ${t.resources} WHERE tenant = '' AND resource_type = 'Group'`);
    const store = createPostgresStore({ client, schema: SCHEMA });
    // The count is what the store wrote, not what is in the table.
    expect((await store.query('User', { ...all, startIndex: 1, count: 1 }, { tenant: 'acme' })).totalResults).toBe(2);
    await recountResources(client, { schema: SCHEMA });
    expect((await store.query('User', { ...all, startIndex: 1, count: 1 }, { tenant: 'acme' })).totalResults).toBe(3);
    expect((await store.query('Group', { ...all, startIndex: 1, count: 1 })).totalResults).toBe(0);
    expect(await counts()).toEqual([
      { tenant: '', resource_type: 'User', n: '4' },
      { tenant: 'acme', resource_type: 'User', n: '3' },
    ]);
  });

  it('one create or delete in 64 (by a hash of its id) folds its type\'s changes into the total, which stays exact', async () => {
    const client = await sharedClient();
    const store = createPostgresStore({ client, schema: SCHEMA });
    const total = async () => (await store.query('User', { ...all, startIndex: 1, count: 1 })).totalResults;
    /** The next id `prefix<n>` whose write folds, or does not. */
    let n = 0;
    const id = (prefix: string, folds: boolean) => {
      while (foldsCounts(`${prefix}${++n}`) !== folds);
      return `${prefix}${n}`;
    };
    // recountResources left one total row and no change.
    expect(await rows('User')).toEqual({ totals: 1, changes: 0 });
    const users: string[] = [];
    for (let i = 0; i < 40; i++) users.push(id('f', false));
    for (const [i, u] of users.entries()) expect((await store.create('User', user(u, `fold${i}`), USER_CONTEXT)).ok).toBe(true);
    expect([await rows('User'), await total()]).toEqual([{ totals: 1, changes: 40 }, 44]);
    // A folding create: the 40 changes are folded, its own stays (a statement does not see its own rows).
    const folder = id('f', true);
    expect((await store.create('User', user(folder, 'folder'), USER_CONTEXT)).ok).toBe(true);
    expect([await rows('User'), await total()]).toEqual([{ totals: 1, changes: 1 }, 45]);
    for (const u of users.slice(0, 30)) expect(await store.delete('User', u)).toEqual({ ok: true });
    expect([await rows('User'), await total()]).toEqual([{ totals: 1, changes: 31 }, 15]);
    // A folding create refused (fold35 is taken): its fold is undone with it, nothing changes.
    expect(await store.create('User', user(id('f', true), 'FOLD35'), USER_CONTEXT)).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    expect([await rows('User'), await total()]).toEqual([{ totals: 1, changes: 31 }, 15]);
    // A folding delete folds too; of its own type only.
    const groups: string[] = [];
    for (let i = 0; i < 5; i++) groups.push(id('g', false));
    for (const g of groups) expect((await store.create('Group', group(g, `fold group ${g}`), { unique: [] })).ok).toBe(true);
    expect(await store.delete('User', folder)).toEqual({ ok: true });
    expect([await rows('User'), await total()]).toEqual([{ totals: 1, changes: 1 }, 14]);
    expect(await rows('Group')).toEqual({ totals: 0, changes: 5 });
    expect((await store.query('Group', { ...all, startIndex: 1, count: 1 })).totalResults).toBe(5);
    expect(await counts()).toEqual([
      { tenant: '', resource_type: 'Group', n: '5' },
      { tenant: '', resource_type: 'User', n: '14' },
      { tenant: 'acme', resource_type: 'User', n: '3' },
    ]);
  });
});
