import { quoteIdent } from '../sql-names.js';

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
 * Migration 3: the transactional outbox. `xid` is the writing transaction's id: a reader takes only
 * rows below the oldest transaction still running (`pg_snapshot_xmin`), so a row committed late
 * with a lower sequence is never skipped, and orders by (xid, seq). docs/concepts/events.md.
 */
export function outboxStatements(schema: string): string[] {
  const t = outboxTables(schema);
  return [
    `CREATE TABLE ${t.events} (
      partition smallint NOT NULL,
      xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
      seq bigint GENERATED ALWAYS AS IDENTITY,
      id text NOT NULL,
      tenant text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      event jsonb NOT NULL,
      PRIMARY KEY (partition, xid, seq)
    )`,
    `CREATE INDEX scim_events_created ON ${t.events} (created_at)`,
    `CREATE TABLE ${t.positions} (
      consumer text NOT NULL,
      partition smallint NOT NULL,
      xid xid8 NOT NULL DEFAULT '0',
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
