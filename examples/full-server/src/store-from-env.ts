import type { ScimStore } from '@scimkit/core';
import { openPostgresStore, type SqlClient } from '@scimkit/postgres';

/** The store the server runs on, and how to let go of it at shutdown. */
export interface SelectedStore {
  /** Undefined: the configuration's own in-memory store. */
  readonly store?: ScimStore;
  /** What it is, for the start-up line (no password). */
  readonly description: string;
  /** The PostgreSQL connection, when the store is one (the console's request log keeps its table there). */
  readonly client?: SqlClient;
  close(): Promise<void>;
}

/**
 * The store `SCIMKIT_STORE` names: unset (or `memory`) keeps the in-memory store; `pglite:./data`
 * keeps everything in a PGlite directory (a restart loses nothing); `postgres://user@host/db` uses
 * a PostgreSQL server. The schema is migrated on start.
 */
export async function storeFromEnv(value: string | undefined = process.env['SCIMKIT_STORE']): Promise<SelectedStore> {
  if (value === undefined || value === '' || value === 'memory') return { description: 'in-memory store', close: async () => undefined };
  const opened = await openPostgresStore(value);
  const description = value.startsWith('pglite:') ? `PGlite store in ${value.slice('pglite:'.length) || 'memory'}` : 'PostgreSQL store';
  return { store: opened.store, client: opened.client, description, close: opened.close };
}
