import { quoteIdent, quoteLiteral } from '../sql-names.js';

/** The qualified names of the outbox tables in one PostgreSQL schema (migrations 3 and 5). */
export interface OutboxTables {
  /** One row per event: partition, insertion order `n`, the commit-order stamp `seq` (set by readers), the event as jsonb. */
  readonly events: string;
  /** The sequence readers stamp `seq` from. */
  readonly stamps: string;
  /** Each consumer's position per partition, and who leases the partition until when. */
  readonly positions: string;
  /** Instances reading for a consumer, seen within a lease: the partitions are shared among them. */
  readonly readers: string;
  /** Events a consumer gave up on. */
  readonly deadLetters: string;
}

export function outboxTables(schema: string): OutboxTables {
  const q = (name: string): string => `${quoteIdent(schema)}.${quoteIdent(name)}`;
  return {
    events: q('scim_events'),
    stamps: q('scim_event_stamps'),
    positions: q('scim_event_positions'),
    readers: q('scim_event_readers'),
    deadLetters: q('scim_event_dead_letters'),
  };
}

/** Migration 3: the outbox tables as first created (migration 5 changes how `scim_events` is ordered). */
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
 * Migration 5: events ordered by their readers, not under a lock of the writers. A write only
 * appends its event rows (`n`, insertion order; `seq` null), in the write's own statement or
 * transaction, with one index entry (the unstamped index). A reader stamps the committed rows of a
 * partition with `seq` from a sequence, in `n` order, one reader of a partition at a time (a
 * transaction-level advisory lock); a consumer resumes after a `seq`, and every stamp comes after
 * the stamps already committed, so nothing is skipped. Two writes of one resource commit one after
 * the other (the row lock of the resource), so the first's rows have the lower `n` and are stamped
 * first. Rows already in the table keep their `seq`.
 */
export function outboxStampStatements(schema: string): string[] {
  const t = outboxTables(schema);
  const index = (name: string): string => `${quoteIdent(schema)}.${quoteIdent(name)}`;
  return [
    `ALTER TABLE ${t.events} DROP CONSTRAINT IF EXISTS scim_events_pkey`,
    `DROP INDEX IF EXISTS ${index('scim_events_created')}`,
    `ALTER TABLE ${t.events} ALTER COLUMN seq DROP IDENTITY IF EXISTS, ALTER COLUMN seq DROP NOT NULL, DROP COLUMN id, DROP COLUMN tenant`,
    `ALTER TABLE ${t.events} ADD COLUMN n bigint GENERATED ALWAYS AS IDENTITY`,
    `CREATE SEQUENCE ${t.stamps}`,
    `SELECT setval(${quoteLiteral(t.stamps)}, coalesce((SELECT max(seq) FROM ${t.events}), 0) + 1, false)`,
    `CREATE UNIQUE INDEX scim_events_stamped ON ${t.events} (partition, seq) WHERE seq IS NOT NULL`,
    `CREATE INDEX scim_events_unstamped ON ${t.events} (partition, n) WHERE seq IS NULL`,
  ];
}

/**
 * The rows of `$param` (`[[partition, event], …]`, JSON) for the events table, in order, as a
 * SELECT; `condition` (SQL) keeps them only when the write wrote.
 */
function eventRows(param: string, condition: string): string {
  return `SELECT (e->>0)::smallint, e->1 FROM jsonb_array_elements(${param}::jsonb) WITH ORDINALITY AS x(e, o) WHERE ${condition} ORDER BY o`;
}

/** The INSERT of the events of `$1` (`[[partition, event], …]`), in order: inside a write's transaction. */
export function insertEventsSql(table: string): string {
  return `INSERT INTO ${table} (partition, event) ${eventRows('$1', 'true')}`;
}

/**
 * A CTE (`, evented AS (…)`) that appends the events of `param` to a write statement, only if the
 * CTE `written` returned a row: the write and its events are one statement (one round trip, one
 * commit).
 */
export function eventsCte(table: string, param: string, written: string): string {
  return `, evented AS (INSERT INTO ${table} (partition, event) ${eventRows(param, `EXISTS (SELECT 1 FROM ${written})`)})`;
}

/**
 * Stamp the committed, unstamped rows of partition `$1` (at most `$2`) with `seq`, in `n` order;
 * nothing if another reader is stamping the partition right now (it will have stamped them). The
 * lock is taken (the InitPlan) before any `nextval`, and held until this statement commits.
 */
export function stampEventsSql(t: OutboxTables): string {
  return `UPDATE ${t.events} e SET seq = s.seq
    FROM (SELECT u.n, nextval(${quoteLiteral(t.stamps)}) AS seq FROM (
        SELECT n FROM ${t.events} WHERE partition = $1 AND seq IS NULL AND (SELECT pg_try_advisory_xact_lock(hashtext(${quoteLiteral(t.events)}), $1::int))
        ORDER BY n LIMIT $2 FOR UPDATE) u ORDER BY u.n) s
    WHERE e.partition = $1 AND e.seq IS NULL AND e.n = s.n`;
}
