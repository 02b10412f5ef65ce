/**
 * The upgrade of a PostgreSQL store schema from version 1 (`json`) to version 2 (`jsonb`), at scale:
 * users written as version 1 wrote them (one group of 100 members per 1,000 users), then `migrate()`
 * timed, against the time loading the same rows took in the same run; then the plans of the lookups
 * on the upgraded tables (the expression indexes are rebuilt on jsonb).
 *
 *   npx tsx bench/postgres-migrate.bench.ts     # SCIMKIT_PG_URL (default postgres://postgres@127.0.0.1:5432/test), USERS=100000
 */
import { createHash } from 'node:crypto';
import { createSchemaRegistry, groupResourceType, userResourceType, type ResourceModel } from '@scimkit/core';
import { parseFilter } from '@scimkit/core/engine';
import { createPostgresStore, fromPgPool, migrate, type SqlClient } from '@scimkit/postgres';
import pg from 'pg';
import { bootstrapStatements, MIGRATIONS } from '../packages/postgres/src/migrations.js';
import { storeTables } from '../packages/postgres/src/sql-names.js';
import { scanNodes, usersInsert, withFreshDatabase } from './lib/postgres-bench.js';

const USERS = Number(process.env['USERS'] ?? 100_000);

const registry = createSchemaRegistry({ resourceTypes: [userResourceType, groupResourceType] });
const userModel = registry.resourceType('User') as ResourceModel;
const groupModel = registry.resourceType('Group') as ResourceModel;

/** The schema at version 1, as `migrate` of @scimkit/postgres 0.1 left it. */
async function versionOne(client: SqlClient): Promise<void> {
  const t = storeTables('public');
  const [first] = MIGRATIONS;
  if (first === undefined) throw new Error('no version 1');
  await client.transaction(async (tx) => {
    for (const statement of [...bootstrapStatements(t), ...first.statements(t)]) await tx.query(statement);
    await tx.query(`INSERT INTO ${t.migrations} (version, name) VALUES (1, $1)`, [first.name]);
  });
}

/** Users, their unique values and groups of 100 members, in json columns, as the version 1 store wrote them. */
async function loadVersionOne(pool: pg.Pool, users: number): Promise<void> {
  await pool.query(usersInsert('json', '1', '$1::int'), [users]);
  await pool.query('ANALYZE public.scim_resources');
  await pool.query(
    `INSERT INTO public.scim_unique_values (tenant, resource_type, attribute, key, id)
     SELECT '', 'User', 'userName', 's:user' || n || '@example.com', 'u' || n FROM generate_series(1, $1::int) n`,
    [users],
  );
  const groups = Math.floor(users / 1000);
  await pool.query(
    `INSERT INTO public.scim_resources (tenant, resource_type, id, version, created, last_modified, data)
     SELECT '', 'Group', 'g' || k, 'W/"1"', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', json_build_object(
       'schemas', json_build_array('urn:ietf:params:scim:schemas:core:2.0:Group'), 'id', 'g' || k, 'displayName', 'Group ' || k, 'members', json_build_array(),
       'meta', json_build_object('resourceType', 'Group', 'created', '2026-01-01T00:00:00.000Z', 'lastModified', '2026-01-01T00:00:00.000Z', 'version', 'W/"1"'))
     FROM generate_series(1, $1::int) k`,
    [groups],
  );
  await pool.query(
    `INSERT INTO public.scim_group_members (tenant, resource_type, group_id, position, member_id, type, element)
     SELECT '', 'Group', 'g' || k, j, 'u' || (1000 * (k - 1) + 1 + j * 10), 'User',
            json_build_object('value', 'u' || (1000 * (k - 1) + 1 + j * 10), 'type', 'User')
     FROM generate_series(1, $1::int) k, generate_series(0, 99) j`,
    [groups],
  );
}

async function main(): Promise<void> {
  await withFreshDatabase(4, async (pool) => {
    const client = fromPgPool(pool);
    await versionOne(client);
    let started = performance.now();
    await loadVersionOne(pool, USERS);
    await pool.query('ANALYZE');
    const loadSeconds = (performance.now() - started) / 1000;
    const size = await pool.query<{ bytes: string }>(`SELECT pg_total_relation_size('public.scim_resources') + pg_total_relation_size('public.scim_group_members') AS bytes`);
    started = performance.now();
    const migrated = await migrate(client);
    const migrateSeconds = (performance.now() - started) / 1000;
    if (migrated.applied.join() !== '2') throw new Error(`applied ${migrated.applied.join()}`);
    await pool.query('ANALYZE');

    const members = Math.floor(USERS / 1000) * 100;
    console.log(`| users | member rows | tables and indexes (v1) | load as v1 | migrate v1 → v2 | **migrate / load** |`);
    console.log('|---|---|---|---|---|---|');
    console.log(
      `| ${USERS.toLocaleString('en-US')} | ${members.toLocaleString('en-US')} | ${(Number(size.rows[0]?.bytes) / 2 ** 20).toFixed(0)} MB | ${loadSeconds.toFixed(1)} s | ${migrateSeconds.toFixed(1)} s | **${((100 * migrateSeconds) / loadSeconds).toFixed(0)}%** |`,
    );

    // The lookups after the upgrade, through the store's own statements.
    let last = { text: '', params: [] as readonly unknown[] };
    const store = createPostgresStore({
      client: {
        query: (text, params = []) => {
          last = { text, params };
          return client.query(text, params);
        },
        transaction: (work) => client.transaction(work),
      },
    });
    const n = Math.max(1, Math.floor(USERS / 2) + 1);
    const cases: [ResourceModel, string][] = [
      [userModel, `userName eq "USER${n}@example.com"`],
      [userModel, `externalId eq "${createHash('md5').update(String(n)).digest('hex')}"`],
      [groupModel, `members.value eq "u${1000 * Math.floor((n - 1) / 1000) + 1}"`],
    ];
    console.log('\n| lookup after the upgrade | results | plan (scan nodes of the store\'s statement) |');
    console.log('|---|---|---|');
    for (const [model, filter] of cases) {
      const parsed = parseFilter(filter);
      if (!parsed.ok) throw new Error(filter);
      const found = await store.query(model.definition.name, { filter: parsed.value, semantics: { matches: () => true, attribute: (path) => model.facts(path) }, startIndex: 1, count: 100 });
      console.log(`| \`${filter.split(' ').slice(0, 2).join(' ')}\` | ${found.totalResults} | ${await scanNodes(pool, last)} |`);
    }
  });
}

await main();
