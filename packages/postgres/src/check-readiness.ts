import { classifyError } from './classify-error.js';
import { MIGRATIONS } from './migrations.js';
import type { SqlClient } from './sql-client.js';
import { storeTables } from './sql-names.js';

export interface ReadinessOptions {
  /** PostgreSQL schema holding the tables. Default `public`. */
  readonly schema?: string;
}

/** Whether the store can serve requests now, and if not, why (for a readiness probe's body and the logs). */
export type Readiness =
  | { readonly ready: true; readonly version: number }
  | { readonly ready: false; readonly reason: 'unreachable' | 'migrations' | 'failed'; readonly detail: string };

/**
 * Readiness, as an orchestrator probes it (Kubernetes `readinessProbe`): the database answers a
 * statement and the store's schema is at the version this package needs. Never throws. Liveness is
 * separate: a process whose database is down is alive, and restarting it does not help
 * (docs/operations/database-failures.md).
 */
export async function checkReadiness(client: SqlClient, options: ReadinessOptions = {}): Promise<Readiness> {
  const tables = storeTables(options.schema ?? 'public');
  const latest = Math.max(...MIGRATIONS.map((migration) => migration.version));
  try {
    const found = await client.query<{ present: string | null }>(`SELECT to_regclass($1)::text AS present`, [tables.migrations]);
    if (found.rows[0]?.present == null) return { ready: false, reason: 'migrations', detail: 'the store schema is not created: run migrate()' };
    const done = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${tables.migrations}`);
    const version = Number(done.rows[0]?.version ?? 0);
    if (version < latest) return { ready: false, reason: 'migrations', detail: `the store schema is at version ${version}, this package needs ${latest}: run migrate()` };
    return { ready: true, version };
  } catch (error) {
    const unavailable = classifyError(error);
    if (unavailable !== undefined) return { ready: false, reason: 'unreachable', detail: unavailable.message };
    return { ready: false, reason: 'failed', detail: error instanceof Error ? error.message : String(error) };
  }
}
