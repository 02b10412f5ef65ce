import type { ScimStore } from '@scimkit/core';
import { openPostgresStore, postgresOptionsFromEnv } from '@scimkit/postgres';
import { GROUP_FIXTURES } from './seed-service.js';

/** The store the service runs on, and how to let go of it at shutdown. */
export interface SelectedStore {
  /** Undefined: the service's own in-memory store. */
  readonly store?: ScimStore;
  /** What it is, for the start-up line (no password). */
  readonly description: string;
  /** Whether the store can serve now: the database answers and the schema is current (for `/readyz`). */
  ready(): Promise<{ readonly ready: boolean; readonly detail?: string }>;
  close(): Promise<void>;
}

/**
 * The store `SCIMKIT_STORE` names: unset (or `memory`) keeps the in-memory store; `pglite:./data`
 * keeps everything in a PGlite directory (a restart loses nothing); `postgres://user@host/db` uses
 * a PostgreSQL server, waiting for it at start-up (SCIMKIT_PG_STARTUP_TIMEOUT_MS, default 60 s) and bounded
 * by the SCIMKIT_PG_* timeouts (`postgresOptionsFromEnv` of @scimkit/postgres). The schema is migrated and the read-only group fixtures written if missing.
 */
export async function storeFromEnv(value: string | undefined = process.env['SCIMKIT_STORE']): Promise<SelectedStore> {
  if (value === undefined || value === '' || value === 'memory') return { description: 'in-memory store', ready: async () => ({ ready: true }), close: async () => undefined };
  const opened = await openPostgresStore(value, postgresOptionsFromEnv());
  for (const fixture of GROUP_FIXTURES) {
    if ((await opened.store.get('Group', fixture.id)) === undefined) await opened.store.create('Group', fixture, { unique: [] });
  }
  const description = value.startsWith('pglite:') ? `PGlite store in ${value.slice('pglite:'.length) || 'memory'}` : 'PostgreSQL store';
  return { store: opened.store, description, ready: opened.ready, close: opened.close };
}
