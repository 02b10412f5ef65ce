import { createSchemaRegistry, groupResourceType, URN, userResourceType, type ResourceModel, type ScimResource } from '@scimkit/core';
import { parseFilter } from '@scimkit/core/engine';
import { createPostgresStore, type SqlClient, type SqlQueryable } from '@scimkit/postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSchema } from './fresh-schema.js';

// The store's own statements use the indexes the migrations create: over a few thousand rows with
// fresh statistics, the plan PostgreSQL chooses for each lookup scans its index. An index whose
// expression does not match the query's (a json/jsonb mismatch, say) would never be chosen.
// bench/postgres-scale.bench.ts shows the same plans up to a million users.
const USERS = 5000;
const registry = createSchemaRegistry({ resourceTypes: [userResourceType, groupResourceType] });
const users = registry.resourceType('User') as ResourceModel;
const groups = registry.resourceType('Group') as ResourceModel;
const meta = (resourceType: string) => ({ resourceType, created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' });

let client: SqlClient;
let schema: string;
beforeAll(async () => {
  ({ client, schema } = await freshSchema());
  await load();
}, 120_000);

/** Rows as the store writes them, made server-side: users, and groups of ten members each (in the members table). */
async function load(): Promise<void> {
  await client.query(
    `INSERT INTO "${schema}".scim_resources (tenant, resource_type, id, version, data)
     SELECT '', 'User', 'u' || n, 'W/"1"', jsonb_build_object('schemas', jsonb_build_array($1::text), 'id', 'u' || n, 'userName', 'user' || n, 'externalId', 'ext' || n)
     FROM generate_series(1, $2::int) n`,
    [URN.user, USERS],
  );
  await client.query(
    `INSERT INTO "${schema}".scim_resources (tenant, resource_type, id, version, data)
     SELECT '', 'Group', 'g' || k, 'W/"1"', jsonb_build_object('schemas', jsonb_build_array($1::text), 'id', 'g' || k, 'displayName', 'Group ' || k, 'members', jsonb_build_array())
     FROM generate_series(1, $2::int) k`,
    [URN.group, USERS / 10],
  );
  await client.query(
    `INSERT INTO "${schema}".scim_group_members (tenant, resource_type, group_id, position, member_id, element)
     SELECT '', 'Group', 'g' || (1 + (n - 1) / 10), (n - 1) % 10, 'u' || n, jsonb_build_object('value', 'u' || n)
     FROM generate_series(1, $1::int) n`,
    [USERS],
  );
  await client.query(`ANALYZE "${schema}".scim_resources`);
  await client.query(`ANALYZE "${schema}".scim_group_members`);
}

/** A client that remembers the statements it ran, in and out of transactions. */
function recording(): { client: SqlClient; statements: { text: string; params: readonly unknown[] }[] } {
  const statements: { text: string; params: readonly unknown[] }[] = [];
  const recorded = (target: SqlQueryable): SqlQueryable => ({
    query: (text, params = []) => {
      statements.push({ text, params });
      return target.query(text, params);
    },
  });
  return { client: { ...recorded(client), transaction: (work) => client.transaction((tx) => work(recorded(tx))) }, statements };
}

/** The indexes the plan of a statement scans. */
async function indexScans(statement: { text: string; params: readonly unknown[] }): Promise<string[]> {
  const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement.text}`, statement.params);
  return plan.rows.map((row) => /(?:Index Scan|Index Only Scan|Bitmap Index Scan) (?:Backward )?(?:using |on )(\w+)/.exec(row['QUERY PLAN'])?.[1]).filter((name): name is string => name !== undefined);
}

async function lookup(store: ReturnType<typeof createPostgresStore>, model: ResourceModel, filter: string): Promise<string[]> {
  const parsed = parseFilter(filter);
  if (!parsed.ok) throw new Error(filter);
  const found = await store.query(model.definition.name, { filter: parsed.value, semantics: { matches: () => true, attribute: (path) => model.facts(path) }, startIndex: 1, count: 10 });
  return found.resources.map((r) => r.id);
}

describe('index scans for the lookups identity providers make', () => {
  it('userName, externalId and displayName eq, members.value eq', async () => {
    const recorder = recording();
    const store = createPostgresStore({ client: recorder.client, schema });
    const cases: [ResourceModel, string, string, string][] = [
      [users, 'userName eq "USER77"', 'u77', 'scim_resources_user_name'],
      [users, 'externalId eq "ext77"', 'u77', 'scim_resources_external_id'],
      [groups, 'displayName eq "group 7"', 'g7', 'scim_resources_display_name'],
      [groups, 'members.value eq "u77"', 'g8', 'scim_group_members_member'],
    ];
    for (const [model, filter, id, index] of cases) {
      expect(await lookup(store, model, filter)).toEqual([id]);
      const last = recorder.statements[recorder.statements.length - 1];
      if (last === undefined) throw new Error('no statement');
      expect(await indexScans(last), filter).toContain(index);
    }
  });

  it('a PATCH pushed down with wantPrevious (a request log) is still one statement, each read of it an index probe', async () => {
    const recorder = recording();
    const store = createPostgresStore({ client: recorder.client, schema });
    const done = await (store.assign as NonNullable<typeof store.assign>)('User', 'u78', { values: { title: 'T', name: { givenName: 'G' } }, lastModified: '2026-02-01T00:00:00.000Z', freshVersion: 'W/"9"', maxResourceBytes: 100_000, wantPrevious: true }, {});
    expect(done.ok && [done.changed, done.previous]).toEqual([true, {}]);
    expect(recorder.statements).toHaveLength(1);
    const [statement] = recorder.statements;
    if (statement === undefined) throw new Error('no statement');
    // The row updated and the row as it was (read FOR UPDATE): both found through the primary key.
    expect(await indexScans(statement)).toEqual(['scim_resources_pkey', 'scim_resources_pkey']);
  });

  it('the cascade to a reference attribute kept in the document is a containment a GIN index on data serves', async () => {
    const recorder = recording();
    // No members table: Group.members stays in the document, and a delete finds its holders by `data @>`.
    const store = createPostgresStore({ client: recorder.client, schema, memberAttributes: {} });
    await client.query(`CREATE INDEX data_containment ON "${schema}".scim_resources USING gin (data jsonb_path_ops)`);
    try {
      await store.create('User', { schemas: [URN.user], id: 'x1', userName: 'x1', meta: meta('User') } as ScimResource, { unique: [] });
      const members = [{ value: 'x1' }, { value: 'x2' }];
      await store.create('Group', { schemas: [URN.group], id: 'gx', displayName: 'gx', members, meta: meta('Group') } as ScimResource, { unique: [] });
      const deleted = await store.delete('User', 'x1', undefined, { references: [{ resourceType: 'Group', attribute: 'members' }], touch: (r) => r.meta });
      expect(deleted.ok && deleted.cascaded?.map((c) => [c.after.id, c.after['members']])).toEqual([['gx', [{ value: 'x2' }]]]);
      const containment = recorder.statements.find((s) => s.text.includes('@>'));
      if (containment === undefined) throw new Error('no containment statement');
      expect(await indexScans(containment)).toContain('data_containment');
    } finally {
      await client.query(`DROP INDEX "${schema}".data_containment`);
    }
  });
});
