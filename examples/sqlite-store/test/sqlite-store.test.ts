import type { Filter, ScimResource, StoreQuery } from '@scimkit/core';
import { describe, expect, it } from 'vitest';
import { createSqliteStore, indexedEquality, openDatabase } from '../src/index.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const unique = [{ path: 'userName', caseExact: false }] as const;

const user = (id: string, userName: string, version = 'W/"1"', extra: Record<string, unknown> = {}): ScimResource => ({
  schemas: [USER],
  id,
  userName,
  ...extra,
  meta: { resourceType: 'User', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version },
});

const everything: StoreQuery = { semantics: { matches: () => true, attribute: () => undefined } };
const eq = (attr: string, value: string, uri?: string): Filter => ({ kind: 'compare', op: 'eq', value, path: uri === undefined ? { attr } : { uri, attr } });

describe('the SQLite store, statement by statement', () => {
  it('keeps a resource losslessly and finds it by id', async () => {
    const store = createSqliteStore(await openDatabase());
    const created = user('1', 'bjensen', 'W/"1"', { name: { givenName: 'Barbara' }, emails: [{ value: 'b@example.com', primary: true }], [`${USER}x`]: { deep: [1, null, 'x'] } });
    expect(await store.create('User', created, { unique })).toEqual({ ok: true, resource: created });
    expect(await store.get('User', '1')).toEqual(created);
    expect(await store.get('Group', '1')).toBeUndefined();
  });

  it('refuses a second userName that differs only in case, through the unique values table', async () => {
    const store = createSqliteStore(await openDatabase());
    await store.create('User', user('1', 'bjensen'), { unique });
    expect(await store.create('User', user('2', 'BJensen'), { unique })).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    await store.create('User', user('3', 'other'), { unique });
    expect(await store.replace('User', '3', user('3', 'BJENSEN', 'W/"2"'), 'W/"1"', { unique })).toEqual({
      ok: false,
      reason: 'uniqueness',
      attribute: 'userName',
    });
  });

  it('rolls a refused write back completely', async () => {
    const db = await openDatabase();
    const store = createSqliteStore(db);
    const both = [{ path: 'userName', caseExact: false }, { path: 'externalId', caseExact: true }];
    await store.create('User', user('1', 'a', 'W/"1"', { externalId: 'X' }), { unique: both });
    expect(await store.create('User', user('2', 'b', 'W/"1"', { externalId: 'X' }), { unique: both })).toMatchObject({ ok: false, attribute: 'externalId' });
    expect(await store.get('User', '2')).toBeUndefined();
    expect(db.exec("SELECT count(*) FROM scim_unique_values WHERE value = 'b'")[0]?.values).toEqual([[0]]);
    // the name 'b' was not left claimed by the failed create
    expect(await store.create('User', user('3', 'B'), { unique })).toMatchObject({ ok: true });
  });

  it('enforces other unique attributes, honouring caseExact', async () => {
    const store = createSqliteStore(await openDatabase());
    const badge = [{ path: 'urn:example:badge', caseExact: true }];
    await store.create('User', user('1', 'a', 'W/"1"', { 'urn:example': { badge: 'X1' } }), { unique: badge });
    expect(await store.create('User', user('2', 'b', 'W/"1"', { 'urn:example': { badge: 'x1' } }), { unique: badge })).toMatchObject({ ok: true });
    expect(await store.create('User', user('3', 'c', 'W/"1"', { 'urn:example': { badge: 'X1' } }), { unique: badge })).toEqual({
      ok: false,
      reason: 'uniqueness',
      attribute: 'urn:example:badge',
    });
  });

  it('replaces only when the expected version is current (compare-and-swap)', async () => {
    const store = createSqliteStore(await openDatabase());
    await store.create('User', user('1', 'bjensen'), { unique });
    expect(await store.replace('User', '1', user('1', 'bjensen', 'W/"2"'), 'W/"1"', { unique })).toMatchObject({ ok: true });
    expect(await store.replace('User', '1', user('1', 'bjensen', 'W/"3"'), 'W/"1"', { unique })).toEqual({ ok: false, reason: 'versionMismatch' });
    expect(await store.replace('User', '9', user('9', 'x', 'W/"2"'), 'W/"1"', { unique })).toEqual({ ok: false, reason: 'notFound' });
    expect((await store.get('User', '1'))?.meta.version).toBe('W/"2"');
  });

  it('deletes, with or without an expected version', async () => {
    const store = createSqliteStore(await openDatabase());
    await store.create('User', user('1', 'a'), { unique });
    await store.create('User', user('2', 'b'), { unique });
    expect(await store.delete('User', '1', 'W/"7"')).toEqual({ ok: false, reason: 'versionMismatch' });
    expect(await store.delete('User', '1', 'W/"1"')).toEqual({ ok: true });
    expect(await store.delete('User', '2')).toEqual({ ok: true });
    expect(await store.delete('User', '2')).toEqual({ ok: false, reason: 'notFound' });
  });

  it('declares exactly the equality filters on its indexed columns', () => {
    expect(indexedEquality(eq('USERNAME', 'BJensen'))).toEqual({ column: 'user_name', value: 'bjensen' });
    expect(indexedEquality(eq('userName', 'x', USER))).toEqual({ column: 'user_name', value: 'x' });
    expect(indexedEquality(eq('userName', 'JOSE\u0301'))).toEqual({ column: 'user_name', value: 'jos\u00e9' });
    expect(indexedEquality(eq('externalId', 'AbC'))).toEqual({ column: 'external_id', value: 'AbC' });
    expect(indexedEquality(eq('id', '42'))).toEqual({ column: 'id', value: '42' });
    expect(indexedEquality(eq('displayName', 'x'))).toBeUndefined();
    expect(indexedEquality(eq('userName', 'x', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'))).toBeUndefined();
    expect(indexedEquality({ kind: 'compare', op: 'sw', value: 'b', path: { attr: 'userName' } })).toBeUndefined();
    expect(indexedEquality({ kind: 'present', path: { attr: 'userName' } })).toBeUndefined();
    expect(indexedEquality(eq('__proto__', 'x'))).toBeUndefined();
  });

  it('answers a pushed-down equality from its column, confirmed by the core predicate', async () => {
    const store = createSqliteStore(await openDatabase());
    await store.create('User', user('1', 'bjensen', 'W/"1"', { externalId: 'E1' }), { unique });
    await store.create('User', user('2', 'jsmith', 'W/"1"', { externalId: 'e1' }), { unique });
    const byName = await store.query('User', { filter: eq('userName', 'BJENSEN'), semantics: { matches: () => true, attribute: () => undefined } });
    expect(byName.resources.map((r) => r.id)).toEqual(['1']);
    const byExternalId = await store.query('User', { filter: eq('externalId', 'e1'), semantics: { matches: () => true, attribute: () => undefined } });
    expect(byExternalId.resources.map((r) => r.id)).toEqual(['2']);
    const confirmed = await store.query('User', { filter: eq('userName', 'bjensen'), semantics: { matches: (r) => r.id !== '1', attribute: () => undefined } });
    expect(confirmed).toEqual({ totalResults: 0, resources: [] });
    const all = await store.query('User', everything);
    expect(all.totalResults).toBe(2);
    expect(all.resources.map((r) => r.id)).toEqual(['1', '2']);
  });

  it('keys every row by tenant: the default tenant is the empty string', async () => {
    const db = await openDatabase();
    const store = createSqliteStore(db);
    await store.create('User', user('1', 'bjensen'), { unique });
    await store.create('User', user('1', 'BJensen'), { unique, tenant: 'acme' });
    expect(db.exec('SELECT tenant, id, user_name FROM scim_resources ORDER BY tenant')[0]?.values).toEqual([
      ['', '1', 'bjensen'],
      ['acme', '1', 'bjensen'],
    ]);
    expect(db.exec('SELECT tenant, value FROM scim_unique_values ORDER BY tenant')[0]?.values).toEqual([
      ['', 'bjensen'],
      ['acme', 'bjensen'],
    ]);
    expect(await store.delete('User', '1', undefined, { tenant: 'acme' })).toEqual({ ok: true });
    expect((await store.get('User', '1'))?.['userName']).toBe('bjensen');
  });

  it('survives a save and a reload of the database file', async () => {
    const db = await openDatabase();
    await createSqliteStore(db).create('User', user('1', 'bjensen'), { unique });
    const reloaded = createSqliteStore(await openDatabase(db.export()));
    expect((await reloaded.get('User', '1'))?.['userName']).toBe('bjensen');
  });
});
