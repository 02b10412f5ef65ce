/**
 * What keeping the exact count costs a create in PostgreSQL, without HTTP or SCIM: K connections
 * create at once, each statement named (prepared), the variants in turns (each round in another
 * order), and the backend CPU time of the K connections (/proc/<pid>/stat) per create is reported,
 * with a VACUUM of the count tables after each turn counted in (what the variant leaves for it):
 *
 * - `limit`: the hand-written service's INSERT (no userName key, no count);
 * - `no count`: the store's row INSERT with its userName key, no count;
 * - `v8 upsert`: schema version 8's statement, the count row's upsert on one of 64 shards;
 * - `v9 change`: this version's, a count change row, one create in 64 folding the type's changes.
 *
 * The rows go to a tenant of their own (`count-cost`), deleted with its counts at the end.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<a database migrated to the latest version> K=16 N=4000 ROUNDS=4 npx tsx bench/postgres-limit/count-cost.ts
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { createSql } from '../../packages/postgres/src/resource-writes.js';
import { foldsCounts } from '../../packages/postgres/src/resource-counts.js';
import { storeTables } from '../../packages/postgres/src/sql-names.js';

const K = Number(process.env['K'] ?? 16);
const N = Number(process.env['N'] ?? 4000);
const ROUNDS = Number(process.env['ROUNDS'] ?? 4);
const TENANT = 'count-cost';
const t = storeTables('public');
const insert = `INSERT INTO ${t.resources} (tenant, resource_type, id, version, created, last_modified, data, unique_key) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`;
const texts: Record<string, string> = {
  limit: `INSERT INTO ${t.resources} (tenant, resource_type, id, version, created, last_modified, data) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
  'no count': insert,
  'v8 upsert': `WITH inserted AS (${insert} RETURNING id) INSERT INTO ${t.counts} AS c (tenant, resource_type, shard, n) SELECT $1, $2, hashtext($3) & 63, 1 FROM inserted
    ON CONFLICT (tenant, resource_type, shard) DO UPDATE SET n = c.n + excluded.n RETURNING 1 AS written`,
  'v9 change': createSql(t, false),
  'v9 change, folding': createSql(t, false, '', '', true),
};
const variants = ['limit', 'no count', 'v8 upsert', 'v9 change'];

function params(variant: string): { name: string; values: unknown[] } {
  const id = randomUUID();
  const userName = `cost-${id}@example.com`;
  const data = JSON.stringify({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id,
    externalId: `ext-${id}`,
    userName,
    name: { givenName: 'New', familyName: 'User' },
    displayName: 'New User',
    active: true,
    emails: [{ value: userName, type: 'work', primary: true }],
    meta: { resourceType: 'User', created: '2026-11-26T07:00:00.000Z', lastModified: '2026-11-26T07:00:00.000Z', version: 'W/"1"' },
  });
  const values = [TENANT, 'User', id, 'W/"1"', '2026-11-26T07:00:00.000Z', '2026-11-26T07:00:00.000Z', data, `s:${userName}`];
  if (variant === 'limit') return { name: variant, values: values.slice(0, 7) };
  return { name: variant === 'v9 change' && foldsCounts(id) ? 'v9 change, folding' : variant, values };
}

const admin = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
await admin.connect();
const clients = await Promise.all(
  Array.from({ length: K }, async () => {
    const client = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
    await client.connect();
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
    return { client, pid };
  }),
);
const adminPid = (await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
/** CPU ticks of the K backends and of the one that vacuums. */
const ticks = (): number =>
  [...clients.map((c) => c.pid), adminPid].reduce<number>((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return sum + Number(fields[11]) + Number(fields[12]);
  }, 0);

const totals = new Map<string, { micros: number; n: number }>();
try {
  for (let round = -1; round < ROUNDS; round++) {
    for (let i = 0; i < variants.length; i++) {
      const variant = variants[(i + Math.max(0, round)) % variants.length] as string;
      let left = round < 0 ? 200 : N; // round -1: warm-up (prepared statements, caches)
      const before = ticks();
      await Promise.all(
        clients.map(async ({ client }) => {
          while (left-- > 0) {
            const { name, values } = params(variant);
            await client.query({ name: name.replace(/\W+/g, '_'), text: texts[name] as string, values });
          }
        }),
      );
      await admin.query(`VACUUM ${t.counts}, ${t.countChanges}`);
      if (round < 0) continue;
      const total = totals.get(variant) ?? { micros: 0, n: 0 };
      totals.set(variant, { micros: total.micros + (ticks() - before) * 10_000, n: total.n + N });
    }
  }
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`${K} connections, ${ROUNDS} rounds of ${N} creates per variant, load average ${load}\n`);
  console.log('| statement | backend CPU µs per create (VACUUM included) |\n|---|---|');
  for (const [variant, total] of totals) console.log(`| ${variant} | ${(total.micros / total.n).toFixed(1)} |`);
} finally {
  await admin.query(`DELETE FROM ${t.resources} WHERE tenant = $1`, [TENANT]);
  await admin.query(`DELETE FROM ${t.counts} WHERE tenant = $1`, [TENANT]);
  await admin.query(`DELETE FROM ${t.countChanges} WHERE tenant = $1`, [TENANT]);
  await Promise.all(clients.map(({ client }) => client.end()));
  await admin.end();
}
