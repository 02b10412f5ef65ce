import type { SqlClient } from '@scimkit/postgres';
import type { ClientStore, OAuthClient } from './oauth-client.js';

export interface PostgresClientStoreOptions {
  /** The table, created on first use with `CREATE TABLE IF NOT EXISTS`. Default `scimkit_oauth_clients`. */
  readonly table?: string;
}

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Clients in a PostgreSQL table of their own (one row per client: its id, whether it is revoked, and
 * the client as jsonb: secret hashes, never secrets), over the `SqlClient` of `@scimkit/postgres`
 * (`fromPgPool()` or `fromPGlite()`). The table is this package's own, created on first use; it is
 * not part of the SCIM store's migrations.
 */
export function createPostgresClientStore(sql: SqlClient, options: PostgresClientStoreOptions = {}): ClientStore & { ready(): Promise<void> } {
  const table = options.table ?? 'scimkit_oauth_clients';
  if (!TABLE_NAME.test(table)) throw new TypeError('createPostgresClientStore: table must be a lower-case SQL identifier');
  let created: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    created ??= sql
      .query(
        `CREATE TABLE IF NOT EXISTS ${table} (
          client_id text PRIMARY KEY,
          revoked boolean NOT NULL DEFAULT false,
          client jsonb NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        )`,
      )
      .then(() => undefined)
      .catch((error: unknown) => {
        created = undefined;
        throw error;
      });
    return created;
  };
  const parse = (value: unknown): OAuthClient => (typeof value === 'string' ? JSON.parse(value) : value) as OAuthClient;
  return {
    ready,
    async get(clientId) {
      await ready();
      const { rows } = await sql.query<{ client: unknown }>(`SELECT client FROM ${table} WHERE client_id = $1`, [clientId]);
      return rows[0] === undefined ? undefined : parse(rows[0].client);
    },
    async save(client) {
      await ready();
      await sql.query(
        `INSERT INTO ${table} (client_id, revoked, client) VALUES ($1, $2, $3::jsonb)
         ON CONFLICT (client_id) DO UPDATE SET revoked = EXCLUDED.revoked, client = EXCLUDED.client, updated_at = now()`,
        [client.clientId, client.revoked === true, JSON.stringify(client)],
      );
    },
    async list() {
      await ready();
      const { rows } = await sql.query<{ client: unknown }>(`SELECT client FROM ${table} ORDER BY client_id`);
      return rows.map((row) => parse(row.client));
    },
  };
}
