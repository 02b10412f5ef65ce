import { createSchemaRegistry, URN, userResourceType, type ScimResource, type WriteContext } from '@scimkit/core';
import { createPostgresStore, migrate, type SqlClient } from '@scimkit/postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSchema } from './fresh-schema.js';

const USER: WriteContext = { unique: [{ path: 'userName', caseExact: false }] };
const meta = (resourceType: string, version = 'W/"1"') => ({ resourceType, created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version });
const user = (id: string, userName: string): ScimResource => ({ schemas: [URN.user], id, userName, meta: meta('User') });
const group = (id: string, members: { value: string; type?: string }[], version = 'W/"1"'): ScimResource =>
  ({ schemas: [URN.group], id, displayName: id, ...(members.length === 0 ? {} : { members }), meta: meta('Group', version) }) as ScimResource;

let client: SqlClient;
let schema: string;
beforeAll(async () => {
  ({ client, schema } = await freshSchema());
}, 120_000);

/** The transaction id that last wrote each member row of a group, by member value. */
async function memberRowWriters(groupId: string, tenant = ''): Promise<Map<string, string>> {
  const rows = await client.query<{ member_id: string; xmin: string }>(
    `SELECT member_id, xmin::text AS xmin FROM "${schema}".scim_group_members WHERE tenant = $1 AND group_id = $2`,
    [tenant, groupId],
  );
  return new Map(rows.rows.map((row) => [row.member_id, row.xmin]));
}

describe('migrate', () => {
  it('is idempotent: a second run applies nothing and reports the same version', async () => {
    const again = await migrate(client, { schema });
    expect(again.applied).toEqual([]);
    expect(again.version).toBeGreaterThanOrEqual(1);
    const recorded = await client.query<{ version: number }>(`SELECT version FROM "${schema}".scim_migrations ORDER BY version`);
    expect(recorded.rows.map((row) => Number(row.version))).toEqual(Array.from({ length: again.version }, (_, i) => i + 1));
  });

  it('runs concurrently from several callers on a new schema, once', async () => {
    const results = await Promise.all([1, 2, 3].map(() => migrate(client, { schema: 'concurrent_migrate' })));
    const version = results[0]?.version ?? 0;
    expect(version).toBeGreaterThanOrEqual(1);
    expect(results.map((r) => r.version)).toEqual([version, version, version]);
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, version]);
  });
});

describe('tenants', () => {
  it('keep ids, uniqueness and queries apart; the default tenant is one more', async () => {
    const store = createPostgresStore({ client, schema });
    for (const tenant of ['acme', 'globex', undefined]) {
      const written = await store.create('User', user('same-id', 'bjensen'), { ...USER, ...(tenant === undefined ? {} : { tenant }) });
      expect(written.ok).toBe(true);
    }
    expect(await store.create('User', user('other', 'BJENSEN'), { ...USER, tenant: 'acme' })).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    expect((await store.replace('User', 'same-id', { ...user('same-id', 'renamed'), meta: meta('User', 'W/"2"') }, 'W/"1"', { ...USER, tenant: 'acme' })).ok).toBe(true);
    expect((await store.get('User', 'same-id', { tenant: 'globex' }))?.userName).toBe('bjensen');
    expect((await store.get('User', 'same-id', { tenant: 'acme' }))?.userName).toBe('renamed');
    expect((await store.delete('User', 'same-id', undefined, { tenant: 'globex' })).ok).toBe(true);
    expect(await store.get('User', 'same-id', { tenant: 'globex' })).toBeUndefined();
    expect((await store.get('User', 'same-id'))?.userName).toBe('bjensen');
    const all = await store.query('User', { semantics: { matches: () => true, attribute: () => undefined } }, { tenant: 'acme' });
    expect(all.resources.map((r) => r.userName)).toEqual(['renamed']);
  });
});

describe('uniqueness keys', () => {
  it('treat a caseExact false value NFC-normalized and lower-cased: decomposed Ä is precomposed ä', async () => {
    const store = createPostgresStore({ client, schema });
    const tenant = 'nfc';
    expect((await store.create('User', user('n1', 'J\u00c4GER'), { ...USER, tenant })).ok).toBe(true);
    expect(await store.create('User', user('n2', 'ja\u0308ger'), { ...USER, tenant })).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
  });

  it('are released by a rename and by a delete', async () => {
    const store = createPostgresStore({ client, schema });
    const tenant = 'release';
    await store.create('User', user('r1', 'first'), { ...USER, tenant });
    expect((await store.replace('User', 'r1', { ...user('r1', 'second'), meta: meta('User', 'W/"2"') }, 'W/"1"', { ...USER, tenant })).ok).toBe(true);
    expect((await store.create('User', user('r2', 'FIRST'), { ...USER, tenant })).ok).toBe(true);
    expect((await store.delete('User', 'r1', undefined, { tenant })).ok).toBe(true);
    expect((await store.create('User', user('r3', 'Second'), { ...USER, tenant })).ok).toBe(true);
  });
});

describe('group members, one row each', () => {
  it('a PATCH adding one member writes one row and leaves the others untouched', async () => {
    const store = createPostgresStore({ client, schema });
    const tenant = 'rows';
    const members = Array.from({ length: 50 }, (_, i) => ({ value: `m${i}`, type: 'User' }));
    await store.create('Group', group('g', members), { unique: [], tenant });
    const before = await memberRowWriters('g', tenant);
    const added = { value: 'new', type: 'User' };
    const removed = members[10]!;
    const next = [...members.filter((m) => m !== removed), added];
    const written = await store.replace('Group', 'g', group('g', next, 'W/"2"'), 'W/"1"', { unique: [], tenant, changes: [{ attribute: 'members', added: [added], removed: [removed] }] });
    expect(written.ok).toBe(true);
    const after = await memberRowWriters('g', tenant);
    expect(after.has('m10')).toBe(false);
    const rewritten = [...after].filter(([member, writer]) => before.get(member) !== writer).map(([member]) => member);
    expect(rewritten).toEqual(['new']);
    expect((await store.get('Group', 'g', { tenant }))?.['members']).toEqual(next);
  });

  it('a PUT (no changes) rewrites the rows to exactly the new list, in order', async () => {
    const store = createPostgresStore({ client, schema });
    const tenant = 'put';
    await store.create('Group', group('g', [{ value: 'a' }, { value: 'b' }]), { unique: [], tenant });
    const next = [{ value: 'c' }, { value: 'a' }];
    expect((await store.replace('Group', 'g', group('g', next, 'W/"2"'), 'W/"1"', { unique: [], tenant })).ok).toBe(true);
    expect((await store.get('Group', 'g', { tenant }))?.['members']).toEqual(next);
    expect((await store.replace('Group', 'g', group('g', [], 'W/"3"'), 'W/"2"', { unique: [], tenant })).ok).toBe(true);
    expect((await store.get('Group', 'g', { tenant }))?.['members']).toBeUndefined();
  });

  it('deleting a user removes it from every group in the same step, with the touched meta and before/after', async () => {
    const store = createPostgresStore({ client, schema });
    const tenant = 'cascade';
    await store.create('User', user('u1', 'one'), { ...USER, tenant });
    await store.create('Group', group('g1', [{ value: 'u1', type: 'User' }, { value: 'u2', type: 'User' }]), { unique: [], tenant });
    await store.create('Group', group('g2', [{ value: 'u1', type: 'User' }]), { unique: [], tenant });
    await store.create('Group', group('g3', [{ value: 'U1', type: 'User' }]), { unique: [], tenant });
    const touched = { resourceType: 'Group', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-02-01T00:00:00.000Z', version: 'W/"9"' };
    const deleted = await store.delete('User', 'u1', undefined, { tenant, references: [{ resourceType: 'Group', attribute: 'members' }], touch: () => touched });
    expect(deleted.ok).toBe(true);
    const cascaded = deleted.ok ? (deleted.cascaded ?? []) : [];
    expect(cascaded.map((c) => c.before.id)).toEqual(['g1', 'g2']);
    expect(cascaded[0]?.after['members']).toEqual([{ value: 'u2', type: 'User' }]);
    expect(cascaded[1]?.after['members']).toEqual([]);
    expect(await store.get('Group', 'g1', { tenant })).toEqual(cascaded[0]?.after);
    expect((await store.get('Group', 'g2', { tenant }))?.meta).toEqual(touched);
    // ids are caseExact: a member "U1" is another resource.
    expect((await store.get('Group', 'g3', { tenant }))?.['members']).toEqual([{ value: 'U1', type: 'User' }]);
  });
});

describe('caseExact false strings in SQL', () => {
  it('compare by one key, NFC then lower-cased, for every operator: co "é" finds a decomposed José as eq does', async () => {
    const store = createPostgresStore({ client, schema });
    const tenant = 'nfc-operators';
    const decomposed = { ...user('jose', 'jose'), name: { givenName: 'Jose\u0301' } } as ScimResource;
    const plain = { ...user('joe', 'joe'), name: { givenName: 'Joe' } } as ScimResource;
    for (const resource of [decomposed, plain]) expect((await store.create('User', resource, { ...USER, tenant })).ok).toBe(true);
    const model = createSchemaRegistry({ resourceTypes: [userResourceType] }).resourceType('User');
    // matches() answers false: a result can only come from the SQL translation.
    const semantics = { matches: () => false, attribute: (path: Parameters<NonNullable<typeof model>['facts']>[0]) => model?.facts(path) };
    const found = async (op: 'eq' | 'co' | 'sw' | 'ew' | 'gt', value: string) =>
      (await store.query('User', { filter: { kind: 'compare', path: { attr: 'name', subAttr: 'givenName' }, op, value }, semantics }, { tenant })).resources.map((r) => r.id).sort();
    expect(await found('eq', 'JOSÉ')).toEqual(['jose']);
    expect(await found('co', 'é')).toEqual(['jose']);
    expect(await found('sw', 'JOSÉ')).toEqual(['jose']);
    expect(await found('ew', 'sÉ')).toEqual(['jose']);
    expect(await found('gt', 'josé')).toEqual([]);
  });
});

describe('a filter SQL cannot express', () => {
  it('is finished in memory with the core predicate, paged by index or by offset cursors', async () => {
    const store = createPostgresStore({ client, schema });
    const tenant = 'fallback';
    for (const name of ['a1', 'b1', 'a2', 'a3', 'b2', 'a4']) await store.create('User', user(name, name), { ...USER, tenant });
    // A compare on a complex attribute never reaches a store from the core (400); here it stands for
    // anything the translator declines.
    const filter = { kind: 'compare', path: { attr: 'name' }, op: 'eq', value: 'x' } as const;
    const model = createSchemaRegistry({ resourceTypes: [userResourceType] }).resourceType('User');
    const semantics = { matches: (r: ScimResource) => String(r.userName).startsWith('a'), attribute: (path: Parameters<NonNullable<typeof model>['facts']>[0]) => model?.facts(path) };
    const paged = await store.query('User', { filter, semantics, startIndex: 2, count: 2 }, { tenant });
    expect([paged.totalResults, paged.resources.map((r) => r.id)]).toEqual([4, ['a2', 'a3']]);
    const walked: string[] = [];
    let cursor: string | undefined = '';
    while (cursor !== undefined) {
      const page = await store.query('User', { filter, semantics, cursor, count: 3 }, { tenant });
      walked.push(...page.resources.map((r) => r.id));
      cursor = page.nextCursor;
    }
    expect(walked).toEqual(['a1', 'a2', 'a3', 'a4']);
  });
});

describe('failures', () => {
  it('a query failure rejects (the server answers 500 and logs it), and the transaction rolls back', async () => {
    const failing: SqlClient = {
      query: (text, params) => (text.includes('scim_resources') && text.startsWith('SELECT') ? Promise.reject(new Error('connection lost')) : client.query(text, params)),
      transaction: (work) =>
        client.transaction(async (tx) =>
          work({ query: (text, params) => (text.includes('INSERT INTO') ? Promise.reject(new Error('connection lost')) : tx.query(text, params)) }),
        ),
    };
    const store = createPostgresStore({ client: failing, schema });
    await expect(store.get('User', 'x')).rejects.toThrow('connection lost');
    await expect(store.create('User', user('half', 'half'), { ...USER, tenant: 'failing' })).rejects.toThrow('connection lost');
    expect(await createPostgresStore({ client, schema }).get('User', 'half', { tenant: 'failing' })).toBeUndefined();
  });
});
