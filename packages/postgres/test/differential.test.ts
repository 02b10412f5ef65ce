import { compileFilter, compileSort, printFilter } from '@scimkit/core/engine';
import {
  createSchemaRegistry,
  groupResourceType,
  URN,
  userResourceType,
  type AttrPath,
  type CompareOperator,
  type Filter,
  type ResourceModel,
  type ScimResource,
  type ScimStore,
} from '@scimkit/core';
import { createPostgresStore } from '@scimkit/postgres';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSchema } from './fresh-schema.js';

/*
 * Differential test: random filters and sorts over random users and groups give the same ids, in
 * the same order, from SQL as from the core's in-memory evaluator (compileFilter + stable sort by
 * compileSort over creation order), also when walked with keyset cursors. `ne` is checked against
 * the decisions' rule, `not (eq)`.
 */

const EXT = 'urn:scimkit:params:scim:schemas:extension:differential:2.0:User';
const registry = createSchemaRegistry({
  schemas: [
    {
      id: EXT,
      name: 'Differential',
      attributes: [
        { name: 'level', type: 'integer' },
        { name: 'score', type: 'decimal' },
        { name: 'flag', type: 'boolean' },
        { name: 'since', type: 'dateTime' },
        { name: 'code', type: 'string', caseExact: true },
        { name: 'tags', type: 'string', multiValued: true },
      ],
    },
  ],
  resourceTypes: [
    { ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }, { schema: EXT, required: false }] },
    groupResourceType,
  ],
});
const userModel = registry.resourceType('User') as ResourceModel;
const groupModel = registry.resourceType('Group') as ResourceModel;

// Small alphabets so that values collide, differ only in case, and contain LIKE wildcards.
const text = fc.string({ unit: fc.constantFrom('a', 'A', 'b', 'B', 'é', 'É', '%', '_', '\\', ' ', 'z'), maxLength: 4 });
const optional = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined });
const instant = fc.constantFrom(
  '2026-05-01T10:00:00Z',
  '2026-05-01T12:00:00+02:00',
  '2026-05-01T10:00:00.001Z',
  '2026-05-01T09:59:59.999Z',
  '2026-05-02T00:00:00',
  '2025-12-31T23:00:00-01:00',
);
// Numbers jsonb spells otherwise than JSON.stringify (1e21 as 1000000000000000000000, 5e-324 with
// 324 decimals) compare and sort as the doubles they are.
const number = fc.constantFrom(-1, 0, 2, 2.25, 2.5, 9, 10, 100, 0.1, 1e21, -1.5e-7, 5e-324, 1.7976931348623157e308);

const userArb = fc.record({
  userName: text,
  title: optional(text),
  displayName: optional(text),
  externalId: optional(text),
  active: optional(fc.boolean()),
  name: optional(fc.record({ givenName: optional(text), familyName: optional(text) })),
  emails: optional(fc.array(fc.record({ value: text, type: optional(fc.constantFrom('work', 'home', 'Work')), primary: optional(fc.boolean()) }), { maxLength: 3 })),
  created: instant,
  enterprise: optional(fc.record({ department: optional(text), employeeNumber: optional(text) })),
  ext: optional(
    fc.record({ level: optional(number), score: optional(number), flag: optional(fc.boolean()), since: optional(instant), code: optional(text), tags: optional(fc.array(text, { maxLength: 3 })) }),
  ),
});
type UserSeed = typeof userArb extends fc.Arbitrary<infer T> ? T : never;

function clean<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as T;
}

function toUser(seed: UserSeed, index: number): ScimResource {
  const meta = { resourceType: 'User', created: seed.created, lastModified: seed.created, version: 'W/"1"' };
  const enterprise = seed.enterprise === undefined ? undefined : clean(seed.enterprise);
  const ext = seed.ext === undefined ? undefined : clean(seed.ext);
  return clean({
    schemas: [URN.user],
    id: `u${index}`,
    userName: seed.userName,
    title: seed.title,
    displayName: seed.displayName,
    externalId: seed.externalId,
    active: seed.active,
    name: seed.name === undefined ? undefined : clean(seed.name),
    emails: seed.emails?.map((e) => clean(e)),
    [URN.enterpriseUser]: enterprise,
    [EXT]: ext,
    meta,
  }) as unknown as ScimResource;
}

interface PathKind {
  readonly path: AttrPath;
  readonly type: 'string' | 'boolean' | 'number' | 'dateTime' | 'complex';
}

const USER_PATHS: readonly PathKind[] = [
  { path: { attr: 'userName' }, type: 'string' },
  { path: { attr: 'title' }, type: 'string' },
  { path: { attr: 'displayName' }, type: 'string' },
  { path: { attr: 'externalId' }, type: 'string' },
  { path: { attr: 'id' }, type: 'string' },
  { path: { attr: 'active' }, type: 'boolean' },
  { path: { attr: 'name', subAttr: 'familyName' }, type: 'string' },
  { path: { uri: URN.user, attr: 'name', subAttr: 'givenName' }, type: 'string' },
  { path: { attr: 'emails', subAttr: 'value' }, type: 'string' },
  { path: { attr: 'emails', subAttr: 'type' }, type: 'string' },
  { path: { attr: 'emails' }, type: 'complex' },
  { path: { attr: 'meta', subAttr: 'created' }, type: 'dateTime' },
  { path: { uri: URN.enterpriseUser, attr: 'department' }, type: 'string' },
  { path: { uri: EXT, attr: 'level' }, type: 'number' },
  { path: { uri: EXT, attr: 'score' }, type: 'number' },
  { path: { uri: EXT, attr: 'flag' }, type: 'boolean' },
  { path: { uri: EXT, attr: 'since' }, type: 'dateTime' },
  { path: { uri: EXT, attr: 'code' }, type: 'string' },
  { path: { uri: EXT, attr: 'tags' }, type: 'string' },
  { path: { attr: 'nickName' }, type: 'string' },
];

const ORDERED: readonly CompareOperator[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];
const ALL: readonly CompareOperator[] = [...ORDERED, 'co', 'sw', 'ew'];

function leafArb(paths: readonly PathKind[]): fc.Arbitrary<Filter> {
  return fc.constantFrom(...paths).chain(({ path, type }): fc.Arbitrary<Filter> => {
    const present = fc.constant<Filter>({ kind: 'present', path });
    const nullCompare = fc.constantFrom<CompareOperator>('eq', 'ne').map((op): Filter => ({ kind: 'compare', path, op, value: null }));
    switch (type) {
      case 'string':
      case 'complex':
        return fc.oneof(present, nullCompare, fc.tuple(fc.constantFrom(...ALL), text).map(([op, value]): Filter => ({ kind: 'compare', path, op, value })));
      case 'boolean':
        return fc.oneof(present, nullCompare, fc.tuple(fc.constantFrom<CompareOperator>('eq', 'ne'), fc.boolean()).map(([op, value]): Filter => ({ kind: 'compare', path, op, value })));
      case 'number':
        return fc.oneof(present, nullCompare, fc.tuple(fc.constantFrom(...ORDERED), number).map(([op, value]): Filter => ({ kind: 'compare', path, op, value })));
      case 'dateTime':
        return fc.oneof(present, nullCompare, fc.tuple(fc.constantFrom(...ORDERED), instant).map(([op, value]): Filter => ({ kind: 'compare', path, op, value })));
    }
  });
}

const EMAIL_PATHS: readonly PathKind[] = [
  { path: { attr: 'value' }, type: 'string' },
  { path: { attr: 'type' }, type: 'string' },
  { path: { attr: 'primary' }, type: 'boolean' },
];

function filterArb(paths: readonly PathKind[], valuePath: fc.Arbitrary<Filter> | undefined): fc.Arbitrary<Filter> {
  const { tree } = fc.letrec<{ tree: Filter }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leafArb(paths),
      ...(valuePath === undefined ? [] : [valuePath]),
      fc.tuple(fc.constantFrom<'and' | 'or'>('and', 'or'), tie('tree'), tie('tree')).map(([kind, left, right]): Filter => ({ kind, left, right })),
      tie('tree').map((filter): Filter => ({ kind: 'not', filter })),
    ),
  }));
  return tree;
}

const emailsValuePath = filterArb(EMAIL_PATHS, undefined).map((filter): Filter => ({ kind: 'valuePath', path: { attr: 'emails' }, filter }));
const userFilter = filterArb(USER_PATHS, emailsValuePath);

const sortArb = fc.option(
  fc.record({
    path: fc.constantFrom(...USER_PATHS.map((p) => p.path)),
    order: fc.constantFrom<'ascending' | 'descending'>('ascending', 'descending'),
  }),
  { nil: undefined },
);
const pageArb = fc.option(fc.record({ startIndex: fc.integer({ min: 1, max: 6 }), count: fc.integer({ min: 0, max: 5 }) }), { nil: undefined });

/** The decisions' `ne`: the negation of `eq` (a value-less attribute matches). */
function negateNe(filter: Filter): Filter {
  switch (filter.kind) {
    case 'compare':
      return filter.op === 'ne' && filter.value !== null ? { kind: 'not', filter: { ...filter, op: 'eq' } } : filter;
    case 'and':
    case 'or':
      return { ...filter, left: negateNe(filter.left), right: negateNe(filter.right) };
    case 'not':
      return { ...filter, filter: negateNe(filter.filter) };
    case 'valuePath':
      return { ...filter, filter: negateNe(filter.filter) };
    default:
      return filter;
  }
}

interface Query {
  readonly filter?: Filter;
  readonly sort?: { path: AttrPath; order: 'ascending' | 'descending' };
  readonly page?: { startIndex: number; count: number };
}

/** What the evaluator answers: filter, stable sort over creation order, page. */
function expected(model: ResourceModel, resources: readonly ScimResource[], query: Query): { ids: string[]; total: number } | undefined {
  const matches = query.filter === undefined ? undefined : compileFilter(negateNe(query.filter), model);
  if (matches !== undefined && !matches.ok) return undefined;
  const compare = query.sort === undefined ? undefined : compileSort(query.sort.path, query.sort.order, model);
  if (compare !== undefined && !compare.ok) return undefined;
  let found = matches === undefined ? [...resources] : resources.filter(matches.value);
  if (compare !== undefined) found = found.sort(compare.value);
  const total = found.length;
  if (query.page !== undefined) found = found.slice(query.page.startIndex - 1, query.page.startIndex - 1 + query.page.count);
  return { ids: found.map((r) => r.id), total };
}

async function actual(store: ScimStore, model: ResourceModel, tenant: string, query: Query): Promise<{ ids: string[]; total: number }> {
  const result = await store.query(
    model.definition.name,
    {
      semantics: { matches: () => true, attribute: (path) => model.facts(path) },
      ...(query.filter === undefined ? {} : { filter: query.filter }),
      ...(query.sort === undefined ? {} : { sort: query.sort }),
      ...(query.page === undefined ? {} : query.page),
    },
    { tenant },
  );
  return { ids: result.resources.map((r) => r.id), total: result.totalResults };
}

/** Every id the query matches, following nextCursor from the first page, then previousCursor back: both must agree. */
async function walk(store: ScimStore, model: ResourceModel, tenant: string, query: Query): Promise<string[]> {
  const page = (cursor: string) =>
    store.query(
      model.definition.name,
      {
        semantics: { matches: () => true, attribute: (path) => model.facts(path) },
        ...(query.filter === undefined ? {} : { filter: query.filter }),
        ...(query.sort === undefined ? {} : { sort: query.sort }),
        cursor,
        count: 2,
      },
      { tenant },
    );
  const forward: string[] = [];
  let result = await page('');
  forward.push(...result.resources.map((r) => r.id));
  while (result.nextCursor !== undefined) {
    result = await page(result.nextCursor);
    forward.push(...result.resources.map((r) => r.id));
  }
  const backward = result.resources.map((r) => r.id);
  while (result.previousCursor !== undefined) {
    result = await page(result.previousCursor);
    backward.unshift(...result.resources.map((r) => r.id));
  }
  expect(backward).toEqual(forward);
  return forward;
}

function describeQuery(query: Query): string {
  return JSON.stringify({ ...query, filter: query.filter === undefined ? undefined : printFilter(query.filter) });
}

describe('filters, sorts and pages in SQL equal the in-memory evaluator', () => {
  let store: ScimStore;
  let tenants = 0;
  beforeAll(async () => {
    store = createPostgresStore(await freshSchema());
  }, 120_000);

  it('on random users', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(userArb, { minLength: 1, maxLength: 12 }), fc.array(fc.record({ filter: fc.option(userFilter, { nil: undefined }), sort: sortArb, page: pageArb }), { minLength: 6, maxLength: 6 }), async (seeds, queries) => {
        const tenant = `diff-${++tenants}`;
        const users = seeds.map(toUser);
        for (const user of users) expect((await store.create('User', user, { tenant, unique: [] })).ok).toBe(true);
        for (const raw of queries) {
          const query = clean(raw) as Query;
          const want = expected(userModel, users, query);
          if (want === undefined) continue; // a 400 in the core: never reaches a store
          const got = await actual(store, userModel, tenant, query);
          expect(got, describeQuery(query)).toEqual(want);
          if (query.page === undefined) {
            // The same query walked with keyset cursors, 2 at a time, forward then backward.
            const all = expected(userModel, users, query);
            expect(await walk(store, userModel, tenant, query), `cursor walk of ${describeQuery(query)}`).toEqual(all?.ids);
          }
        }
      }),
      { numRuns: 60 },
    );
  }, 300_000);

  it('on random groups, through the members table', async () => {
    const memberFilter = filterArb(
      [
        { path: { attr: 'displayName' }, type: 'string' },
        { path: { attr: 'members', subAttr: 'value' }, type: 'string' },
        { path: { attr: 'members', subAttr: 'type' }, type: 'string' },
        { path: { attr: 'members' }, type: 'complex' },
      ],
      filterArb(
        [
          { path: { attr: 'value' }, type: 'string' },
          { path: { attr: 'type' }, type: 'string' },
        ],
        undefined,
      ).map((filter): Filter => ({ kind: 'valuePath', path: { attr: 'members' }, filter })),
    );
    const groupArb = fc.record({
      displayName: text,
      members: fc.array(fc.record({ value: fc.constantFrom('u1', 'U1', 'u2', 'a%', 'a_b'), type: optional(fc.constantFrom('User', 'Group', 'user')) }), { maxLength: 4 }),
    });
    const groupSort = fc.option(
      fc.record({ path: fc.constantFrom<AttrPath>({ attr: 'displayName' }, { attr: 'members', subAttr: 'value' }, { attr: 'members' }), order: fc.constantFrom<'ascending' | 'descending'>('ascending', 'descending') }),
      { nil: undefined },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(groupArb, { minLength: 1, maxLength: 8 }), fc.array(fc.record({ filter: fc.option(memberFilter, { nil: undefined }), sort: groupSort, page: pageArb }), { minLength: 6, maxLength: 6 }), async (seeds, queries) => {
        const tenant = `diff-${++tenants}`;
        const groups = seeds.map((seed, index): ScimResource => {
          const members = seed.members.map((m) => clean(m));
          return clean({
            schemas: [URN.group],
            id: `g${index}`,
            displayName: seed.displayName,
            members: members.length === 0 ? undefined : members,
            meta: { resourceType: 'Group', created: '2026-01-01T00:00:00Z', lastModified: '2026-01-01T00:00:00Z', version: 'W/"1"' },
          }) as unknown as ScimResource;
        });
        for (const group of groups) expect((await store.create('Group', group, { tenant, unique: [] })).ok).toBe(true);
        for (const raw of queries) {
          const query = clean(raw) as Query;
          const want = expected(groupModel, groups, query);
          if (want === undefined) continue;
          const got = await actual(store, groupModel, tenant, query);
          expect(got, describeQuery(query)).toEqual(want);
        }
      }),
      { numRuns: 40 },
    );
  }, 300_000);
});
