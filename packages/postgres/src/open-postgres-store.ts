import type { ScimStore } from '@scimkit/core';
import { fromPGlite } from './from-pglite.js';
import { fromPgPool } from './from-pg-pool.js';
import { migrate } from './migrate.js';
import { createPostgresStore } from './postgres-store.js';
import type { SqlClient } from './sql-client.js';

export interface OpenStoreOptions {
  /** PostgreSQL schema for the tables. Default `public`. */
  readonly schema?: string;
  /** Server only: statement timeout in milliseconds; a query running longer fails (500), never hangs. Default 10,000. */
  readonly statementTimeoutMs?: number;
  /** Server only: connections in the pool. Default 10. */
  readonly poolSize?: number;
}

export interface OpenedStore {
  readonly store: ScimStore;
  readonly client: SqlClient;
  /** Closes the pool or the PGlite instance. */
  close(): Promise<void>;
}

/**
 * Opens a migrated store from a URL: `postgres://…` / `postgresql://…` (a `pg` Pool), or
 * `pglite:./data` (PGlite in that directory; `pglite:` alone or `pglite:memory` keeps it in memory).
 * Runs {@link migrate} before returning. Throws for any other URL.
 */
export async function openPostgresStore(url: string, options: OpenStoreOptions = {}): Promise<OpenedStore> {
  const schema = options.schema ?? 'public';
  let client: SqlClient;
  let close: () => Promise<void>;
  if (/^postgres(?:ql)?:\/\//i.test(url)) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, statement_timeout: options.statementTimeoutMs ?? 10_000 });
    client = fromPgPool(pool);
    close = () => pool.end();
  } else if (/^pglite:/i.test(url)) {
    const where = url.slice('pglite:'.length);
    const { PGlite } = await import('@electric-sql/pglite');
    const db = where === '' || where === 'memory' ? await PGlite.create() : await PGlite.create(where);
    client = fromPGlite(db);
    close = () => db.close();
  } else {
    throw new TypeError(`unsupported store URL '${redact(url)}': use postgres://… or pglite:<directory>`);
  }
  try {
    await migrate(client, { schema });
  } catch (error) {
    await close();
    throw error;
  }
  return { store: createPostgresStore({ client, schema }), client, close };
}

/** A URL without its password, for messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}
