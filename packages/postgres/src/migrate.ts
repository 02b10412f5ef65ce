import { bootstrapStatements, MIGRATIONS } from './migrations.js';
import type { SqlClient } from './sql-client.js';
import { storeTables } from './sql-names.js';

export interface MigrateOptions {
  /** PostgreSQL schema holding the tables. Default `public`. */
  readonly schema?: string;
}

export interface MigrateResult {
  /** Versions this call applied (empty when the schema was already current). */
  readonly applied: readonly number[];
  /** The schema version after the call. */
  readonly version: number;
}

/**
 * Creates or upgrades the store's schema to the latest version. Idempotent, and safe to run from
 * several instances at once: each version is applied in one transaction under a transaction-level
 * advisory lock, and a version already recorded in `scim_migrations` is skipped.
 */
export async function migrate(client: SqlClient, options: MigrateOptions = {}): Promise<MigrateResult> {
  const tables = storeTables(options.schema ?? 'public');
  const lockKey = `scimkit:${tables.schema}`;
  const applied: number[] = [];
  return client.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockKey]);
    for (const statement of bootstrapStatements(tables)) await tx.query(statement);
    const done = await tx.query<{ version: number }>(`SELECT version FROM ${tables.migrations}`);
    const known = new Set(done.rows.map((row) => Number(row.version)));
    for (const migration of MIGRATIONS) {
      if (known.has(migration.version)) continue;
      for (const statement of migration.statements(tables)) await tx.query(statement);
      await tx.query(`INSERT INTO ${tables.migrations} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      applied.push(migration.version);
    }
    return { applied, version: Math.max(0, ...known, ...applied) };
  });
}
