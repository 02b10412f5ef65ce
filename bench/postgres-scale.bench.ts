/**
 * PostgreSQL store at scale: users loaded server-side (multi-row INSERT … SELECT) in steps of
 * 10,000, 100,000 and 1,000,000, with groups of 100 members (one group per 1,000 users). At each
 * step, the plan PostgreSQL chooses for the store's own statements (EXPLAIN) and the latency of
 * `userName eq`, `externalId eq` and `members.value eq` through `store.query`.
 *
 *   npx tsx bench/postgres-scale.bench.ts          # SCIMKIT_PG_URL (default postgres://postgres@127.0.0.1:5432/test), STEPS=10000,100000,1000000
 */
import { createSchemaRegistry, groupResourceType, userResourceType, type ResourceModel, type ScimStore } from '@scimkit/core';
import { parseFilter } from '@scimkit/core/engine';
import { createPostgresStore, fromPgPool, migrate, type SqlClient } from '@scimkit/postgres';
import pg from 'pg';
import { createHash } from 'node:crypto';
import { scanNodes, usersInsert, withFreshDatabase } from './lib/postgres-bench.js';

const STEPS = (process.env['STEPS'] ?? '10000,100000,1000000').split(',').map(Number);
const LOOKUPS = Number(process.env['LOOKUPS'] ?? 300);

const registry = createSchemaRegistry({ resourceTypes: [userResourceType, groupResourceType] });
const userModel = registry.resourceType('User') as ResourceModel;
const groupModel = registry.resourceType('Group') as ResourceModel;

/** Records the last statement the store ran, to EXPLAIN exactly that. */
function recording(client: SqlClient): { client: SqlClient; last: () => { text: string; params: readonly unknown[] } } {
  let last = { text: '', params: [] as readonly unknown[] };
  return {
    client: {
      query: (text, params = []) => {
        last = { text, params };
        return client.query(text, params);
      },
      transaction: (work) => client.transaction(work),
    },
    last: () => last,
  };
}

async function loadUsers(pool: pg.Pool, from: number, to: number): Promise<void> {
  await pool.query(usersInsert('jsonb', '$1::int', '$2::int'), [from, to]);
  // Fresh statistics, so the foreign-key checks of the rows below use the primary key.
  await pool.query('ANALYZE public.scim_resources');
  await pool.query(
    `INSERT INTO public.scim_unique_values (tenant, resource_type, attribute, key, id)
     SELECT '', 'User', 'userName', 's:user' || n || '@example.com', 'u' || n FROM generate_series($1::int, $2::int) n`,
    [from, to],
  );
  const groupsFrom = Math.floor((from - 1) / 1000) + 1;
  const groupsTo = Math.floor(to / 1000);
  if (groupsTo < groupsFrom) return;
  await pool.query(
    `INSERT INTO public.scim_resources (tenant, resource_type, id, version, created, last_modified, data)
     SELECT '', 'Group', 'g' || k, 'W/"1"', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', jsonb_build_object(
       'schemas', jsonb_build_array('urn:ietf:params:scim:schemas:core:2.0:Group'), 'id', 'g' || k, 'displayName', 'Group ' || k, 'members', jsonb_build_array(),
       'meta', jsonb_build_object('resourceType', 'Group', 'created', '2026-01-01T00:00:00.000Z', 'lastModified', '2026-01-01T00:00:00.000Z', 'version', 'W/"1"'))
     FROM generate_series($1::int, $2::int) k`,
    [groupsFrom, groupsTo],
  );
  // Group k holds 100 of the users 1000(k-1)+1 … 1000k.
  await pool.query(
    `INSERT INTO public.scim_group_members (tenant, resource_type, group_id, position, member_id, type, element)
     SELECT '', 'Group', 'g' || k, j, 'u' || (1000 * (k - 1) + 1 + j * 10), 'User',
            jsonb_build_object('value', 'u' || (1000 * (k - 1) + 1 + j * 10), 'type', 'User')
     FROM generate_series($1::int, $2::int) k, generate_series(0, 99) j`,
    [groupsFrom, groupsTo],
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

async function lookup(store: ScimStore, model: ResourceModel, filter: string): Promise<number> {
  const parsed = parseFilter(filter);
  if (!parsed.ok) throw new Error(filter);
  const result = await store.query(model.definition.name, {
    filter: parsed.value,
    semantics: { matches: () => true, attribute: (path) => model.facts(path) },
    startIndex: 1,
    count: 100,
  });
  return result.totalResults;
}

async function main(): Promise<void> {
  await withFreshDatabase(4, async (pool) => {
    const raw = fromPgPool(pool);
    await migrate(raw);
    const recorder = recording(raw);
    const store = createPostgresStore({ client: recorder.client });
    console.log('| users | lookup | plan (scan nodes of the store\'s statement) | median | p95 |');
    console.log('|---|---|---|---|---|');
    let loaded = 0;
    for (const step of STEPS) {
      const started = performance.now();
      await loadUsers(pool, loaded + 1, step);
      await pool.query('ANALYZE');
      console.error(`loaded ${step} users in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      loaded = step;
      const cases: { name: string; model: ResourceModel; filter: (n: number) => string; expect: number }[] = [
        { name: 'userName eq', model: userModel, filter: (n) => `userName eq "USER${n}@example.com"`, expect: 1 },
        { name: 'externalId eq', model: userModel, filter: (n) => `externalId eq "${md5Hex(n)}"`, expect: 1 },
        { name: 'members.value eq', model: groupModel, filter: (n) => `members.value eq "u${1000 * Math.floor((n - 1) / 1000) + 1 + 10 * (((n - 1) % 1000) % 100)}"`, expect: 1 },
      ];
      for (const c of cases) {
        const times: number[] = [];
        for (let i = 0; i < LOOKUPS; i++) {
          const n = 1 + Math.floor(Math.random() * step);
          const t = performance.now();
          const total = await lookup(store, c.model, c.filter(n));
          times.push(performance.now() - t);
          if (total !== c.expect) throw new Error(`${c.name} for ${n}: ${total} results`);
        }
        const scans = await scanNodes(pool, recorder.last());
        console.log(`| ${step.toLocaleString('en-US')} | \`${c.name}\` | ${scans} | ${median(times).toFixed(2)} ms | ${percentile(times, 0.95).toFixed(2)} ms |`);
      }
    }
  });
}

/** md5(n::text) as PostgreSQL computes it, for externalId lookups. */
function md5Hex(n: number): string {
  return createHash('md5').update(String(n)).digest('hex');
}

await main();
