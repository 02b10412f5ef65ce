import type { StoreTables } from './sql-names.js';

/**
 * Shards of each (tenant, resource type) count: a write adds to the row of its resource's shard
 * (a hash of its id), so concurrent writes rarely wait for one another's row lock, which a write
 * holds until its commit (a WAL flush); a read sums the shards (docs/stores/postgres.md, "Exact
 * counts"). 64 of them: with 10 writers at once, one write in seven meets another on its row.
 */
export const COUNT_SHARDS = 64;

/**
 * The CTE (after a `WITH` and its first CTE) that adds `delta` to the count of (`$1`, `$2`) for each
 * row `source` returned (the create's `inserted`, the delete's `deleted`), on the shard of the id
 * `$3`. It reads `source`, so it runs after the write (its row lock is taken only once the write
 * succeeded), in the same statement (the count commits with the write, or neither does). A shard's value may be negative (a delete of
 * a resource counted elsewhere: by migration 8, or by `recountResources`); only the sum means anything.
 */
export function countedCte(t: StoreTables, source: string, delta: 1 | -1): string {
  return `, counted AS (
      ${countUpsert(t, source, delta)}
    )`;
}

/** The upsert of `countedCte`, which a plain create also sends as its statement's main query. */
export function countUpsert(t: StoreTables, source: string, delta: 1 | -1): string {
  return `INSERT INTO ${t.counts} AS c (tenant, resource_type, shard, n)
      SELECT $1, $2, hashtext($3) & ${COUNT_SHARDS - 1}, ${delta} FROM ${source}
      ON CONFLICT (tenant, resource_type, shard) DO UPDATE SET n = c.n + excluded.n`;
}

/** The exact number of resources of (`$1`, `$2`): the sum of its shards, one index range scan of at most 64 entries. */
export function countSql(t: StoreTables): string {
  return `SELECT coalesce(sum(n), 0) AS total FROM ${t.counts} WHERE tenant = $1 AND resource_type = $2`;
}
