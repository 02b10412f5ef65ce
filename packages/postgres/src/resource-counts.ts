import type { StoreTables } from './sql-names.js';

/**
 * One create or delete in this many folds the count changes of its (tenant, type) into the totals
 * (docs/stores/postgres.md, "Exact counts"): a read of a count sums about that many change rows
 * besides the totals.
 */
export const COUNT_FOLD_EVERY = 64;

/**
 * Whether the write of the resource `id` folds its type's count changes: one id in
 * COUNT_FOLD_EVERY, by a hash of the id (the top bits of its FNV-1a), so that no pattern of writes
 * (a type written every 64th time, several instances) leaves a type's changes unfolded: each write
 * folds with the same chance whatever was written before it.
 */
export function foldsCounts(id: string): boolean {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash >>> (32 - Math.log2(COUNT_FOLD_EVERY)) === 0;
}

/**
 * The CTE (after a `WITH` and its first CTE) that records a change of `delta` to the count of
 * (`$1`, `$2`) for each row `source` returned (the create's `inserted`, the delete's `deleted`): a
 * row of its own in the change table, in the same statement as the write (the change commits with
 * the write, or neither does). An insert locks no row another write waits for; adding to a total
 * row instead (an upsert) cost a create 22-36 µs of PostgreSQL's CPU with 10 or 16 writers at once,
 * a change row 12-24 µs, its fold and vacuum included (docs/performance.md). With `fold`, the
 * statement also folds the changes (foldCtes).
 */
export function countedCte(t: StoreTables, source: string, delta: 1 | -1, fold = false): string {
  return `, counted AS (
      ${countInsert(t, source, delta)}
    )${fold ? foldCtes(t) : ''}`;
}

/** The insert of `countedCte`, which a plain create also sends as its statement's main query. */
export function countInsert(t: StoreTables, source: string, delta: 1 | -1): string {
  return `INSERT INTO ${t.countChanges} (tenant, resource_type, n) SELECT $1, $2, ${delta} FROM ${source}`;
}

/**
 * The CTEs that fold the committed changes of (`$1`, `$2`) into its total: they are deleted and
 * their sum added to the total row (shard 0) in the same statement, so a reader's snapshot sees
 * them in one place or the other. The changes of writes still running (and the statement's own)
 * are not seen, and stay for the next fold; two folds at once wait for each other's row locks and
 * a change is deleted, so added, by one of them only.
 */
export function foldCtes(t: StoreTables): string {
  return `, folded AS (
      DELETE FROM ${t.countChanges} WHERE tenant = $1 AND resource_type = $2 RETURNING n
    ), totalled AS (
      INSERT INTO ${t.counts} AS c (tenant, resource_type, shard, n) SELECT $1, $2, 0, sum(n) FROM folded HAVING count(*) > 0
      ON CONFLICT (tenant, resource_type, shard) DO UPDATE SET n = c.n + excluded.n
    )`;
}

/**
 * The exact number of resources of (`$1`, `$2`): the sum of its total rows (up to 64, the shards
 * schema version 8 wrote) and of its change rows not folded yet, in one snapshot.
 */
export function countSql(t: StoreTables): string {
  return `SELECT (SELECT coalesce(sum(n), 0) FROM ${t.counts} WHERE tenant = $1 AND resource_type = $2)
    + (SELECT coalesce(sum(n), 0) FROM ${t.countChanges} WHERE tenant = $1 AND resource_type = $2) AS total`;
}
