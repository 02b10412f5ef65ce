import { sql, type Kysely } from 'kysely';
import { detectDialect, type SqlDialectName } from '../dialect.js';

/**
 * The outbox tables of `@scimkit/sql` (docs/stores/own-tables.md#events), beside the application's:
 * - `scim_events`: one row per event; `n` its insertion order, `part` its partition, `seq` the
 *   number its reader gives it once committed (null before), `created_at` (ms), the event as JSON;
 * - `scim_event_stamps`: per partition, the last `seq` given (readers take turns on its row);
 * - `scim_event_positions`: each consumer's position per partition, and who leases it until when;
 * - `scim_event_readers`: the instances reading for a consumer, seen within a lease;
 * - `scim_event_dead_letters`: events a consumer gave up on.
 * (`part`, not `partition`: a reserved word in MySQL.)
 */
export const SQL_OUTBOX_TABLES = Object.freeze({
  events: 'scim_events',
  stamps: 'scim_event_stamps',
  positions: 'scim_event_positions',
  readers: 'scim_event_readers',
  deadLetters: 'scim_event_dead_letters',
});

function statements(dialect: SqlDialectName): string[] {
  const t = SQL_OUTBOX_TABLES;
  const key = dialect === 'mysql' ? 'VARCHAR(191)' : 'TEXT';
  const text = dialect === 'mysql' ? 'LONGTEXT' : 'TEXT';
  const serial = dialect === 'postgres' ? 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY' : dialect === 'mysql' ? 'BIGINT AUTO_INCREMENT PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT';
  const order = dialect === 'mysql' ? ', INDEX scim_events_order (part, seq, n)' : '';
  return [
    `CREATE TABLE IF NOT EXISTS ${t.events} (n ${serial}, part INTEGER NOT NULL, seq BIGINT, created_at BIGINT NOT NULL, event ${text} NOT NULL${order})`,
    ...(dialect === 'mysql' ? [] : [`CREATE INDEX IF NOT EXISTS scim_events_order ON ${t.events} (part, seq, n)`]),
    `CREATE TABLE IF NOT EXISTS ${t.stamps} (part INTEGER NOT NULL PRIMARY KEY, seq BIGINT NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${t.positions} (consumer ${key} NOT NULL, part INTEGER NOT NULL, seq BIGINT NOT NULL DEFAULT 0, owner ${key}, lease_until BIGINT, PRIMARY KEY (consumer, part))`,
    `CREATE TABLE IF NOT EXISTS ${t.readers} (consumer ${key} NOT NULL, owner ${key} NOT NULL, seen_until BIGINT NOT NULL, PRIMARY KEY (consumer, owner))`,
    `CREATE TABLE IF NOT EXISTS ${t.deadLetters} (consumer ${key} NOT NULL, event_id ${key} NOT NULL, event ${text} NOT NULL, attempts INTEGER NOT NULL, error ${text} NOT NULL, at BIGINT NOT NULL, PRIMARY KEY (consumer, event_id))`,
  ];
}

/**
 * Create the outbox tables if they are missing (idempotent: run it at start-up or in your
 * migrations; the statements are plain `CREATE TABLE IF NOT EXISTS`).
 */
export async function createSqlOutboxTables(db: Kysely<any>, options: { readonly dialect?: SqlDialectName } = {}): Promise<void> {
  const dialect = options.dialect ?? detectDialect(db);
  for (const statement of statements(dialect)) await sql.raw(statement).execute(db);
}
