import type { SqlClient } from './sql-client.js';
import { storeTables } from './sql-names.js';

export interface RecountOptions {
  /** PostgreSQL schema holding the tables. Default `public`. */
  readonly schema?: string;
}

/**
 * Counts the resources of every tenant and type again into the counts the store keeps (schema
 * version 8; the changes not folded into them yet, version 9, are dropped), which every create and
 * delete of the store maintains: needed only after rows were inserted or deleted in
 * `scim_resources` other than through the store (a bulk load by hand).
 * Writes wait until it commits (a SHARE lock on the resources table: the counts it writes are
 * exact at its commit); it reads every row once.
 */
export async function recountResources(client: SqlClient, options: RecountOptions = {}): Promise<void> {
  const t = storeTables(options.schema ?? 'public');
  await client.transaction(async (tx) => {
    await tx.query(`LOCK TABLE ${t.resources} IN SHARE MODE`);
    await tx.query(`DELETE FROM ${t.counts}`);
    await tx.query(`DELETE FROM ${t.countChanges}`);
    await tx.query(`INSERT INTO ${t.counts} (tenant, resource_type, shard, n) SELECT tenant, resource_type, 0, count(*) FROM ${t.resources} GROUP BY tenant, resource_type`);
  });
}
