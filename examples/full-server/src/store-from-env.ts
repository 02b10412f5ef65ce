import type { ScimStore } from '@scimkit/core';
import { openPostgresStore, postgresOptionsFromEnv, type SqlClient } from '@scimkit/postgres';

/** The store the server runs on, and how to let go of it at shutdown. */
export interface SelectedStore {
  /** Undefined: the configuration's own in-memory store. */
  readonly store?: ScimStore;
  /** What it is, for the start-up line (no password). */
  readonly description: string;
  /** Whether the store can serve now: the database answers and the schema is current (for `/readyz`). */
  ready(): Promise<{ readonly ready: boolean; readonly detail?: string }>;
  /** The PostgreSQL connection, when the store is one (the console's request log keeps its table there). */
  readonly client?: SqlClient;
  /**
   * Only this process can use the store (PGlite: one process opens a directory; memory): an event
   * dispatcher may take back at once the partitions an earlier run of the process left leased.
   */
  readonly exclusive: boolean;
  close(): Promise<void>;
}

/**
 * The store `SCIMKIT_STORE` names: unset (or `memory`) keeps the in-memory store; `pglite:./data`
 * keeps everything in a PGlite directory (a restart loses nothing); `postgres://user@host/db` uses
 * a PostgreSQL server, waiting for it at start-up (SCIMKIT_PG_STARTUP_TIMEOUT_MS, default 60 s) and bounded
 * by the SCIMKIT_PG_* timeouts (`postgresOptionsFromEnv` of @scimkit/postgres). The schema is migrated on start.
 */
export async function storeFromEnv(value: string | undefined = process.env['SCIMKIT_STORE']): Promise<SelectedStore> {
  if (value === undefined || value === '' || value === 'memory') return { description: 'in-memory store', exclusive: true, ready: async () => ({ ready: true }), close: async () => undefined };
  const opened = await openPostgresStore(value, postgresOptionsFromEnv());
  const description = value.startsWith('pglite:') ? `PGlite store in ${value.slice('pglite:'.length) || 'memory'}` : 'PostgreSQL store';
  return { store: opened.store, client: opened.client, description, exclusive: value.startsWith('pglite:'), ready: opened.ready, close: opened.close };
}
