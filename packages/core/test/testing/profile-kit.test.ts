import { describe, expect, it } from 'vitest';
import { createMemoryStore, createSchemaRegistry, groupResourceType, URN, userResourceType, type ScimResource, type ScimStore } from '../../src/index.js';
import { printFilter } from '../../src/filter/print-filter.js';
import { describeStoreConformance, differentialMismatch, type StoreProfile } from '../../src/testing/index.js';

const registry = createSchemaRegistry({
  resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }] }, groupResourceType],
});
const profile: StoreProfile = {
  user: registry.resourceType('User')!,
  group: registry.resourceType('Group')!,
  declared: ['name.givenName', 'name.familyName', 'displayName', 'active', 'title', 'externalId', `${URN.enterpriseUser}:department`, 'emails[type eq "work"].value'],
  runs: 30,
};

// The reference store passes the profile kit (ids and versions the core's, several tenants).
describeStoreConformance('memory store, through a profile', () => createMemoryStore(), { profile });

/** The memory store, answering every filter that mentions `pattern` with nothing: a silent wrong answer. */
function answersNothingFor(pattern: RegExp): ScimStore {
  const inner = createMemoryStore();
  return {
    ...inner,
    capabilities: { filter: () => true, sort: true, paging: true },
    create: inner.create.bind(inner),
    get: inner.get.bind(inner),
    replace: inner.replace.bind(inner),
    delete: inner.delete.bind(inner),
    query: async (type, query, ctx) => (query.filter !== undefined && pattern.test(printFilter(query.filter)) ? { totalResults: 0, resources: [] } : inner.query(type, query, ctx)),
  };
}

const meta = (resourceType: string) => ({ resourceType, created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' });

describe('the differential check', () => {
  it('catches a store that answers members.display eq with nothing', async () => {
    const store = answersNothingFor(/members\.display/i);
    const alice: ScimResource = { schemas: [URN.user], id: 'a1', userName: 'alice', displayName: 'Alice', meta: meta('User') };
    await store.create('User', alice, { unique: [] });
    await store.create('Group', { schemas: [URN.group], id: 'g1', displayName: 'Admins', members: [{ value: 'a1', type: 'User', display: 'Alice' }], meta: meta('Group') }, { unique: [] });
    const mismatch = await differentialMismatch(store, profile.group!, { filter: 'members.display eq "Alice"' });
    expect(mismatch).toMatch(/totalResults 0, the in-memory evaluator finds 1/);
    expect(await differentialMismatch(createMemoryStoreWith([alice]), profile.user, { filter: 'displayName eq "alice"' })).toBeUndefined();
  });

  it('catches a store that answers meta.resourceType eq with nothing', async () => {
    const store = answersNothingFor(/meta\.resourceType/i);
    await store.create('User', { schemas: [URN.user], id: 'a1', userName: 'alice', meta: meta('User') }, { unique: [] });
    expect(await differentialMismatch(store, profile.user, { filter: 'meta.resourceType eq "User"' })).toMatch(/totalResults 0/);
  });

  it('catches a store that sorts wrongly or pages with repeats', async () => {
    const inner = createMemoryStore();
    for (const [id, name] of [['1', 'b'], ['2', 'a'], ['3', 'c']]) await inner.create('User', { schemas: [URN.user], id: id!, userName: name!, meta: meta('User') }, { unique: [] });
    const unsorted: ScimStore = { ...inner, capabilities: { filter: () => true, sort: true, paging: true }, query: async (type, query, ctx) => inner.query(type, { semantics: query.semantics, ...(query.filter === undefined ? {} : { filter: query.filter }) }, ctx) };
    expect(await differentialMismatch(unsorted, profile.user, { sortBy: 'userName' })).toMatch(/out of order/);
    expect(await differentialMismatch(unsorted, profile.user, { sortBy: 'userName', count: 2 })).toMatch(/returned twice|totalResults|out of order/);
  });
});

function createMemoryStoreWith(resources: readonly ScimResource[]): ScimStore {
  return createMemoryStore({ initial: { User: resources } });
}
