import { quoteIdent, quoteLiteral } from '../sql-names.js';

/** The qualified names of the outbox tables in one PostgreSQL schema (migration 3). */
export interface OutboxTables {
  /** One row per event: partition, transaction id, sequence, the event as jsonb. */
  readonly events: string;
  /** Each consumer's position per partition, and who leases the partition until when. */
  readonly positions: string;
  /** Instances reading for a consumer, seen within a lease: the partitions are shared among them. */
  readonly readers: string;
  /** Events a consumer gave up on. */
  readonly deadLetters: string;
}

export function outboxTables(schema: string): OutboxTables {
  const q = (name: string): string => `${quoteIdent(schema)}.${quoteIdent(name)}`;
  return { events: q('scim_events'), positions: q('scim_event_positions'), readers: q('scim_event_readers'), deadLetters: q('scim_event_dead_letters') };
}

/**
 * Migration 3: the transactional outbox. A write inserts its event rows last in its transaction,
 * after taking the transaction-level advisory lock of each partition it writes to (in ascending
 * order): within a partition rows are inserted one transaction at a time, so their `seq` follows
 * commit order and a reader that resumes after a `seq` never skips a row that commits late.
 * docs/concepts/events.md.
 */
export function outboxStatements(schema: string): string[] {
  const t = outboxTables(schema);
  return [
    `CREATE TABLE ${t.events} (
      partition smallint NOT NULL,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      id text NOT NULL,
      tenant text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      event jsonb NOT NULL,
      PRIMARY KEY (partition, seq)
    )`,
    `CREATE INDEX scim_events_created ON ${t.events} (created_at)`,
    `CREATE TABLE ${t.positions} (
      consumer text NOT NULL,
      partition smallint NOT NULL,
      seq bigint NOT NULL DEFAULT 0,
      owner text,
      lease_until timestamptz,
      PRIMARY KEY (consumer, partition)
    )`,
    `CREATE TABLE ${t.readers} (
      consumer text NOT NULL,
      owner text NOT NULL,
      seen_until timestamptz NOT NULL,
      PRIMARY KEY (consumer, owner)
    )`,
    `CREATE TABLE ${t.deadLetters} (
      consumer text NOT NULL,
      event_id text NOT NULL,
      event jsonb NOT NULL,
      attempts integer NOT NULL,
      error text NOT NULL,
      at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (consumer, event_id)
    )`,
  ];
}

/**
 * One statement: take the transaction-level advisory lock of each partition in `$1` (ascending,
 * keyed by the outbox table's name and the partition), then insert the events of `$2`
 * (`[[partition, event], …]`) in order.
 */
export function insertEventsSql(table: string): string {
  return `WITH locked AS (
      SELECT count(pg_advisory_xact_lock(hashtext(${quoteLiteral(table)}), p)) AS n FROM (SELECT p FROM unnest($1::int[]) WITH ORDINALITY AS x(p, o) ORDER BY o) ordered
    )
    INSERT INTO ${table} (partition, id, tenant, event)
    SELECT (e->>0)::smallint, e->1->>'id', coalesce(e->1->>'tenant', ''), e->1
    FROM locked, jsonb_array_elements($2::jsonb) WITH ORDINALITY AS x(e, n) WHERE locked.n >= 0 ORDER BY x.n`;
}
